/**
 * Hostile input that is still valid JSON under the size limit. Keys a caller chooses (path ids,
 * setting names, record keys in bodies and in db.json) are ordinary keys everywhere: `__proto__`,
 * `constructor` and `toString` round-trip or are 404s, and none reaches Object.prototype in the
 * hub (the hub is asked, not the test process: after each hostile request a strict-body request
 * must still be accepted). Free-form values nest at most 32 levels.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { APP, CLOCK, copyFixture, waitAppRunning } from '../managers/dashboards/helpers.js';

const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
type ErrorBody = { error: string; error_description: string; statusCode: number };

let hub: RunningHub;
let appsDir: string;

async function start(dataDir?: string): Promise<RunningHub> {
  const h = await startHub({ appsDir, ...(dataDir ? { dataDir } : {}) });
  await waitAppRunning(h, APP);
  return h;
}

/** A strict body (z.strictObject) is refused if Object.prototype gained an enumerable field. */
async function expectUnpolluted(after: string): Promise<void> {
  const res = await hub.call<ErrorBody>('PUT', '/api/manager/i18n/option/units', { body: { value: 'metric' } });
  expect(res.status, `a strict body after ${after}: ${res.text}`).toBe(200);
  const token = await hub.call<ErrorBody>('POST', '/api/manager/tokens/token', { body: { name: 'probe', scopes: ['service.system.readonly'] } });
  expect(token.status, `a strict body after ${after}: ${token.text}`).toBe(201);
}

beforeAll(async () => {
  appsDir = await tempDir('hearth-proto-apps-');
  await copyFixture(appsDir);
  hub = await start();
}, 60_000);
afterAll(async () => {
  await hub.cleanup();
  await rm(appsDir, { recursive: true, force: true });
});

describe('prototype keys in paths', () => {
  it('are 404 JSON answers for every lookup by id', async () => {
    const lookups = [
      '/api/manager/dashboards/dashboard/',
      '/api/manager/dashboards/widgetstore/',
      '/api/manager/dashboards/appwidget/',
      '/api/manager/apps/app/',
      '/api/manager/speech-output/voice/',
      '/api/manager/insights/log/',
    ];
    for (const base of lookups) {
      for (const key of PROTO_KEYS) {
        const res = await hub.call<ErrorBody>('GET', base + key);
        expect(res.status, `GET ${base}${key}: ${res.text}`).toBe(404);
        expect(res.body).toMatchObject({ error: 'not_found', statusCode: 404 });
      }
      for (const key of PROTO_KEYS) {
        const widget = await hub.call<ErrorBody>('GET', `/api/manager/dashboards/appwidget/${APP}:${key}`);
        expect(widget.status, `GET appwidget/${APP}:${key}`).toBe(404);
        const res = await hub.call<ErrorBody>('GET', `/api/manager/dashboards/widgetstore/${key}/state`);
        expect(res.status, `GET widgetstore/${key}/state`).toBe(404);
      }
    }
  });

  it('a widget store state write to __proto__ is a 404 and leaves Object.prototype alone', async () => {
    for (const key of PROTO_KEYS) {
      const res = await hub.call<ErrorBody>('POST', `/api/manager/dashboards/widgetstore/${key}/state`, { body: { state: { state: 1 } } });
      expect(res.status, `POST widgetstore/${key}/state: ${res.text}`).toBe(404);
      await expectUnpolluted(`POST widgetstore/${key}/state`);
    }
    for (const key of PROTO_KEYS) {
      const res = await hub.call('DELETE', `/api/manager/tokens/token/${key}`);
      expect(res.status, `DELETE token/${key}`).toBe(404);
      const app = await hub.call('PUT', `/api/manager/apps/app/${key}/setting/x`, { body: { value: 1 } });
      expect(app.status, `PUT app/${key}/setting/x`).toBe(404);
    }
    await expectUnpolluted('the path probes');
  });
});

