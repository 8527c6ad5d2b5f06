/**
 * Pairing through the drivers Web API, as a script (or Homey's client) does it, with the cloud
 * app (cloud-app.ts, from Homey's pairing docs): login_credentials checked by the driver, the
 * driver's own events kept on the session for the views, handlers that do not exist, and a
 * session that ends with its app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { ACCOUNT_DRIVER, CLOUD_APP, pairHeadless, writeCloudApp } from './cloud-app.js';

let hub: RunningHub;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-pairing-apps-');
  await writeCloudApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, CLOUD_APP);
});

afterAll(async () => {
  await hub?.cleanup();
});

interface Session {
  id: string;
  view: string;
  toView: Array<{ seq: number; kind: string; event: string | null; data: unknown }>;
}

describe('pairing headless', () => {
  it('lists the driver with its views, the custom one without a template', async () => {
    const driver = await hub.call<{ pair: Array<{ id: string; template: string | null; next: string | null }> }>(
      'GET',
      `/api/manager/drivers/driver/${ACCOUNT_DRIVER}`,
    );
    expect(driver.body.pair).toEqual([
      { id: 'login_credentials', template: 'login_credentials', next: 'choose', prev: null, options: {} },
      { id: 'choose', template: null, next: null, prev: 'login_credentials', options: {} },
    ]);
  });

  it("adds nothing when the driver refuses the login, and the account's lamp when it takes it", async () => {
    expect(await pairHeadless(hub, 'wrong')).toEqual({ login: false, added: null });
    const { login, added } = await pairHeadless(hub, 'secret');
    expect(login).toBe(true);
    expect(added?.status).toBe(201);
    expect(added?.body.name).toBe("bob's lamp");
    const devices = await hub.call<Record<string, { name: string }>>('GET', '/api/manager/devices/device');
    expect(Object.values(devices.body).map((d) => d.name)).toEqual(["bob's lamp"]);
  });

  it('keeps what the driver sends its views on the session, and says when no handler answers an event', async () => {
    const session = await hub.call<Session>('POST', '/api/manager/drivers/pairsession', { body: { driverId: ACCOUNT_DRIVER } });
    expect(session.body.view).toBe('login_credentials');
    const at = `/api/manager/drivers/pairsession/${session.body.id}`;
    await hub.call('POST', `${at}/emit`, { body: { event: 'login', data: { username: 'ann', password: 'secret' } } });
    expect((await hub.call('POST', `${at}/emit`, { body: { event: 'showView', data: 'choose' } })).status).toBe(200);
    const now = await hub.call<Session>('GET', at);
    expect(now.body.toView).toEqual([{ seq: 1, kind: 'emit', event: 'hello', data: { user: 'ann' } }]);
    const none = await hub.call<{ error_description: string }>('POST', `${at}/emit`, { body: { event: 'nope' } });
    expect(none.status).toBe(404);
    expect(none.body.error_description).toContain("the driver set no handler for the pairing event 'nope'");
    // A view's showView needs no handler: Homey sends it for every view.
    expect((await hub.call('POST', `${at}/emit`, { body: { event: 'showView', data: 'login_credentials' } })).status).toBe(200);
  });

  it("repairs a device: the driver's onRepair gets it, and renews its store", async () => {
    const devices = await hub.call<Record<string, { id: string; name: string }>>('GET', '/api/manager/devices/device');
    const bob = Object.values(devices.body).find((d) => d.name === "bob's lamp")!;
    const session = await hub.call<{ id: string; type: string; view: string }>('POST', '/api/manager/drivers/pairsession', {
      body: { type: 'repair', driverId: ACCOUNT_DRIVER, deviceId: bob.id },
    });
    expect(session.body).toMatchObject({ type: 'repair', view: 'login_credentials' });
    const at = `/api/manager/drivers/pairsession/${session.body.id}`;
    expect((await hub.call('POST', `${at}/emit`, { body: { event: 'login', data: { username: 'bob', password: 'secret' } } })).body).toBe(true);
    const log = (await hub.call<{ stdout: string }>('POST', `/api/manager/apps/app/${CLOUD_APP}/crashlog`, { body: {} })).body.stdout;
    expect(log).toContain("repaired bob's lamp renewed-for-bob");
    const added = await hub.call<{ error_description: string }>('POST', `${at}/device`, { body: { name: 'x', data: { id: 'x' } } });
    expect(added.body.error_description).toBe('a repair session adds no device');
    await hub.call('DELETE', at);
  });

  it('ends the sessions of an app that stops', async () => {
    const session = await hub.call<Session>('POST', '/api/manager/drivers/pairsession', { body: { driverId: ACCOUNT_DRIVER } });
    expect((await hub.call('PUT', `/api/manager/apps/app/${CLOUD_APP}/disable`)).status).toBe(200);
    expect((await hub.call('GET', `/api/manager/drivers/pairsession/${session.body.id}`)).status).toBe(404);
    const refused = await hub.call<{ error_description: string }>('POST', '/api/manager/drivers/pairsession', { body: { driverId: ACCOUNT_DRIVER } });
    expect(refused.status).toBe(409);
    expect(refused.body.error_description).toBe(`devices cannot be added with Cloud lamp: its app ${'cloudlamp'} is not running`);
    expect((await hub.call('PUT', `/api/manager/apps/app/${CLOUD_APP}/enable`)).status).toBe(200);
  });
});
