/**
 * The Web API of Homey apps in a real hub: app.json `api` routes with the docs' api.js, called
 * the way Homey's Web API client's `App.call` calls them (`/api/app/<appId><path>`, bearer
 * token, X-Homey-ID, a JSON body only for POST and PUT); a widget's api.js under
 * `/widgets/<id>`; realtime events on the app's WebSocket channel; widget autocomplete through
 * the dashboards API; and every way a call can fail answering JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppEvents } from '../helpers/events.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { writeHomeyApp } from './apps.js';

let hub: RunningHub;

/**
 * One request as Homey's Web API client (npm homey-api, HomeyAPIV3 `call` behind `App.call`)
 * makes it: the token as a bearer, its X-Homey-ID header, JSON only for POST and PUT.
 */
async function appCall(
  appId: string,
  { method, path, body }: { method: string; path: string; body?: unknown },
  token: string | null = OWNER,
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { 'X-Homey-ID': 'hearth' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const sendsBody = (method === 'POST' || method === 'PUT') && body !== undefined;
  if (sendsBody) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${hub.url}/api/app/${appId}${path.startsWith('/') ? path : `/${path}`}`, {
    method,
    headers,
    ...(sendsBody ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function token(scopes: string[]): Promise<string> {
  return (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'web-api', scopes } })).body.token;
}

beforeAll(async () => {
  const appsDir = await tempDir('hearth-homey-webapi-');
  // The Web API guide (apps.developer.homey.app/advanced/web-api), with the widget guide's
  // widget, api.js and autocomplete listener (apps.developer.homey.app/the-basics/widgets).
  await writeHomeyApp(appsDir, 'com.athom.example', {
    json: {
      api: {
        getSomething: { method: 'GET', path: '/' },
        addSomething: { method: 'POST', path: '/' },
        updateSomething: { method: 'PUT', path: '/:id' },
        deleteSomething: { method: 'DELETE', path: '/:id' },
        getPin: { method: 'GET', path: '/pin', public: true },
        failLoudly: { method: ['GET', 'POST'], path: '/fail/:how' },
      },
      widgets: {
        'my-widget': {
          name: { en: 'My Widget' },
          settings: [
            { id: 'my-id', type: 'text', title: { en: 'My Title' } },
            { id: 'composer', type: 'autocomplete', title: { en: 'Composer' } },
          ],
          height: 100,
          api: {
            getSomething: { method: 'GET', path: '/' },
            addSomething: { method: 'POST', path: '/' },
          },
        },
      },
    },
    files: {
      'app.js': `'use strict';

const Homey = require('homey');

class MyApp extends Homey.App {
  async onInit() {
    this.things = new Map();
    this.nextId = 1;
    const widget = this.homey.dashboards.getWidget('my-widget');
    widget.registerSettingAutocompleteListener('composer', async (query, settings) => {
      return [
        { name: 'Mozart', description: '...', id: 'mozart' },
        { name: 'Amadeus', id: 'amadeus' },
      ].filter((item) => item.name.toLowerCase().includes(query.toLowerCase()));
    });
  }

  getSomething() {
    return [...this.things.values()];
  }

  addSomething(body) {
    const thing = { id: String(this.nextId++), ...body };
    this.things.set(thing.id, thing);
    this.homey.api.realtime('thing_added', thing).catch(this.error);
    return thing;
  }

  updateSomething(id, body) {
    if (!this.things.has(id)) {
      const err = new Error('no thing ' + id);
      err.statusCode = 404;
      throw err;
    }
    const thing = { ...this.things.get(id), ...body, id };
    this.things.set(id, thing);
    return thing;
  }

  deleteSomething(id) {
    return { deleted: this.things.delete(id) };
  }
}

module.exports = MyApp;
`,
      'api.js': `module.exports = {
  async getSomething({ homey, query }) {
    // you can access query parameters like "/?foo=bar" through query.foo
    return { things: homey.app.getSomething(), query };
  },

  async addSomething({ homey, body }) {
    return homey.app.addSomething(body);
  },

  async updateSomething({ homey, params, body }) {
    return homey.app.updateSomething(params.id, body);
  },

  async deleteSomething({ homey, params, body }) {
    return { ...homey.app.deleteSomething(params.id), body };
  },

  async getPin() {
    return { pin: 'public' };
  },

  async failLoudly({ params }) {
    if (params.how === 'teapot') {
      const err = new Error('I am a teapot');
      err.statusCode = 418;
      throw err;
    }
    if (params.how === 'undefined') return undefined;
    throw new Error('it broke');
  },
};
`,
      'widgets/my-widget/api.js': `'use strict';

module.exports = {
  async getSomething({ homey, query, widgetInstanceId }) {
    return { from: 'widget', query, instance: widgetInstanceId ?? null, count: homey.app.getSomething().length };
  },

  async addSomething({ homey, body }) {
    return homey.app.addSomething(body);
  },
};
`,
      'widgets/my-widget/public/index.html': '<html><body>widget</body></html>',
    },
  });
  // An app whose onInit never finishes in time, so its Web API has no app to answer.
  await writeHomeyApp(appsDir, 'com.example.asleep', {
    json: { api: { hello: { method: 'GET', path: '/' } } },
    files: {
      'app.js': `const Homey = require('homey');
module.exports = class Asleep extends Homey.App { async onInit() { throw new Error('not today'); } };
`,
      'api.js': 'module.exports = { async hello() { return "hi"; } };',
    },
  });
  hub = await startHub({ appsDir });
  await poll(
    () => hub.call<{ state: string }>('GET', '/api/manager/apps/app/com.athom.example'),
    (r) => r.body.state === 'running',
    'the example app running',
  );
}, 60_000);

afterAll(async () => {
  await hub?.cleanup();
});

describe("an app's Web API, as App.call reaches it", () => {
  it('runs each route of api.js in the app with its params, query and body', async () => {
    const added = await appCall('com.athom.example', { method: 'POST', path: '/', body: { name: 'lamp' } });
    expect(added).toEqual({ status: 200, body: { id: '1', name: 'lamp' } });
    expect(await appCall('com.athom.example', { method: 'GET', path: '/?foo=bar' })).toEqual({
      status: 200,
      body: { things: [{ id: '1', name: 'lamp' }], query: { foo: 'bar' } },
    });
    expect(await appCall('com.athom.example', { method: 'PUT', path: '/1', body: { name: 'bulb' } })).toEqual({
      status: 200,
      body: { id: '1', name: 'bulb' },
    });
    // The client sends no body with DELETE; the handler sees an empty one.
    expect(await appCall('com.athom.example', { method: 'DELETE', path: '1', body: { ignored: true } })).toEqual({
      status: 200,
      body: { deleted: true, body: {} },
    });
  });

  it("passes the handler's own status, and answers every failure as JSON", async () => {
    expect(await appCall('com.athom.example', { method: 'PUT', path: '/99', body: {} })).toEqual({
      status: 404,
      body: { error: 'not_found', error_description: "app 'com.athom.example': no thing 99", statusCode: 404 },
    });
    expect((await appCall('com.athom.example', { method: 'GET', path: '/fail/teapot' })).status).toBe(418);
    expect(await appCall('com.athom.example', { method: 'POST', path: '/fail/boom' })).toEqual({
      status: 502,
      body: { error: 'bad_gateway', error_description: "app 'com.athom.example' failed to answer: it broke", statusCode: 502 },
    });
    expect(await appCall('com.athom.example', { method: 'GET', path: '/fail/undefined' })).toEqual({ status: 200, body: null });
    const unknown = await appCall('com.athom.example', { method: 'GET', path: '/nothing/here' });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'not_found' } });
    const wrongMethod = await fetch(`${hub.url}/api/app/com.athom.example/1`, { method: 'PATCH', headers: { authorization: `Bearer ${OWNER}` } });
    expect(wrongMethod.status).toBe(405);
    const notJson = await fetch(`${hub.url}/api/app/com.athom.example/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OWNER}`, 'content-type': 'text/plain' },
      body: 'lamp',
    });
    expect(notJson.status).toBe(415);
    expect((await appCall('com.nobody.here', { method: 'GET', path: '/' })).body).toMatchObject({
      error: 'not_found',
      error_description: "app 'com.nobody.here' is not installed",
    });
    const asleep = await appCall('com.example.asleep', { method: 'GET', path: '/' });
    expect(asleep).toMatchObject({ status: 503, body: { error: 'unavailable' } });
  });

  it('needs a token with service.app.control, except on a route app.json marks public', async () => {
    expect((await appCall('com.athom.example', { method: 'GET', path: '/' }, null)).status).toBe(401);
    const reader = await token(['service.app.readonly', 'service.dashboard']);
    expect(await appCall('com.athom.example', { method: 'GET', path: '/' }, reader)).toMatchObject({ status: 403, body: { error: 'missing_scope' } });
    const control = await token(['service.app.control']);
    expect((await appCall('com.athom.example', { method: 'GET', path: '/' }, control)).status).toBe(200);
    expect(await appCall('com.athom.example', { method: 'GET', path: '/pin' }, null)).toEqual({ status: 200, body: { pin: 'public' } });
  });
});

describe("a widget's Web API", () => {
  it('runs widgets/<id>/api.js with the placed widget it came from, for a dashboard token', async () => {
    const viewer = await token(['service.dashboard.readonly']);
    const res = await fetch(`${hub.url}/api/app/com.athom.example/widgets/my-widget/?x=1`, {
      headers: { authorization: `Bearer ${viewer}`, 'x-hearth-widget-instance': 'w-42' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ from: 'widget', query: { x: '1' }, instance: 'w-42', count: 0 });
    // The same token may not call the app's own routes.
    expect((await appCall('com.athom.example', { method: 'GET', path: '/' }, viewer)).status).toBe(403);
  });
});

describe('realtime', () => {
  it("delivers this.homey.api.realtime to the app's channel, for dashboard and app readers", async () => {
    const viewer = await token(['service.dashboard.readonly']);
    const events = await openAppEvents(hub.wsUrl, 'com.athom.example', viewer);
    await fetch(`${hub.url}/api/app/com.athom.example/widgets/my-widget/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OWNER}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'fan' }),
    });
    const frame = await events.next((f) => f.event === 'thing_added');
    expect(frame.args).toEqual([{ id: '2', name: 'fan' }]);
    // Settings changes go the same way (what a settings page's Homey.on('settings.set') hears: the
    // key, and hearth's who-changed-it after it).
    await hub.call('PUT', '/api/manager/apps/app/com.athom.example/setting/colour', { body: { value: 'blue' } });
    expect((await events.next((f) => f.event === 'settings.set')).args).toEqual(['colour', expect.objectContaining({ kind: 'person', name: 'Owner' })]);
    events.close();
    await expect(openAppEvents(hub.wsUrl, 'com.athom.example', await token(['service.speech']))).rejects.toThrow('upgrade refused: 403');
    await expect(openAppEvents(hub.wsUrl, 'com.nobody.here', viewer)).rejects.toThrow('upgrade refused: 404');
  });
});

describe('widget autocomplete', () => {
  it("answers with the app's listener (the widget guide's composer example)", async () => {
    const res = await hub.call<Array<{ name: string; id: string }>>(
      'GET',
      `/api/manager/dashboards/appwidget/${encodeURIComponent('com.athom.example:my-widget')}/autocomplete?settingId=composer&query=moz`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ name: 'Mozart', description: '...', id: 'mozart' }]);
  });

  it('shows the widget with its settings as Homey writes them (title as the label)', async () => {
    const widget = await hub.call<{ name: string; settings: Array<{ id: string; label: unknown; type: string }>; height: number }>(
      'GET',
      `/api/manager/dashboards/appwidget/${encodeURIComponent('com.athom.example:my-widget')}`,
    );
    expect(widget.body).toMatchObject({ name: 'My Widget', height: 100 });
    expect(widget.body.settings.map((s) => [s.id, s.type, s.label])).toEqual([
      ['my-id', 'text', { en: 'My Title' }],
      ['composer', 'autocomplete', { en: 'Composer' }],
    ]);
  });
});
