/**
 * The lamp app (lamp-app.ts, written from Homey's docs) run unchanged on a real hub: paired
 * headless through the drivers Web API, controlled through the devices Web API, kept across a
 * restart of its app, renamed and deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_SCOPES } from '../../../src/core/scopes.js';
import { openEvents } from '../../helpers/events.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { APP, type Device, DRIVER, writeLampApp } from './lamp-app.js';

let hub: RunningHub;
const stdout = async (): Promise<string> => (await hub.call<{ stdout: string }>('POST', `/api/manager/apps/app/${APP}/crashlog`, { body: {} })).body.stdout;
const waitLog = (text: string) => poll(stdout, (s) => s.includes(text), `the app to log '${text}'`);

beforeAll(async () => {
  const appsDir = await tempDir('hearth-devices-apps-');
  await writeLampApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  await waitLog('LampDriver has been initialized');
});

afterAll(async () => {
  await hub?.cleanup();
});

let device: Device;

describe('a driver app from the docs', () => {
  it('lists its driver, and pairs a device headless: list_devices, then add it', async () => {
    const drivers = await hub.call<Record<string, { name: string; unpairable: string | null; pair: Array<{ id: string }> }>>(
      'GET',
      '/api/manager/drivers/driver',
    );
    expect(drivers.status).toBe(200);
    expect(drivers.body[DRIVER]).toMatchObject({ name: 'Lamp', unpairable: null, pair: [{ id: 'list_devices' }, { id: 'add_devices' }] });

    const session = await hub.call<{ id: string; view: string }>('POST', '/api/manager/drivers/pairsession', { body: { type: 'pair', driverId: DRIVER } });
    expect(session.status).toBe(201);
    expect(session.body.view).toBe('list_devices');
    const listed = await hub.call<Array<{ name: string; data: unknown }>>('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, {
      body: { event: 'list_devices' },
    });
    expect(listed.status).toBe(200);
    expect(listed.body.map((d) => d.name)).toEqual(['Lamp 1', 'Lamp 2']);

    const added = await hub.call<Device>('POST', `/api/manager/drivers/pairsession/${session.body.id}/device`, { body: listed.body[0] });
    expect(added.status).toBe(201);
    device = added.body;
    expect(device).toMatchObject({ name: 'Lamp 1', driverId: DRIVER, available: true, capabilities: ['onoff', 'dim', 'measure_temperature', 'my_level'] });
    expect(device.settings).toEqual({ ip: '0.0.0.0' });
    expect(device.capabilitiesObj.my_level).toMatchObject({ title: 'My level', units: 'lv', max: 10, setable: true, value: null });
    expect(await waitLog('added Lamp 1')).toContain('device init Lamp 1 {"id":"lamp-1"} 10.0.0.7 0.0.0.0');
    const again = await hub.call<{ error_description: string }>('POST', `/api/manager/drivers/pairsession/${session.body.id}/device`, { body: listed.body[0] });
    expect(again.status).toBe(409);
    expect(again.body.error_description).toBe('this device (Lamp 1) is added already');
    // Listed again, the paired lamp is left out (by its data, as Homey's docs say).
    const relisted = await hub.call<Array<{ name: string }>>('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, {
      body: { event: 'list_devices' },
    });
    expect(relisted.body.map((d) => d.name)).toEqual(['Lamp 2']);
    expect((await hub.call('DELETE', `/api/manager/drivers/pairsession/${session.body.id}`)).status).toBe(204);

    const zones = await hub.call<Record<string, { parent: string | null }>>('GET', '/api/manager/zones/zone');
    const root = Object.entries(zones.body).find(([, z]) => z.parent === null)?.[0];
    expect(device.zone).toBe(root);
  });

  it("sets a capability through the app's listener, which reports another one", async () => {
    const set = await hub.call('PUT', `/api/manager/devices/device/${device.id}/capability/onoff`, { body: { value: true } });
    expect(set.status).toBe(200);
    expect(await stdout()).toContain('onoff -> true');
    const got = await hub.call<Device>('GET', `/api/manager/devices/device/${device.id}`);
    expect(got.body.capabilitiesObj.onoff?.value).toBe(true);
    expect(got.body.capabilitiesObj.measure_temperature?.value).toBe(21.5);
    expect((await hub.call('GET', `/api/manager/devices/device/${device.id}/capability/measure_temperature`)).body).toBe(21.5);
  });

  it('logs the capabilities with insights: a log per capability, owned by the device', async () => {
    const owner = `homey:device:${device.id}`;
    // Entries are committed within a second of their value.
    const logs = await poll(
      () => hub.call<Record<string, { title: string; type: string; units: string | null; lastValue: unknown }>>('GET', '/api/manager/insights/log'),
      // != null: a log not made yet (undefined) is not committed either.
      (r) => r.body[`${owner}:onoff`]?.lastValue != null && r.body[`${owner}:measure_temperature`]?.lastValue != null,
      'the values to be committed to insights',
    );
    expect(logs.body[`${owner}:onoff`]).toMatchObject({ type: 'boolean', lastValue: true });
    expect(logs.body[`${owner}:measure_temperature`]).toMatchObject({ type: 'number', units: '°C', lastValue: 21.5 });
    expect(logs.body[`${owner}:my_level`]).toBeUndefined(); // no value yet, and the app's capability asks for none
    const entries = await poll(
      () => hub.call<{ values: Array<{ v: unknown }> }>('GET', `/api/manager/insights/log/${owner}/measure_temperature/entry`),
      // Every bucket of the range is there, empty ones null: wait for one that holds the value.
      (r) => r.status === 200 && r.body.values.some((x) => x.v !== null),
      'the temperature entry to be committed',
    );
    expect(entries.body.values.filter((x) => x.v !== null).at(-1)?.v).toBe(21.5);
  });

  it('runs a multiple capability listener once for values set together', async () => {
    const [a, b] = await Promise.all([
      hub.call('PUT', `/api/manager/devices/device/${device.id}/capability/dim`, { body: { value: 0.5 } }),
      hub.call('PUT', `/api/manager/devices/device/${device.id}/capability/my_level`, { body: { value: 7 } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await stdout()).toContain('multiple -> {"dim":0.5,"my_level":7}');
  });

  it.each([
    ['measure_temperature', 30, 400, "Temperature of 'Lamp 1' cannot be set"],
    ['dim', 2, 400, 'takes 1 at most (got 2)'],
    ['onoff', 'yes', 400, 'takes true or false'],
    ['my_level', 11, 400, 'My level takes 10 at most (got 11)'],
    ['alarm_smoke', true, 404, "device 'Lamp 1' has no capability 'alarm_smoke'"],
  ])('refuses %s = %j with %i and a sentence', async (capability, value, status, sentence) => {
    const r = await hub.call<{ error_description: string }>('PUT', `/api/manager/devices/device/${device.id}/capability/${capability}`, { body: { value } });
    expect(r.status).toBe(status);
    expect(r.body.error_description).toContain(sentence);
  });

  it("changes settings through the app's onSettings, which may refuse them with its own sentence", async () => {
    const set = await hub.call<Device>('PUT', `/api/manager/devices/device/${device.id}/settings`, { body: { ip: '10.0.0.9' } });
    expect(set.status).toBe(200);
    expect(set.body.settings).toEqual({ ip: '10.0.0.9' });
    expect(await stdout()).toContain('settings ["ip"] 0.0.0.0 -> 10.0.0.9');
    const refused = await hub.call<{ error_description: string }>('PUT', `/api/manager/devices/device/${device.id}/settings`, { body: { ip: 'bad' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error_description).toBe("'Lamp 1' refused the settings: That is not an IP address");
    const unknown = await hub.call<{ error_description: string }>('PUT', `/api/manager/devices/device/${device.id}/settings`, { body: { port: 80 } });
    expect(unknown.body.error_description).toBe("'Lamp 1' has no setting 'port'");
    const obj = await hub.call<Array<{ id: string; value: unknown }>>('GET', `/api/manager/devices/device/${device.id}/settings_obj`);
    expect(obj.body).toEqual([expect.objectContaining({ id: 'ip', type: 'text', value: '10.0.0.9', default: '0.0.0.0' })]);
  });

  it('keeps the device across a restart of its app, unavailable while the app is down', async () => {
    const events = await openEvents(hub.wsUrl, 'devices', OWNER);
    // What a client hears of the app's going and coming: the device's reachability, changed.
    const told = (available: boolean) =>
      events.next((f) => {
        const [view, info] = f.args as [Device, { changedKeys: string[] }];
        return f.event === 'device.update' && view.id === device.id && view.available === available && info.changedKeys.includes('available');
      });
    const stop = await hub.call('PUT', `/api/manager/apps/app/${APP}/disable`);
    expect(stop.status).toBe(200);
    const gone = await told(false);
    expect((gone.args[1] as { changedKeys: string[] }).changedKeys.sort()).toEqual(['available', 'ready', 'unavailableMessage']);
    const down = await hub.call<Device>('GET', `/api/manager/devices/device/${device.id}`);
    expect(down.body).toMatchObject({ available: false, unavailableMessage: `its app '${APP}' is not running` });
    expect((await hub.call('GET', '/api/manager/devices/state')).body).toEqual({ devices: 1, unavailable: 1 });
    const refused = await hub.call<{ error_description: string }>('PUT', `/api/manager/devices/device/${device.id}/capability/onoff`, {
      body: { value: false },
    });
    expect(refused.status).toBe(503);
    expect((await hub.call('PUT', `/api/manager/apps/app/${APP}/enable`)).status).toBe(200);
    await waitAppRunning(hub, APP);
    // The log keeps earlier runs: this run's part starts at its last 'starting' line.
    const run = await poll(
      async () => (await stdout()).split('starting').pop() ?? '',
      (s) => s.includes('device init Lamp 1'),
      'the device to be made again',
    );
    expect(run).not.toContain('added Lamp 1');
    const up = await hub.call<Device & { capabilitiesObj: Record<string, { value: unknown }> }>('GET', `/api/manager/devices/device/${device.id}`);
    expect(up.body).toMatchObject({ available: true, unavailableMessage: null });
    expect((await told(true)).args[0]).toMatchObject({ ready: true, unavailableMessage: null });
    events.close();
    expect((await hub.call('GET', '/api/manager/devices/state')).body).toEqual({ devices: 1, unavailable: 0 });
    expect(up.body.capabilitiesObj.onoff?.value).toBe(true);
  });

  it('a phone signed in with the default choices sees the lamp, its zone and the dashboards, and switches it', async () => {
    const login = await hub.call<{ code: string }>('POST', '/api/manager/tokens/login', { body: { scopes: PHONE_SCOPES } });
    const phone = (
      await hub.call<{ token: string }>('POST', '/api/manager/tokens/login/redeem', { token: null, body: { code: login.body.code, browser: 'Phone' } })
    ).body.token;
    const seen = await hub.call<Record<string, { name: string }>>('GET', '/api/manager/devices/device', { token: phone });
    expect(Object.values(seen.body).map((d) => d.name)).toEqual(['Lamp 1']);
    for (const path of ['/api/manager/zones/zone', '/api/manager/dashboards/dashboard', '/api/manager/flow/flow']) {
      expect((await hub.call('GET', path, { token: phone })).status, path).toBe(200);
    }
    for (const value of [false, true]) {
      const switched = await hub.call('PUT', `/api/manager/devices/device/${device.id}/capability/onoff`, { token: phone, body: { value } });
      expect(switched.status).toBe(200);
    }
    // Setting up the home is not a phone's: renaming the lamp is refused.
    expect((await hub.call('PUT', `/api/manager/devices/device/${device.id}`, { token: phone, body: { name: 'Mine' } })).status).toBe(403);
  });

  it('renames and deletes the device, and the app hears both', async () => {
    const renamed = await hub.call<Device>('PUT', `/api/manager/devices/device/${device.id}`, { body: { name: 'Hall lamp' } });
    expect(renamed.body.name).toBe('Hall lamp');
    await waitLog('renamed to Hall lamp');
    expect((await hub.call('DELETE', `/api/manager/devices/device/${device.id}`)).status).toBe(204);
    await waitLog('deleted Hall lamp');
    expect((await hub.call('GET', `/api/manager/devices/device/${device.id}`)).status).toBe(404);
    const logs = await hub.call<Record<string, unknown>>('GET', '/api/manager/insights/log');
    expect(Object.keys(logs.body).filter((k) => k.startsWith(`homey:device:${device.id}`))).toEqual([]);
  });
});
