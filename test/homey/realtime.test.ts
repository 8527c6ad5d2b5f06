/**
 * Homey's own client (npm homey-api, V2 and V3 local) hears the hub: `manager.connect()` opens
 * Homey's realtime protocol (socket.io 2 with handshakeClient and subscriptions by URI), and the
 * client receives dashboard, widget store, app and insights log events as it receives Homey's.
 * While connected, the client sends its operations over the socket; they answer as over HTTP. A
 * token without a manager's read scope is refused its subscription, an unknown token its handshake.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HomeyApiClient, type HomeyApiManager, type HomeyApiModule, loadHomeyApi, loadSocketIo2, type SocketIo2 } from '../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { APP, BASE, body, CLOCK, copyFixture, type DashboardView, waitAppRunning, widgetIds } from '../managers/dashboards/helpers.js';
import { writeHomeyApp } from './apps.js';

let hub: RunningHub;
let homeyApi: HomeyApiModule;
let homeyId: string;
const clients: HomeyApiClient[] = [];
/** What the clients' debug output said (homey-api logs `IO <operation>` for a call over the socket). */
const debug: string[] = [];
const LOGGER = 'com.example.logger';

async function token(scopes: string[]): Promise<string> {
  return (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'homey-api', scopes } })).body.token;
}

/** A client of either flavour, as Homey's users make one: createLocalAPI (V3 local), or HomeyAPIV2 for a Homey Pro 2019. */
async function client(flavour: 'V2' | 'V3 local', secret: string): Promise<HomeyApiClient> {
  const made =
    flavour === 'V3 local'
      ? await homeyApi.HomeyAPI.createLocalAPI({ address: hub.url, token: secret, debug: log })
      : new homeyApi.HomeyAPIV2({ token: secret, baseUrl: hub.url, strategy: [], properties: { id: homeyId, softwareVersion: '12.3.0' }, debug: log });
  clients.push(made);
  return made;
}

const log = (...words: unknown[]): void => {
  debug.push(words.map(String).join(' '));
};

/** The next `event` the manager emits whose data passes `match`. */
function next(manager: HomeyApiManager, event: string, match: (data: Record<string, unknown>) => boolean = () => true): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within 10 s`)), 10_000);
    manager.on(event, (data) => {
      const d = data as Record<string, unknown>;
      if (!match(d)) return;
      clearTimeout(timer);
      resolve(d);
    });
  });
}

beforeAll(async () => {
  homeyApi = await loadHomeyApi();
  const appsDir = await tempDir('hearth-homey-realtime-');
  await copyFixture(appsDir);
  // An app that makes an insights log when its setting `log` is set (the SDK's insights guide).
  await writeHomeyApp(appsDir, LOGGER, {
    json: { permissions: [] },
    files: {
      'app.js': `const Homey = require('homey');