describe('prototype keys as names', () => {
  it('an app setting named __proto__ or constructor round-trips: listed, read, kept across a restart', async () => {
    const base = `/api/manager/apps/app/${APP}/setting`;
    for (const [i, key] of PROTO_KEYS.entries()) {
      const put = await hub.call(`PUT`, `${base}/${key}`, { body: { value: { n: i, state: true } } });
      expect(put.status, `PUT setting/${key}: ${put.text}`).toBe(200);
      await expectUnpolluted(`PUT setting/${key}`);
    }
    const check = async (): Promise<void> => {
      const all = await hub.call<Record<string, unknown>>('GET', base);
      expect(all.status).toBe(200);
      for (const [i, key] of PROTO_KEYS.entries()) {
        expect(Object.hasOwn(all.body, key), `setting '${key}' is listed`).toBe(true);
        const one = await hub.call('GET', `${base}/${key}`);
        expect(one.status, `GET setting/${key}`).toBe(200);
        expect(one.body).toEqual({ n: i, state: true });
      }
    };
    await check();
    await hub.stop();
    hub = await start(hub.dataDir);
    await check();
    const del = await hub.call('DELETE', `${base}/__proto__`);
    expect(del.status).toBeLessThan(300);
    expect((await hub.call('GET', `${base}/__proto__`)).status).toBe(404);
  }, 60_000);

  it('a dashboard with id __proto__ and prototype keys in widget settings and state round-trips', async () => {
    const settings = JSON.parse('{"__proto__": {"state": 1}, "constructor": "c", "seconds": true}') as Record<string, unknown>;
    const body = { id: '__proto__', name: 'proto', columns: [{ widgets: [{ id: 'constructor', appWidgetId: CLOCK, settings }] }] };
    const created = await hub.call<{ id: string; columns: Array<{ widgets: Array<{ settings: unknown }> }> }>('POST', '/api/manager/dashboards/dashboard', {
      rawBody: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status, created.text).toBe(201);
    await expectUnpolluted('createDashboard __proto__');
    const state = await hub.call('POST', '/api/manager/dashboards/widgetstore/constructor/state', {
      rawBody: '{"state": {"__proto__": {"polluted": 1}, "toString": 2}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(state.status, state.text).toBe(200);
    await expectUnpolluted('widget store state with a __proto__ key');
    const check = async (): Promise<void> => {
      const d = await hub.call<{ text: string }>('GET', '/api/manager/dashboards/dashboard/__proto__');
      expect(d.status, d.text).toBe(200);
      expect(JSON.parse(d.text)).toMatchObject({ id: '__proto__', columns: [{ widgets: [{ id: 'constructor' }] }] });
      expect(d.text).toContain('"settings":{"__proto__":{"state":1},"constructor":"c","seconds":true}');
      const list = await hub.call('GET', '/api/manager/dashboards/dashboard');
      expect(Object.keys(JSON.parse(list.text) as object)).toContain('__proto__');
      const s = await hub.call('GET', '/api/manager/dashboards/widgetstore/constructor/state');
      expect(s.text).toBe('{"__proto__":{"polluted":1},"toString":2}');
    };
    await check();
    await hub.stop();
    hub = await start(hub.dataDir);
    await check();
    expect((await hub.call('DELETE', '/api/manager/dashboards/dashboard/__proto__')).status).toBe(204);
  }, 60_000);

  it('a __proto__ key in a record on disk is read as a key (not dropped, not a prototype)', async () => {
    await hub.stop();
    const file = join(hub.dataDir, 'db.json');
    const doc = JSON.parse(await readFile(file, 'utf8')) as { apps: Record<string, { settings: Record<string, unknown> }> };
    // An own `__proto__` key, as JSON.parse makes it from the text.
    Object.defineProperty(doc.apps[APP]!.settings, '__proto__', { value: { fromDisk: true }, enumerable: true });
    await writeFile(file, JSON.stringify(doc));
    expect(await readFile(file, 'utf8')).toContain('"__proto__":{"fromDisk":true}');
    hub = await start(hub.dataDir);
    const one = await hub.call('GET', `/api/manager/apps/app/${APP}/setting/__proto__`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual({ fromDisk: true });
    await expectUnpolluted('loading a __proto__ key from db.json');
  }, 60_000);
});

describe('free-form JSON depth', () => {
  const deep = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
  const send = (method: string, path: string, rawBody: string) =>
    hub.call<ErrorBody>(method, path, { rawBody, headers: { 'content-type': 'application/json' } });

  it('~400k nested arrays under the size limit are a 400 naming the bound, wherever a free-form value goes', async () => {
    const levels = 400_000;
    const attempts: Array<[string, string, string]> = [
      ['PUT', `/api/manager/apps/app/${APP}/setting/deep`, `{"value":${deep(levels)}}`],
      ['POST', '/api/manager/dashboards/widgetstore/constructor/state', `{"state":{"a":${deep(levels)}}}`],
      ['POST', '/api/manager/dashboards/dashboard', `{"name":"d","columns":[{"widgets":[{"appWidgetId":"${CLOCK}","settings":{"a":${deep(levels)}}}]}]}`],
      ['PUT', '/api/manager/geolocation/option/address', `{"value":${deep(levels)}}`],
    ];
    for (const [method, path, body] of attempts) {
      expect(body.length).toBeLessThan(1024 * 1024);
      const res = await send(method, path, body);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(400);
      expect(res.body.error_description).toContain('deeper than 32 levels');
    }
    expect((await hub.call('GET', `/api/manager/apps/app/${APP}/setting/deep`)).status).toBe(404);
  });

  it('takes a value exactly at the bound (32 levels, the body object included) and refuses one more', async () => {
    const ok = await send('PUT', `/api/manager/apps/app/${APP}/setting/deep`, `{"value":${deep(31)}}`);
    expect(ok.status, ok.text).toBe(200);
    const over = await send('PUT', `/api/manager/apps/app/${APP}/setting/deep`, `{"value":${deep(32)}}`);
    expect(over.status, over.text).toBe(400);
    expect(over.body).toMatchObject({ error: 'invalid_json', statusCode: 400 });
  });
});
