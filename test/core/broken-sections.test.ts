/**
 * A malformed `backup`, `tokens` or `options` section in db.json (its shape, not one record in it:
 * such a record is set aside, see write-checks.test.ts) does not stop the hub: that
 * manager (or every option operation) answers 503 naming the problem, the rest runs, and the
 * file is left as it was for its repair. With a broken `tokens` section only the owner token
 * (HEARTH_OWNER_TOKEN or <data-dir>/owner-token) is accepted, so the owner can still restore.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';

type ErrorBody = { error: string; error_description: string; statusCode: number };
const hubs: RunningHub[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of hubs.splice(0)) await h.cleanup();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A data dir whose db.json holds `section` as `value` (undefined: as the hub wrote it), made by a real hub first. */
async function dataDirWith(section: string, value: unknown, ownerToken?: string | null): Promise<string> {
  const dataDir = await tempDir();
  dirs.push(dataDir);
  const first = await startHub({ dataDir, ...(ownerToken !== undefined ? { ownerToken } : {}) });
  const token = ownerToken === null ? (await readFile(join(dataDir, 'owner-token'), 'utf8')).trim() : undefined;
  const auth = token ? { token } : {};
  // Something in every section, so the hub writes them all.
  expect((await first.call('PUT', '/api/manager/i18n/option/units', { body: { value: 'imperial' }, ...auth })).status).toBe(200);
  expect((await first.call('POST', '/api/manager/tokens/token', { body: { name: 'kept', scopes: ['service.system.readonly'] }, ...auth })).status).toBe(201);
  await first.stop();
  const file = join(dataDir, 'db.json');
  const doc = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  if (value !== undefined) doc[section] = value;
  await writeFile(file, JSON.stringify(doc));
  return dataDir;
}

async function start(dataDir: string, ownerToken?: string | null): Promise<RunningHub> {
  const hub = await startHub({ dataDir, ...(ownerToken !== undefined ? { ownerToken } : {}) });
  hubs.push(hub);
  return hub;
}

describe('a malformed store section', () => {
  it('backup: the backup manager answers 503 naming the section; the others run; the file is kept', async () => {
    const dataDir = await dataDirWith('backup', { lastBackup: 'yesterday', lastError: 7 });
    const before = await readFile(join(dataDir, 'db.json'), 'utf8');
    const hub = await start(dataDir);
    const res = await hub.call<ErrorBody>('GET', '/api/manager/backup/state');
    expect(res.status, res.text).toBe(503);
    expect(res.body.error_description).toContain("section 'backup'");
    expect((await hub.call<ErrorBody>('POST', '/api/manager/backup/backup/')).status).toBe(503);
    expect((await hub.call('GET', '/api/manager/i18n/option/units')).body).toEqual({ value: 'imperial' });
    expect((await hub.call('PUT', '/api/manager/i18n/option/language', { body: { value: 'nl' } })).status).toBe(200);
    await hub.stop();
    const after = JSON.parse(await readFile(join(dataDir, 'db.json'), 'utf8')) as Record<string, unknown>;
    expect(after.backup).toEqual((JSON.parse(before) as Record<string, unknown>).backup);
  }, 60_000);

  it('options: every option operation answers 503, managers run on defaults, the file is kept', async () => {
    const dataDir = await dataDirWith('options', 'not an object');
    const hub = await start(dataDir);
    for (const [method, path, body] of [
      ['GET', '/api/manager/i18n/option/units', undefined],
      ['PUT', '/api/manager/i18n/option/units', { value: 'metric' }],
      ['DELETE', '/api/manager/geolocation/option/location', undefined],
    ] as const) {
      const res = await hub.call<ErrorBody>(method, path, body ? { body } : {});
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(503);
      expect(res.body.error_description).toContain("section 'options'");
    }
    for (const path of ['/api/manager/i18n/state', '/api/manager/geolocation/state', '/api/manager/backup/state', '/api/manager/dashboards/state']) {
      const res = await hub.call('GET', path);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }
    await hub.stop();
    const after = JSON.parse(await readFile(join(dataDir, 'db.json'), 'utf8')) as Record<string, unknown>;
    expect(after.options).toBe('not an object');
  }, 60_000);

  it('tokens: the owner token from HEARTH_OWNER_TOKEN still works, other tokens do not, token operations answer 503', async () => {
    // Not a map of tokens at all: nothing in it is a record to set aside.
    const dataDir = await dataDirWith('tokens', [{ id: 42 }]);
    const hub = await start(dataDir);
    expect((await hub.call('GET', '/api/manager/i18n/option/units')).body).toEqual({ value: 'imperial' });
    for (const [method, path, body] of [
      ['GET', '/api/manager/tokens/token', undefined],
      ['POST', '/api/manager/tokens/token', { name: 'x', scopes: ['service.system.readonly'] }],
    ] as const) {
      const res = await hub.call<ErrorBody>(method, path, body ? { body } : {});
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(503);
      expect(res.body.error_description).toContain("section 'tokens'");
    }
    expect((await hub.call('GET', '/api/manager/i18n/state', { token: 'hth_not-a-token' })).status).toBe(401);
    await hub.stop();
    const after = JSON.parse(await readFile(join(dataDir, 'db.json'), 'utf8')) as Record<string, unknown>;
    expect(after.tokens).toEqual([{ id: 42 }]);
  }, 60_000);

  it('tokens: the owner token in <data-dir>/owner-token keeps working and the file is not replaced', async () => {
    const dataDir = await dataDirWith('tokens', 'broken', null);
    const secret = (await readFile(join(dataDir, 'owner-token'), 'utf8')).trim();
    expect(secret).not.toBe(OWNER);
    const hub = await start(dataDir, null);
    const res = await call(hub.url, 'GET', '/api/manager/i18n/option/units', { token: secret });
    expect(res.status, res.text).toBe(200);
    expect((await readFile(join(dataDir, 'owner-token'), 'utf8')).trim()).toBe(secret);
  }, 60_000);
});

describe('a malformed record in a section', () => {
  it('tokens: the record is set aside, every other token still works, token operations answer', async () => {
    const dataDir = await dataDirWith('tokens', undefined);
    const file = join(dataDir, 'db.json');
    const doc = JSON.parse(await readFile(file, 'utf8')) as { tokens: Record<string, unknown> };
    doc.tokens.planted = { id: 42 };
    await writeFile(file, JSON.stringify(doc));
    const hub = await start(dataDir);
    const list = await hub.call<Record<string, { name: string }>>('GET', '/api/manager/tokens/token');
    expect(list.status, list.text).toBe(200);
    expect(Object.values(list.body).map((t) => t.name)).toContain('kept');
    expect(Object.keys(list.body)).not.toContain('planted');
    expect(hub.output.join('\n')).toMatch(/"section":"tokens","records":\["planted"\]/);
  }, 60_000);
});
