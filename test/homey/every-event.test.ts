/**
 * Homey's own client (homey-api V3 local) connected to every manager it has while the hub fires
 * each kind of event a home makes: zones, devices and their capabilities, pairing, flows and
 * their runs, variables, tokens, insights, dashboards, apps and their settings, notifications,
 * people and their presence.
 * Every event on a `homey:manager:*` channel must have the payload the client expects for that
 * manager (a `notification.create` once went on the apps channel and made its handler throw in
 * every client listening to apps): nothing the client does with an event may throw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANAGER_NAMES } from '../../src/core/contract.js';
import { type HomeyApiClient, type HomeyApiManager, loadHomeyApi } from '../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { pause, poll } from '../helpers/poll.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { APP, DRIVER, pairLamp, writeLampApp } from '../managers/devices/lamp-app.js';

/** Managers of homey-api's V3 local client that hearth serves, and the call that fills each one's cache. */
const MANAGERS: Record<string, string | null> = {
  apps: 'getApps',
  dashboards: 'getDashboards',
  devices: 'getDevices',
  drivers: 'getDrivers',
  flow: 'getFlows',
  flowtoken: 'getFlowTokens',
  insights: 'getLogs',
  logic: 'getVariables',
  zones: 'getZones',
  geolocation: null,
  i18n: null,
  system: null,
  images: null,
  notifications: 'getNotifications',
  users: 'getUsers',
  presence: null,
};

let hub: RunningHub;
let client: HomeyApiClient;
const thrown: unknown[] = [];
const onError = (err: unknown) => thrown.push(err);

beforeAll(async () => {
  const appsDir = await tempDir('hearth-every-event-');
  await writeLampApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  const homeyApi = await loadHomeyApi();
  client = await homeyApi.HomeyAPI.createLocalAPI({ address: hub.url, token: OWNER });
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
}, 120_000);

afterAll(async () => {
  process.off('uncaughtException', onError);
  process.off('unhandledRejection', onError);
  client?.destroy();
  await hub?.cleanup();
});

describe('homey-api connected to every manager while each kind of event fires', () => {
  it('hears them all and nothing it does with them throws', async () => {
    const heard: string[] = [];
    for (const [name, fill] of Object.entries(MANAGERS)) {
      const manager = (client as unknown as Record<string, HomeyApiManager | undefined>)[name];
      if (!manager) continue;
      // One hearth does not have.
      if (!(MANAGER_NAMES as readonly string[]).includes(name)) continue;
      await manager.connect();
      if (fill) await (manager[fill] as () => Promise<unknown>).call(manager);
      // Every event the client passes on, by name (the ones it made items of, and the others).
      const emit = (manager as unknown as { emit: (event: string, ...args: unknown[]) => boolean }).emit;
      (manager as unknown as { emit: (event: string, ...args: unknown[]) => boolean }).emit = function (event: string, ...args: unknown[]) {
        heard.push(`${name}:${event}`);
        return emit.call(this, event, ...args);
      };
    }
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await hub.call<Record<string, unknown>>(method, path, body === undefined ? {} : { body });
      expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
      return r.body;
    };
    // Zones.
    const home = Object.keys(await call('GET', '/api/manager/zones/zone'))[0];
    const zone = await call('POST', '/api/manager/zones/zone', { name: 'Shed', parent: home });
    await call('PUT', `/api/manager/zones/zone/${zone.id}`, { name: 'Garden shed' });
    // Devices: paired (pairing sessions), renamed, switched (capability events), deleted.
    const lamp = await pairLamp(hub);
    await call('PUT', `/api/manager/devices/device/${lamp.id}`, { name: 'Hall lamp', zone: zone.id });
    await call('PUT', `/api/manager/devices/device/${lamp.id}/capability/onoff`, { value: true });
    const session = await call('POST', '/api/manager/drivers/pairsession', { type: 'pair', driverId: DRIVER });
    await call('DELETE', `/api/manager/drivers/pairsession/${session.id}`);
    // Variables, flows, their runs and a notification.
    const variable = await call('POST', '/api/manager/logic/variable', { name: 'Counter', type: 'number', value: 1 });
    await call('PUT', `/api/manager/logic/variable/${variable.id}`, { value: 2 });
    const flow = await call('POST', '/api/manager/flow/flow', {
      name: 'Tell me',
      trigger: { id: 'homey:manager:flow:programmatic_trigger' },
      conditions: [],
      actions: [{ id: 'homey:manager:notifications:create_notification', group: 'then', args: { text: 'Hello from a flow' } }],
    });
    await call('POST', `/api/manager/flow/flow/${flow.id}/trigger`, {});
    await call('PUT', `/api/manager/flow/flow/${flow.id}`, { name: 'Tell me again' });
    // Dashboards, an app's setting and a restart of the app.
    await call('POST', '/api/manager/dashboards/dashboard', { name: 'Kitchen', columns: [] });
    await call('PUT', `/api/manager/apps/app/${APP}/setting/greeting`, { value: 'hi' });
    await call('POST', `/api/manager/apps/app/${APP}/restart`, {});
    // People: one added, home, renamed, removed.
    const person = await call('POST', '/api/manager/users/user', { name: 'Nan', role: 'user' });
    await call('PUT', `/api/manager/presence/${person.id}/present`, { value: true });
    await call('PUT', `/api/manager/users/user/${person.id}`, { name: 'Nana' });
    await call('DELETE', `/api/manager/users/user/${person.id}`);
    // Then the deletions.
    await call('DELETE', `/api/manager/flow/flow/${flow.id}`);
    await call('DELETE', `/api/manager/logic/variable/${variable.id}`);
    await call('DELETE', `/api/manager/devices/device/${lamp.id}`);
    await call('DELETE', `/api/manager/zones/zone/${zone.id}`);
    await poll(
      async () => heard,
      (h) => h.includes('zones:zone.delete'),
      'the last event to reach the client',
    );
    await pause(500, 'what the client does with the last events');
    for (const event of [
      'zones:zone.create',
      'devices:device.update',
      'devices:device.delete',
      'logic:variable.update',
      'flow:flow.delete',
      'dashboards:dashboard.create',
      'apps:app.update',
      'notifications:notification.create',
      'users:user.create',
      'users:user.update',
      'users:user.delete',
    ]) {
      expect(heard, event).toContain(event);
    }
    expect(thrown.map((e) => String((e as Error)?.stack ?? e))).toEqual([]);
  });
});
