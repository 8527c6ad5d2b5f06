/**
 * Homey's own client inside an app: an app with `homey:manager:api` and `homey-api` among its own
 * dependencies (in its folder, as `npm install homey-api` leaves it) calls
 * `HomeyAPI.createAppAPI({ homey: this.homey })` exactly as Homey's docs show, without the
 * network: it reads the hub's managers, hears their events through `connect()`, and is refused
 * what its read-only token does not allow. An app without the permission is refused the token.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeyApiModules } from '../helpers/homey-api.js';
import { type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { writeHomeyApp } from './apps.js';

let hub: RunningHub;
const APP = 'com.example.homeyapi';
const PLAIN = 'com.example.noapi';

const running = (id: string) => waitAppRunning(hub, id);

beforeAll(async () => {
  const appsDir = await tempDir('hearth-homey-appapi-');
  // The pattern of Homey's Web API docs for apps (apps.developer.homey.app: "Homey Web API").
  const dir = await writeHomeyApp(appsDir, APP, {
    json: {
      permissions: ['homey:manager:api'],
      api: {
        check: { method: 'GET', path: '/check' },
        home: { method: 'GET', path: '/home' },
        heard: { method: 'GET', path: '/heard' },
        other: { method: 'GET', path: '/other' },
        peek: { method: 'GET', path: '/peek' },
      },
    },
    files: {
      'app.js': `'use strict';
const Homey = require('homey');
const { HomeyAPI } = require('homey-api');

module.exports = class MyApp extends Homey.App {
  async onInit() {
    this.heard = [];
    this.api = await HomeyAPI.createAppAPI({ homey: this.homey });
    this.api.dashboards.on('dashboard.create', (dashboard) => this.heard.push(dashboard.name));
    await this.api.dashboards.connect();
    this.log('connected', this.api.isConnected());
  }
};
`,
      'api.js': `'use strict';
module.exports = {
  async check({ homey }) {
    const api = homey.app.api;
    const dashboards = await api.dashboards.getDashboards();
    let refused = null;
    try {
      await api.dashboards.createDashboard({ dashboard: { name: 'From an app', columns: [] } });
    } catch (err) {
      refused = err.message;
    }
    return { homeyId: await homey.cloud.getHomeyId(), dashboards: Object.keys(dashboards).length, refused, url: await homey.api.getLocalUrl() };
  },
  // What Homey's client gives an app (with homey:manager:api): the home read, variables set;
  // never the hub's tokens, backups or settings.
  async home({ homey }) {
    const api = homey.app.api;
    const zones = await api.zones.getZones();
    const devices = await api.devices.getDevices();
    const flows = await api.flow.getFlows();
    const variable = await api.logic.createVariable({ variable: { name: 'From an app', type: 'number', value: 1 } });
    const attempt = async (call) => {
      try {
        await call();
        return 'done';
      } catch (err) {
        return err.message;
      }
    };
    return {
      zones: Object.values(zones).map((z) => z.name),
      devices: Object.keys(devices).length,
      flows: Object.keys(flows).length,
      variable: variable.name,
      tokens: await attempt(() => homey.api.get('/manager/tokens/token')),
      backup: await attempt(() => homey.api.post('/manager/backup/backup', {})),
      rename: await attempt(() => homey.api.put('/manager/system/name', { name: 'Mine' })),
      zone: await attempt(() => api.zones.createZone({ zone: { name: 'Shed', parent: Object.keys(zones)[0] } })),
      // A geofencing app says who came home (Homey's SDK has no presence manager; its Web API has).
      people: Object.values(await api.users.getUsers()).map((u) => u.name),
      home: await attempt(async () => api.presence.setPresent({ id: Object.keys(await api.users.getUsers())[0], value: true })),
      person: await attempt(() => api.users.createUser({ user: { name: 'Eve', role: 'owner' } })),
    };
  },
  async heard({ homey }) {
    return homey.app.heard;
  },
  // Another app's Web API and realtime channel, with this app's own token: refused.
  async other({ homey }) {
    const url = await homey.api.getLocalUrl();
    const token = await homey.api.getOwnerApiToken();
    const res = await fetch(url + '/api/app/com.example.noapi/token', { headers: { authorization: 'Bearer ' + token } });
    const answer = await res.json();
    let realtime = null;
    try {
      await homey.app.api.subscribe('homey:app:com.example.noapi', { onEvent() {} });
      realtime = 'subscribed';
    } catch (err) {
      realtime = err.message;
    }
    return { status: res.status, message: answer.error_description, realtime };
  },
  // Another app's output and crash reports, with this app's token and through this.homey.api.
  async peek({ homey }) {
    const url = await homey.api.getLocalUrl();
    const token = await homey.api.getOwnerApiToken();
    const post = async (id, body) => {
      const res = await fetch(url + '/api/manager/apps/app/' + id + '/crashlog', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return [res.status, (await res.json()).error_description ?? null];
    };
    let viaSdk = null;
    try {
      await homey.api.post('/manager/apps/app/com.example.noapi/crashlog', {});
      viaSdk = 'read';
    } catch (err) {
      viaSdk = err.message;
    }
    const listed = Object.keys(await homey.api.get('/manager/apps/app'));
    return { other: await post('com.example.noapi', {}), own: await post('${APP}', {}), planted: await post('${APP}', { message: 'planted' }), viaSdk, listed };
  },
};
`,
    },
  });
  // homey-api as the app's own dependency, in its folder.
  await cp(await homeyApiModules(), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  await writeHomeyApp(appsDir, PLAIN, {
    json: { api: { token: { method: 'GET', path: '/token' } } },
    files: {
      'app.js': "module.exports = class extends require('homey').App {};\n",
      'api.js': `module.exports = {
  async token({ homey }) {
    try {
      await homey.api.getOwnerApiToken();
      return 'given';
    } catch (err) {
      return err.message;
    }
  },
};
`,
    },
  });
  hub = await startHub({ appsDir });
  // Without the network: the hub's API is reached through the app's own socket only.
  await running(APP);
  expect((await hub.call<{ network: boolean }>('PUT', `/api/manager/apps/app/${APP}`, { body: { network: false } })).body.network).toBe(false);
  await running(APP);
  await running(PLAIN);
}, 240_000);

afterAll(async () => {
  await hub?.cleanup();
});

describe("Homey's client inside an app (HomeyAPI.createAppAPI)", () => {
  it('reads the managers with a read-only token of its own, and is refused a change', async () => {
    await hub.call('POST', '/api/manager/dashboards/dashboard', { body: { name: 'Hall', columns: [] } });
    const check = await poll(
      () => hub.call<{ homeyId: string; dashboards: number; refused: string | null; url: string }>('GET', `/api/app/${APP}/check`),
      (r) => r.status === 200,
      'the app answers',
    );
    const ping = await fetch(`${hub.url}/api/manager/system/ping`);
    expect(check.body.homeyId).toBe(ping.headers.get('x-homey-id'));
    expect(check.body.dashboards).toBe(1);
    expect(check.body.refused).toContain("needs the scope 'service.dashboard'");
    expect(check.body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("reads the home, sets variables and presence as Homey's client does, and is refused tokens, backups, the hub's settings, people and changing zones", async () => {
    const home = await poll(
      () => hub.call<Record<string, unknown>>('GET', `/api/app/${APP}/home`),
      (r) => r.status === 200,
      'the app answers',
    );
    expect(home.body).toMatchObject({ zones: ['Home'], devices: 0, flows: 0, variable: 'From an app' });
    expect(home.body.tokens).toContain("needs the scope 'SYSTEM'");
    expect(home.body.backup).toContain('needs the scope');
    expect(home.body.rename).toContain("needs the scope 'service.system'");
    expect(home.body.zone).toContain("needs the scope 'service.zone'");
    expect(home.body.people).toEqual(['Owner']);
    expect(home.body.home).toBe('done');
    expect((await hub.call<{ present: boolean }>('GET', '/api/manager/users/user/me')).body.present).toBe(true);
    expect(home.body.person).toContain("needs the scope 'service.user'");
    const variables = (await hub.call<Record<string, { name: string }>>('GET', '/api/manager/logic/variable')).body;
    expect(Object.values(variables).map((v) => v.name)).toContain('From an app');
  });

  it('hears dashboard.create through connect(), over its socket', async () => {
    await hub.call('POST', '/api/manager/dashboards/dashboard', { body: { name: 'Kitchen', columns: [] } });
    const heard = await poll(
      () => hub.call<string[]>('GET', `/api/app/${APP}/heard`),
      (r) => r.status === 200 && r.body.includes('Kitchen'),
      'the app hears the new dashboard',
    );
    expect(heard.body).toContain('Kitchen');
  });

  it("cannot reach another app's Web API or realtime channel with its token", async () => {
    const other = await hub.call<{ status: number; message: string; realtime: string }>('GET', `/api/app/${APP}/other`);
    expect(other.body).toEqual({
      status: 403,
      message: "an app's token reaches the managers' API only: apps cannot call each other",
      realtime: expect.stringContaining('apps cannot call each other'),
    });
  });

  it("reads about its own app only: another app's output is not installed for it, the list holds itself, a crash report is not written", async () => {
    const peek = await hub.call<Record<string, unknown>>('GET', `/api/app/${APP}/peek`);
    expect(peek.body).toEqual({
      other: [404, "app 'com.example.noapi' is not installed"],
      own: [200, null],
      planted: [403, "recording a message with an app's crash report needs the scope 'service.app.control'; without a message the log is only read"],
      viaSdk: expect.stringContaining("app 'com.example.noapi' is not installed"),
      listed: [APP],
    });
    const log = await hub.call<{ reports?: unknown }>('POST', `/api/manager/apps/app/${APP}/crashlog`, { body: {} });
    expect(JSON.stringify(log.body)).not.toContain('planted');
  });

  it('gives no token to an app without homey:manager:api', async () => {
    const answer = await hub.call<string>('GET', `/api/app/${PLAIN}/token`);
    expect(answer.body).toContain('homey:manager:api');
  });
});
