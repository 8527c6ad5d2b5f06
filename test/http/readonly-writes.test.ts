/**
 * No operation under a read-only scope writes anything: every operation of the hub's OpenAPI
 * document whose scope is a read-only one (`*.readonly`, SYSTEM_READONLY) is called by a token
 * holding every read-only scope, with real ids and a body that asks for a write where one could
 * be asked (`message`, `value`, `name`), and the data file is the same bytes afterwards.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/core/scopes.js';
import type { RunningHub } from '../helpers/hub.js';
import { operationsOf } from '../helpers/hub-operations.js';
import { poll } from '../helpers/poll.js';
import { APP, startWithApp, type TestHub } from '../managers/dashboards/helpers.js';

let test: TestHub;
let hub: RunningHub;

beforeAll(async () => {
  test = await startWithApp();
  hub = test.hub;
}, 60_000);
afterAll(async () => {
  await test?.close();
});

const dataFile = () => readFile(join(hub.dataDir, 'db.json'), 'utf8');

describe('read-only scopes', () => {
  it('no operation under one changes the data file, whatever its body asks', async () => {
    const readonly = SCOPES.filter((s) => s.endsWith('.readonly') || s === 'SYSTEM_READONLY');
    const reader = (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'reader', scopes: readonly } })).body.token;
    const ops = operationsOf((await hub.call<Parameters<typeof operationsOf>[0]>('GET', '/api/openapi.json')).body);
    const readOnly = ops.filter((o) => o.scope !== null && (readonly as readonly string[]).includes(o.scope));
    expect(readOnly.length).toBeGreaterThan(40);
    // The hub settles first: an app's start writes its record.
    let before = '';
    await poll(
      async () => {
        const last = before;
        before = await dataFile();
        return last === before;
      },
      (same) => same,
      'the data file to settle',
      100,
      200,
    );
    const changed: string[] = [];
    for (const op of readOnly) {
      const path = op.path.replace(/:(\w+)/g, (_, p: string) => (p === 'id' || p === 'appId' ? APP : 'x'));
      const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : { message: 'planted', value: 'planted', name: 'planted' };
      const res = await hub.call(op.method, path, { token: reader, ...(body ? { body } : {}) });
      // 501: advanced flows, which hearth answers as not part of it.
      if (res.status !== 501) expect(res.status, `${op.operationId}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      const after = await dataFile();
      if (after !== before) changed.push(`${op.operationId} (${op.method} ${path}, ${res.status})`);
      before = after;
    }
    expect(changed).toEqual([]);
  }, 120_000);
});
