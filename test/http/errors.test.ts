/**
 * JSON errors for malformed input: no request, however malformed, gets a 5xx or an HTML page.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, type RunningHub, startHub } from '../helpers/hub.js';

let hub: RunningHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.cleanup());

const LOCATION = '/api/manager/geolocation/option/location';
type ErrorBody = { error: string; error_description: string; statusCode: number };

describe('error answers', () => {
  it('malformed JSON is a 400 invalid_json', async () => {
    const res = await hub.call<ErrorBody>('PUT', LOCATION, { rawBody: '{"value": {', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_json', statusCode: 400 });
    expect(res.body.error_description).toMatch(/^the request body is not valid JSON/);
  });

  it('a non-object body where an object is expected is a 400', async () => {
    for (const raw of ['[1,2]', '"text"', '42', 'null', 'true']) {
      const res = await hub.call<ErrorBody>('PUT', LOCATION, { rawBody: raw, headers: { 'content-type': 'application/json' } });
      expect(res.status, raw).toBe(400);
      expect(res.body.error).toBe('invalid_parameter');
      expect(res.body.error_description).toContain('the body is invalid');
    }
  });

  it('a non-JSON content type is a 415', async () => {
    const res = await hub.call<ErrorBody>('PUT', LOCATION, { rawBody: 'value=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('unsupported_media_type');
  });

  it('accepts a JSON content type with a charset', async () => {
    const res = await hub.call('PUT', '/api/manager/i18n/option/units', {
      rawBody: '{"value":"metric"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(200);
  });

  it('a body over 1 MiB is a 413 (declared length)', async () => {
    const big = JSON.stringify({ value: { city: 'x'.repeat(1024 * 1024 + 10) } });
    const res = await hub.call<ErrorBody>('PUT', '/api/manager/geolocation/option/address', { rawBody: big, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('payload_too_large');
  });

  it('a chunked body over 1 MiB is cut off with a 413 without buffering it all', async () => {
    expect(await chunkedPut(`${hub.url}/api/manager/geolocation/option/address`, 4 * 1024 * 1024)).toBe(413);
  });

  it('unknown paths under /api are JSON 404s', async () => {
    for (const path of ['/api/nothing', '/api/manager/nothing/state', '/api/manager/i18n/option/colour', '/api/manager/i18n/state/extra']) {
      const res = await hub.call<ErrorBody>('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.body.error).toBe('not_found');
    }
  });

  it('a wrong method is a 405 with Allow', async () => {
    const res = await hub.call<ErrorBody>('POST', '/api/manager/i18n/option/language');
    expect(res.status).toBe(405);
    expect(res.body.error).toBe('method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, PUT, DELETE');
  });

  it('every answer carries X-Hearth-Version, errors too', async () => {
    expect((await hub.call('GET', '/api/manager/system/ping', { token: null })).headers.get('x-hearth-version')).toMatch(/^\d+\.\d+\.\d+/);
    expect((await hub.call('GET', '/api/nothing')).headers.get('x-hearth-version')).toMatch(/^\d+\.\d+\.\d+/);
    const page = await hub.call('GET', '/', { token: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-hearth-version')).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('ping answers without a token', async () => {
    const res = await hub.call<{ ok: boolean; version: string }>('GET', '/api/manager/system/ping', { token: null });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
  });

  it('no malformed request produces a 5xx', async () => {
    const attempts: Array<[string, string, Parameters<RunningHub['call']>[2]]> = [
      ['PUT', LOCATION, { rawBody: '\u0000\u0001\u0002', headers: { 'content-type': 'application/json' } }],
      ['PUT', LOCATION, { rawBody: `{"value":${'['.repeat(5000)}${']'.repeat(5000)}}`, headers: { 'content-type': 'application/json' } }],
      [
        'PUT',
        LOCATION,
        { rawBody: '{"__proto__": {"polluted": true}, "value": {"latitude":1,"longitude":1}}', headers: { 'content-type': 'application/json' } },
      ],
      ['GET', '/api/manager/i18n/option/%E0%A4%A', {}],
      ['GET', `/api/manager/i18n/option/${'a'.repeat(4000)}`, {}],
      ['DELETE', '/api/manager/tokens/token/%00', {}],
      ['PUT', '/api/manager/i18n/option/units', { rawBody: new Uint8Array([0xff, 0xfe, 0xfd]), headers: { 'content-type': 'application/json' } }],
      ['POST', '/api/manager/tokens/token', { body: { name: 'x', scopes: 'service.app' } }],
      ['POST', '/api/manager/tokens/token', { body: { name: 'x', scopes: ['nope'] } }],
    ];
    for (const [method, path, options] of attempts) {
      const res = await hub.call(method, path, options);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.text).not.toMatch(/at .*\.js:\d+/);
      await expectHubUnpolluted(`${method} ${path}`);
    }
  });

  it('no request reaches Object.prototype in the hub', async () => {
    // The hub runs in another process: it is asked. A strict body (z.strictObject) iterates
    // inherited keys too, so a field planted on Object.prototype makes it refuse "{value}".
    const attempts: Array<[string, string, unknown]> = [
      ['POST', '/api/manager/dashboards/widgetstore/__proto__/state', { state: { polluted: true } }],
      ['PUT', '/api/manager/dashboards/dashboard/__proto__', { name: 'polluted' }],
      ['DELETE', '/api/manager/tokens/token/__proto__', undefined],
      ['PUT', '/api/manager/apps/app/__proto__', { polluted: true }],
      ['PUT', '/api/manager/apps/app/__proto__/setting/polluted', { value: true }],
      ['POST', '/api/manager/dashboards/widgetstore/constructor/state', { state: { polluted: true } }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await hub.call(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(500);
      await expectHubUnpolluted(`${method} ${path}`);
    }
  });
});

/** Fails when Object.prototype in the hub gained an enumerable field (a strict body is then refused). */
async function expectHubUnpolluted(after: string): Promise<void> {
  const res = await hub.call<ErrorBody>('PUT', '/api/manager/i18n/option/units', { body: { value: 'metric' } });
  expect(res.status, `a strict body after ${after}: ${res.text}`).toBe(200);
}

/** PUTs `bytes` of body without a Content-Length; resolves with the status the hub answered. */
function chunkedPut(url: string, bytes: number): Promise<number> {
  return new Promise((resolve) => {
    const headers = { authorization: `Bearer ${OWNER}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    const req = request(url, { method: 'PUT', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    // The hub may close the socket once it has answered; that is the point.
    req.on('error', () => undefined);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = (): void => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}