module.exports = class extends Homey.App {
  async onInit() {
    this.homey.settings.on('set', async (key) => {
      if (key === 'log') await this.homey.insights.createLog(this.homey.settings.get('log'), { title: 'Made on request', type: 'number' });
    });
  }
};
`,
    },
  });
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  await waitAppRunning(hub, LOGGER);
  const ping = await fetch(`${hub.url}/api/manager/system/ping`);
  homeyId = ping.headers.get('x-homey-id') ?? '';
}, 240_000);

afterAll(async () => {
  for (const c of clients) c.destroy();
  await hub?.cleanup();
});

describe('the hub as Homey clients know it', () => {
  it('answers the ping with a stable X-Homey-ID and X-Homey-Version', async () => {
    expect(homeyId).toMatch(/^[0-9a-f]{24}$/);
    const again = await fetch(`${hub.url}/api/manager/system/ping`);
    expect(again.headers.get('x-homey-id')).toBe(homeyId);
    expect(again.headers.get('x-homey-version')).toBe('12.3.0');
    expect(await again.json()).toMatchObject({ ok: true });
  });
});

describe('Homey realtime by hand (socket.io 2 over long-polling)', () => {
  it('handshakes, subscribes and hears an event without WebSocket', async () => {
    const io = await loadSocketIo2();
    const root = io(hub.url, { transports: ['polling'], forceNew: true });
    const ask = (socket: SocketIo2, event: string, arg: unknown) =>
      new Promise<unknown[]>((resolve) => socket.emit(event, arg, (...answer: unknown[]) => resolve(answer)));
    try {
      await new Promise<void>((resolve) => root.once('connect', () => resolve()));
      const refused = await ask(root, 'handshakeClient', { token: 'hth_wrong', homeyId });
      expect(refused[0]).toMatchObject({ error: 'unauthorized', statusCode: 401 });
      const [err, answer] = await ask(root, 'handshakeClient', { token: OWNER, homeyId });
      expect(err).toBeNull();
      expect(answer).toEqual({ namespace: '/api' });
      const api = (root as unknown as { io: { socket(nsp: string): SocketIo2 } }).io.socket('/api');
      await new Promise<void>((resolve) => api.once('connect', () => resolve()));
      expect(await ask(api, 'subscribe', 'homey:flow:lamp')).toEqual([expect.objectContaining({ error: 'not_found' })]);
      expect(await ask(api, 'subscribe', 'homey:manager:dashboards')).toEqual([null]);
      const heard = new Promise<unknown[]>((resolve) => api.on('homey:manager:dashboards', (...args: unknown[]) => resolve(args)));
      const made = await hub.call<DashboardView>('POST', `${BASE}/dashboard`, { body: body('Polled', []) });
      const [event, data] = await heard;
      expect(event).toBe('dashboard.create');
      expect(data).toMatchObject({ id: made.body.id, name: 'Polled' });
      api.close();
    } finally {
      root.close();
    }
  });
  it('closes the connection of a token when it is revoked', async () => {
    const io = await loadSocketIo2();
    const made = (
      await hub.call<{ id: string; token: string }>('POST', '/api/manager/tokens/token', {
        body: { name: 'to revoke', scopes: ['service.dashboard.readonly'] },
      })
    ).body;
    const root = io(hub.url, { transports: ['websocket'], forceNew: true, reconnection: false });
    try {
      await new Promise<void>((resolve) => root.once('connect', () => resolve()));
      const answer = await new Promise<unknown[]>((resolve) => root.emit('handshakeClient', { token: made.token, homeyId }, (...a: unknown[]) => resolve(a)));
      expect(answer).toEqual([null, { namespace: '/api' }]);
      const closed = new Promise<unknown>((resolve) => root.once('disconnect', (reason) => resolve(reason)));
      expect((await hub.call('DELETE', `/api/manager/tokens/token/${made.id}`)).status).toBeLessThan(300);
      expect(await closed).toBe('transport close');
    } finally {
      root.close();
    }
  });
});

describe.each(['V3 local', 'V2'] as const)('homey-api %s', (flavour) => {
  it('receives dashboard.create/update/delete and widgetstore.update through dashboards.connect()', async () => {
    const api = await client(flavour, OWNER);
    await api.dashboards.connect();
    expect(api.isConnected()).toBe(true);
    const name = `Hall ${flavour}`;
    const created = next(api.dashboards, 'dashboard.create', (d) => d.name === name);
    const made = await hub.call<DashboardView>('POST', `${BASE}/dashboard`, { body: body(name, [CLOCK]) });
    expect(made.status).toBe(201);
    const id = made.body.id;
    expect(await created).toMatchObject({ id, name });

    const updated = next(api.dashboards, 'dashboard.update', (d) => d.id === id);
    await hub.call('PUT', `${BASE}/dashboard/${id}`, { body: { name: `${name}!` } });
    expect(await updated).toMatchObject({ id, name: `${name}!` });

    const [store] = widgetIds(made.body) as [string];
    const stored = next(api.dashboards, 'widgetstore.update', (d) => d.id === store);
    await hub.call('POST', `${BASE}/widgetstore/${store}/state`, { body: { state: { zoom: 3 } } });
    expect(await stored).toMatchObject({ id: store, state: { zoom: 3 } });

    const deleted = next(api.dashboards, 'dashboard.delete', (d) => d.id === id);
    await hub.call('DELETE', `${BASE}/dashboard/${id}`);
    expect(await deleted).toEqual({ id });
  });

  it('receives app.update and log.create/delete, and sends its operations over the socket', async () => {
    const api = await client(flavour, OWNER);
    await api.apps.connect();
    await api.insights.connect();
    const disabled = next(api.apps, 'app.update', (d) => d.id === LOGGER && d.enabled === false);
    expect((await hub.call('PUT', `/api/manager/apps/app/${LOGGER}/disable`, { body: {} })).status).toBeLessThan(300);
    expect(await disabled).toMatchObject({ id: LOGGER, enabled: false });
    await hub.call('PUT', `/api/manager/apps/app/${LOGGER}/enable`, { body: {} });
    await waitAppRunning(hub, LOGGER);

    const logId = `made_${flavour.replace(/\W/g, '')}`;
    // V2's client names a log `<uri>:<id>` (a Homey Pro 2019's logs carried `uri`): match the end.
    const logCreated = next(api.insights, 'log.create', (d) => String(d.id).endsWith(logId));
    await hub.call('PUT', `/api/manager/apps/app/${LOGGER}/setting/log`, { body: { value: logId } });
    const log = await logCreated;
    expect(log).toMatchObject({ title: 'Made on request', type: 'number', ownerUri: `homey:app:${LOGGER}` });

    // Connected, the client calls over the socket (homey-api's `api` request): same answers as HTTP.
    const logs = async () => Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/insights/log')).body).sort();
    const overSocket = await (api.insights.getLogs as () => Promise<Record<string, unknown>>)();
    expect(Object.keys(overSocket).length).toBe((await logs()).length);
    expect(await logs()).toContain(`homey:app:${LOGGER}:${logId}`);
    expect(debug).toContain('[ManagerInsights] IO getLogs');
    // A refusal over the socket is the HTTP one: its status and sentence.
    const missing = (api.dashboards.getDashboard as (a: object) => Promise<unknown>)({ id: 'no-such-dashboard' });
    await expect(missing).rejects.toMatchObject({ statusCode: 404, message: expect.stringContaining('no-such-dashboard') });
    const logDeleted = next(api.insights, 'log.delete', (d) => String(d.id).endsWith(logId));
    await (api.insights.deleteLog as (a: object) => Promise<void>)({ uri: `homey:app:${LOGGER}`, id: logId });
    await logDeleted;
    expect(await logs()).not.toContain(`homey:app:${LOGGER}:${logId}`);
  });

  it('refuses the subscription of a token without the read scope, and the handshake of an unknown token', async () => {
    const narrow = await client(flavour, await token(['service.system.readonly']));
    await expect(narrow.dashboards.connect()).rejects.toThrow(/service\.dashboard\.readonly/);
    const unknown = await client(flavour, 'hth_not-a-token-of-this-hub-0000000000000000000000');
    await expect(unknown.dashboards.connect()).rejects.toThrow(/unknown or has been revoked/);
  });
});
