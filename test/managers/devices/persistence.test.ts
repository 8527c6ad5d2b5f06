/**
 * Devices outlive the hub: after a stop, the lamp (lamp-app.ts) is there again with its settings,
 * its store (the app's onAdded wrote one) and its last capability values; after a power cut
 * (SIGKILL), what was answered before it is there too: the record, a store value and settings
 * are on disk before their answer (capability values are written every few seconds, so the
 * test waits that long for them).
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { pause, poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { APP, type Device, pairLamp, writeLampApp } from './lamp-app.js';

let appsDir: string;
let dataDir: string;
let hub: RunningHub;
let lamp: Device;

const stdout = async (): Promise<string> => (await hub.call<{ stdout: string }>('POST', `/api/manager/apps/app/${APP}/crashlog`, { body: {} })).body.stdout;

async function start(): Promise<void> {
  hub = await startHub({ appsDir, dataDir });
  await waitAppRunning(hub, APP);
}

beforeAll(async () => {
  appsDir = await tempDir('hearth-persist-apps-');
  dataDir = await tempDir('hearth-persist-data-');
  await writeLampApp(appsDir);
  await start();
  await poll(stdout, (s) => s.includes('LampDriver has been initialized'), 'the driver to start');
  lamp = await pairLamp(hub);
  await poll(stdout, (s) => s.includes('added Lamp 1'), 'onAdded to run');
});

afterAll(async () => {
  await hub?.cleanup();
  await rm(appsDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

const device = async (): Promise<Device & { capabilitiesObj: Record<string, { value: unknown }> }> =>
  (await hub.call<Device & { capabilitiesObj: Record<string, { value: unknown }> }>('GET', `/api/manager/devices/device/${lamp.id}`)).body;

describe('devices across restarts', () => {
  it('are there after a stop, with settings, store and values, and their app makes them again', async () => {
    await hub.call('PUT', `/api/manager/devices/device/${lamp.id}/capability/onoff`, { body: { value: true } });
    await hub.call('PUT', `/api/manager/devices/device/${lamp.id}/settings`, { body: { ip: '10.1.1.1' } });
    expect(await hub.stop()).toBe(0);
    await start();
    const after = await device();
    expect(after).toMatchObject({ name: 'Lamp 1', settings: { ip: '10.1.1.1' }, available: true });
    // The root zone made on the first start is the same one: the device is still in it.
    expect((await hub.call<{ root: string }>('GET', '/api/manager/zones/state')).body.root).toBe(lamp.zone);
    expect(after.capabilitiesObj.onoff?.value).toBe(true);
    expect(after.capabilitiesObj.measure_temperature?.value).toBe(21.5);
    // The app's device started from the hub's record: its store holds what onAdded wrote.
    const log = await poll(stdout, (s) => s.split('starting').pop()?.includes('device init Lamp 1') === true, 'the device to be made again');
    expect(log).toContain('device init Lamp 1 {"id":"lamp-1"} 10.0.0.7 10.1.1.1');
  });

  it('keep what was answered before a power cut', async () => {
    await hub.call('PUT', `/api/manager/devices/device/${lamp.id}`, { body: { name: 'Porch lamp' } });
    await hub.call('PUT', `/api/manager/devices/device/${lamp.id}/capability/onoff`, { body: { value: false } });
    await pause(6_000, 'capability values are written within 5 s of a change');
    await hub.kill('SIGKILL');
    await start();
    const after = await device();
    expect(after.name).toBe('Porch lamp');
    expect(after.capabilitiesObj.onoff?.value).toBe(false);
    expect(after.capabilitiesObj.measure_temperature?.value).toBe(18);
  });
});
