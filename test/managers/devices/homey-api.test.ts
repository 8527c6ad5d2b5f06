/**
 * Homey's own client (npm homey-api, V3 local and V2) with the hub's devices: it lists them,
 * sets a capability (run by the lamp app's listener), and hears a value the app reports through
 * `device.makeCapabilityInstance`, as a dashboard built on homey-api would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientDevices, type HomeyApiClient, type HomeyApiDevices, type HomeyApiModule, homeyClient, loadHomeyApi } from '../../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { APP, type Device, DRIVER, pairLamp, writeLampApp } from './lamp-app.js';

let hub: RunningHub;
let homeyApi: HomeyApiModule;
let lamp: Device;
const clients: HomeyApiClient[] = [];
const stdout = async (): Promise<string> => (await hub.call<{ stdout: string }>('POST', `/api/manager/apps/app/${APP}/crashlog`, { body: {} })).body.stdout;

beforeAll(async () => {
  homeyApi = await loadHomeyApi();
  const appsDir = await tempDir('hearth-devices-homey-api-');
  await writeLampApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  await poll(stdout, (s) => s.includes('LampDriver has been initialized'), 'the driver to start');
  lamp = await pairLamp(hub);
}, 240_000);

afterAll(async () => {
  for (const c of clients) c.destroy();
  await hub?.cleanup();
});

async function devicesOf(flavour: 'V3 local' | 'V2'): Promise<HomeyApiDevices> {
  const client = await homeyClient(homeyApi, hub.url, OWNER, flavour);
  clients.push(client);
  return clientDevices(client);
}

describe.each(['V3 local', 'V2'] as const)('homey-api %s', (flavour) => {
  it('lists the devices with their capability values, and sets a capability through the app', async () => {
    const devices = await devicesOf(flavour);
    const all = await devices.getDevices();
    expect(Object.values(all).map((d) => d.name)).toEqual(['Lamp 1']);
    const value = flavour === 'V2';
    await devices.setCapabilityValue({ deviceId: lamp.id, capabilityId: 'onoff', value });
    expect(await stdout()).toContain(`onoff -> ${value}`);
    const device = await devices.getDevice({ id: lamp.id });
    expect(device.capabilitiesObj.onoff?.value).toBe(value);
    expect(device.capabilitiesObj.measure_temperature?.value).toBe(value ? 21.5 : 18);
  });
});

describe('a capability instance (homey-api V3 local)', () => {
  it('hears the value the app reports after another client switched the lamp', async () => {
    const devices = await devicesOf('V3 local');
    const device = await devices.getDevice({ id: lamp.id });
    const heard: unknown[] = [];
    const temperature = device.makeCapabilityInstance('measure_temperature', (v) => heard.push(v));
    // The instance subscribes to homey:device:<id> on its own; a value set before it listens is lost.
    await poll(
      async () => {
        await hub.call('PUT', `/api/manager/devices/device/${lamp.id}/capability/onoff`, { body: { value: heard.length % 2 === 0 } });
        return heard;
      },
      (h) => h.length > 0,
      'the capability instance to hear a value',
      100,
      100,
    );
    expect([21.5, 18]).toContain(heard[0]);
    temperature.destroy();
  });

  it('sets a value through its instance, and its own set is not echoed back to it', async () => {
    const devices = await devicesOf('V3 local');
    const device = await devices.getDevice({ id: lamp.id });
    const heard: unknown[] = [];
    const onoff = device.makeCapabilityInstance('onoff', (v) => heard.push(v));
    await onoff.setValue(true);
    expect(onoff.value).toBe(true);
    expect((await hub.call('GET', `/api/manager/devices/device/${lamp.id}/capability/onoff`)).body).toBe(true);
    // Another client's set is heard.
    await poll(
      async () => {
        await hub.call('PUT', `/api/manager/devices/device/${lamp.id}/capability/onoff`, { body: { value: false } });
        return heard;
      },
      (h) => h.includes(false),
      'the instance to hear another client',
      100,
      100,
    );
    expect(heard).not.toContain(true);
    onoff.destroy();
  });
});

describe('a connected client (its calls go over the socket, with its own options in args)', () => {
  it('pairs a device and renames it, as it would over HTTP', async () => {
    const client = await homeyClient(homeyApi, hub.url, OWNER, 'V3 local');
    clients.push(client);
    const { drivers, devices } = client as unknown as {
      drivers: {
        connect(): Promise<void>;
        createPairSession(o: object): Promise<{ id: string }>;
        emitPairingEvent(o: object): Promise<Array<{ name: string }>>;
        createPairSessionDevice(o: object): Promise<{ id: string; name: string }>;
        deletePairSession(o: object): Promise<void>;
      };
      devices: { connect(): Promise<void>; updateDevice(o: object): Promise<{ name: string }> };
    };
    await devices.connect();
    await drivers.connect();
    const session = await drivers.createPairSession({ pairsession: { type: 'pair', driverId: DRIVER } });
    const listed = await drivers.emitPairingEvent({ id: session.id, event: 'list_devices' });
    // Lamp 1 was paired above: the list leaves it out (by its data), as Homey's docs say.
    expect(listed.map((d) => d.name)).toEqual(['Lamp 2']);
    const added = await drivers.createPairSessionDevice({ id: session.id, device: listed[0] });
    expect(added.name).toBe('Lamp 2');
    await drivers.deletePairSession({ id: session.id });
    expect((await devices.updateDevice({ id: added.id, device: { name: 'Hall lamp' } })).name).toBe('Hall lamp');
    expect((await hub.call<{ name: string }>('GET', `/api/manager/devices/device/${added.id}`)).body.name).toBe('Hall lamp');
  });
});

describe("a device's insights logs in Homey V3's form (homey-api V3 local)", () => {
  it("names each device's log by its whole id, and log entries come by that id (V2's owner-and-id path still works)", async () => {
    const all = (await hub.call<Record<string, { id: string }>>('GET', '/api/manager/devices/device')).body;
    const ids = Object.keys(all);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect((await hub.call('PUT', `/api/manager/devices/device/${id}/capability/onoff`, { body: { value: true } })).status).toBe(200);
    const client = await homeyClient(homeyApi, hub.url, OWNER, 'V3 local');
    clients.push(client);
    const insights = client.insights as unknown as {
      getLogs(): Promise<Record<string, { id: string; ownerUri: string; ownerId: string }>>;
      getLogEntries(o: { id: string; resolution?: string }): Promise<{ values: Array<{ v: unknown }> }>;
    };
    const onoff = await poll(
      async () => Object.values(await insights.getLogs()).filter((l) => l.ownerId === 'onoff' && l.ownerUri.startsWith('homey:device:')),
      (logs) => logs.length === ids.length,
      "every device's onoff log",
    );
    // One log per device: two devices' `onoff` logs do not collide in the client's cache.
    expect(onoff.map((l) => l.id).sort()).toEqual(ids.map((id) => `homey:device:${id}:onoff`).sort());
    const entries = await poll(
      () => insights.getLogEntries({ id: `homey:device:${lamp.id}:onoff`, resolution: 'last24Hours' }),
      (e) => e.values.some((p) => p.v === true),
      "the lamp's onoff entries",
    );
    expect(entries.values.at(-1)?.v).toBe(true);
    const v2 = await hub.call<{ values: unknown[] }>('GET', `/api/manager/insights/log/homey:device:${lamp.id}/onoff/entry`);
    expect([v2.status, v2.body.values.length > 0]).toEqual([200, true]);
  });
});
