/**
 * An app's own `Device#setSettings` is held to its driver's declaration as a person's change is:
 * a declared setting takes a value of its type (Homey refuses otherwise, invalid_setting_type),
 * null clears one, a key the driver does not declare is the app's own; a refused call sets nothing.
 * A number setting's bounds are read where Homey's docs put them (`attr: {min, max}`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { pairDevice } from '../../helpers/pair.js';
import { writeHomeyApp } from '../../homey/apps.js';
import { waitAppRunning } from '../dashboards/helpers.js';

const APP = 'com.example.thermo';
let hub: RunningHub;
let device: string;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-app-settings-');
  await writeHomeyApp(appsDir, APP, {
    json: {
      api: { set: { method: 'POST', path: '/set' } },
      drivers: [
        {
          id: 'thermo',
          name: { en: 'Thermostat' },
          class: 'thermostat',
          capabilities: ['target_temperature'],
          platforms: ['local'],
          connectivity: ['lan'],
          settings: [
            { id: 'poll', type: 'number', label: { en: 'Poll every (s)' }, value: 60, attr: { min: 5, max: 3600 } },
            { id: 'firmware', type: 'text', label: { en: 'Firmware' }, value: '' },
            { id: 'eco', type: 'checkbox', label: { en: 'Eco' }, value: false },
          ],
        },
      ],
    },
    files: {
      'app.js': "module.exports = class extends require('homey').App {};\n",
      'drivers/thermo/driver.js':
        "module.exports = class extends require('homey').Driver { async onPairListDevices() { return [{ name: 'Hall', data: { id: 'hall' } }]; } };\n",
      'drivers/thermo/device.js': "module.exports = class extends require('homey').Device {};\n",
      // What the device's own code would do, asked through the app's API.
      'api.js':
        "module.exports = { async set({ homey, body }) { const [d] = homey.drivers.getDriver('thermo').getDevices(); return d.setSettings(body).then(() => 'set', (e) => e.message); } };\n",
    },
  });
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  device = await pairDevice(hub, `homey:app:${APP}:thermo`);
}, 60_000);
afterAll(() => hub?.cleanup());

const set = async (settings: Record<string, unknown>): Promise<string> => (await hub.call<string>('POST', `/api/app/${APP}/set`, { body: settings })).body;
const settings = async (): Promise<Record<string, unknown>> =>
  Object.fromEntries((await hub.op('devices', 'getDeviceSettingsObj', { params: { id: device } })).map((s) => [s.id, s.value]));

describe("an app's own setSettings", () => {
  it('keeps values of their declared types, and its own undeclared keys', async () => {
    expect(await set({ poll: 120, firmware: '2.4.1', eco: true, lastSync: 17 })).toBe('set');
    expect(await settings()).toMatchObject({ poll: 120, firmware: '2.4.1', eco: true });
  });

  it('refuses a value its declaration does not take, in a sentence, and sets nothing of that call', async () => {
    expect(await set({ firmware: 241, poll: 300 })).toBe("setting 'firmware' of 'Hall' takes a text: nothing was set (Homey: invalid_setting_type)");
    expect(await set({ poll: 1 })).toBe("setting 'poll' of 'Hall' takes 5 at least: nothing was set (Homey: invalid_setting_type)");
    expect(await set({ eco: 'yes' })).toBe("setting 'eco' of 'Hall' takes true or false: nothing was set (Homey: invalid_setting_type)");
    expect(await settings()).toMatchObject({ poll: 120, firmware: '2.4.1', eco: true });
  });

  it("holds a person's change to the bounds Homey's docs put in attr, as the app's", async () => {
    await expect(hub.op('devices', 'setDeviceSettings', { params: { id: device }, body: { poll: 1 } })).rejects.toMatchObject({
      status: 400,
      body: { error_description: "setting 'poll': takes 5 at least" },
    });
  });
});
