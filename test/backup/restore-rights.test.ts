/**
 * A restore through the Web API gives nobody a right they did not hold (issue 22, finding 1):
 * an archive made on another hub, with a planted `*` token, another app and other settings, is
 * uploaded and restored by a token holding only SYSTEM. The planted token stays dead, the app
 * stays out, the hub's settings and every token it had stay, and the restore's record says what
 * was left out and why. The owner's restore of the same archive brings the app and settings in.
 */
import { readdir } from 'node:fs/promises';

import { afterEach, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/core/scopes.js';
import { homeyApp, writeApp } from '../apps/helpers.js';
import { call, OWNER, type RunningHub, type startHub } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { backUp, restorableHub } from './hubs.js';

const B = '/api/manager/backup';
interface LastRestore {
  file: string;
  ok: boolean;
  error: string | null;
  leftOut: string[];
  tokensAdded: number;
}
interface State {
  running: boolean;
  job: { state: string; file: string | null } | null;
  lastRestore: LastRestore | null;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const hub = (options: Parameters<typeof startHub>[0] = {}): Promise<RunningHub> => restorableHub(cleanups, options);

const token = async (h: RunningHub, name: string, scopes: string[]): Promise<string> => {
  const r = await h.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name, scopes } });
  expect(r.status).toBe(201);
  return r.body.token;
};

/** "Another hub": a planted `*` token, an app that may speak, Dutch, a dashboard; its archive's bytes. */
async function foreignArchive(): Promise<{ bytes: Uint8Array; planted: string }> {
  const other = await hub();
  await writeApp(other.appsDir, 'com.test.planted', {
    manifest: { permissions: ['homey:manager:speech-output'] },
    code: homeyApp('async onInit() {}'),
  });
  expect((await other.call('GET', '/api/manager/apps/app')).status).toBe(200); // picks the folder up
  const planted = await token(other, 'planted', ['*']);
  expect((await other.call('PUT', '/api/manager/i18n/option/language', { body: { value: 'nl' } })).status).toBe(200);
  expect((await other.call('POST', '/api/manager/dashboards/dashboard', { body: { name: 'Planted', columns: [] } })).status).toBeLessThan(300);
  const file = await backUp(other);
  const res = await fetch(`${other.url}${B}/archive/${file}`, { headers: { authorization: `Bearer ${planted}` } });
  expect(res.status).toBe(200);
  return { bytes: new Uint8Array(await res.arrayBuffer()), planted };
}

async function restoreAs(h: RunningHub, who: string, bytes: Uint8Array): Promise<{ accepted: { leftOut: string[] }; record: LastRestore }> {
  const up = await call<{ file: string }>(h.url, 'POST', `${B}/archive/`, { token: who, rawBody: bytes, headers: { 'content-type': 'application/gzip' } });
  expect([200, 201]).toContain(up.status);
  const accepted = await call<{ leftOut: string[] }>(h.url, 'POST', `${B}/archive/${up.body.file}/restore`, { token: who });
  expect(accepted.status).toBe(202);
  const state = await poll(
    () =>
      call<State>(h.url, 'GET', `${B}/state`, { token: who }).then(
        (r) => (r.status === 200 ? r.body : null),
        () => null,
      ),
    (s) => s?.lastRestore?.file === up.body.file,
    'the hub back up after the restore',
    400,
  );
  return { accepted: accepted.body, record: state!.lastRestore! };
}

/** Every scope but the owner's: what `hearth login` gives a browser by default. */
const LOGIN_SCOPES = SCOPES;

describe('a restore by a browser signed in with hearth login (every scope but the owner’s)', { timeout: 120_000 }, () => {
  it('is told beforehand what comes back and what stays, and gets its zones, flows and variables back; the backup record is not rolled back', async () => {
    const h = await hub();
    const browser = await token(h, 'browser', [...LOGIN_SCOPES]);
    const home = Object.entries((await h.call<Record<string, { parent: string | null }>>('GET', '/api/manager/zones/zone')).body).find(
      ([, z]) => z.parent === null,
    )![0];
    const shed = (await h.call<{ id: string }>('POST', '/api/manager/zones/zone', { body: { name: 'Shed', parent: home } })).body;
    const mood = (await h.call<{ id: string; name: string }>('POST', '/api/manager/logic/variable', { body: { name: 'Mood', type: 'string', value: 'calm' } }))
      .body;
    const flow = (
      await h.call<{ id: string }>('POST', '/api/manager/flow/flow', {
        body: {
          name: 'Cheer up',
          trigger: { id: 'homey:manager:flow:programmatic_trigger' },
          actions: [{ id: 'homey:manager:logic:set_variable', args: { variable: { id: mood.id, name: mood.name }, value: 'cheerful' } }],
        },
      })
    ).body;
    const first = await backUp(h);
    const second = await backUp(h);
    for (const path of [`/api/manager/flow/flow/${flow.id}`, `/api/manager/logic/variable/${mood.id}`, `/api/manager/zones/zone/${shed.id}`]) {
      expect((await h.call('DELETE', path)).status, path).toBe(204);
    }

    // Before: the confirmation's words, for this sign-in.
    const plan = (await call<{ restorePlan: { brings: string[]; keeps: string[] } }>(h.url, 'GET', `${B}/state`, { token: browser })).body.restorePlan;
    expect(plan.brings).toEqual(expect.arrayContaining(['devices and their values', 'zones', 'flows and their folders', 'variables', 'dashboards']));
    expect(plan.keeps).toEqual(['apps (their code, permissions, settings and data) (only the owner may bring them back)', "this hub's record of its backups"]);

    const res = await fetch(`${h.url}${B}/archive/${first}`, { headers: { authorization: `Bearer ${OWNER}` } });
    const { record } = await restoreAs(h, browser, new Uint8Array(await res.arrayBuffer()));
    expect(record.ok).toBe(true);
    expect(record.leftOut.join(' ')).not.toMatch(/zones|flows|logic-variables|devices/);
    expect((await h.call('GET', `/api/manager/zones/zone/${shed.id}`)).status).toBe(200);
    expect((await h.call('GET', `/api/manager/logic/variable/${mood.id}`)).status).toBe(200);
    expect((await h.call<{ name: string }>('GET', `/api/manager/flow/flow/${flow.id}`)).body.name).toBe('Cheer up');
    // The hub's last backup is still its last (the second), not the backup's own record.
    expect((await h.call<{ lastBackup: { file: string } }>('GET', `${B}/state`)).body.lastBackup.file).toBe(second);
    // The timeline says it, with who restored it, once.
    const said = async () =>
      Object.values((await h.call<Record<string, { excerpt: string; ownerName: string }>>('GET', '/api/manager/notifications/notification')).body).filter(
        (n) => n.ownerName === 'Backups',
      );
    const told = await poll(said, (n) => n.length > 0, 'the restore on the timeline');
    expect(told.map((n) => n.excerpt)).toEqual([expect.stringMatching(new RegExp(`^browser restored the backup of .+ \\(${first}\\)`))]);
  });
});

describe('what a restore through the API may bring in', { timeout: 120_000 }, () => {
  it('a SYSTEM token restoring a foreign archive gains no token, app or setting, and keeps every session', async () => {
    const { bytes, planted } = await foreignArchive();
    const h = await hub();
    const admin = await token(h, 'admin browser', ['SYSTEM']);
    const tablet = await token(h, 'tablet', ['service.dashboard.readonly']);
    expect((await call(h.url, 'GET', '/api/manager/tokens/token', { token: planted })).status).toBe(401);

    const { accepted, record } = await restoreAs(h, admin, bytes);
    expect(record.ok).toBe(true);
    expect(accepted.leftOut.join(' ')).toContain('only the owner may bring apps in');

    // The planted owner-like token is not this hub's: nobody gained `*`.
    expect((await call(h.url, 'GET', '/api/manager/tokens/token', { token: planted })).status).toBe(401);
    expect(record.tokensAdded).toBe(0);
    expect(record.leftOut.join(' ')).toMatch(/tokens: an owner token, a person's, or scopes the restoring token does not hold/);
    // Every token the hub had still works: the restoring browser's own session included.
    expect((await call(h.url, 'GET', `${B}/state`, { token: admin })).status).toBe(200);
    expect((await call(h.url, 'GET', '/api/manager/dashboards/dashboard', { token: tablet })).status).toBe(200);
    const names = Object.values((await h.call<Record<string, { name: string }>>('GET', '/api/manager/tokens/token')).body).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['admin browser', 'tablet']));
    expect(names).not.toContain('planted');
    // No app code came in, and with it no permission.
    expect(Object.keys((await h.call<Record<string, unknown>>('GET', '/api/manager/apps/app')).body)).not.toContain('com.test.planted');
    expect(await readdir(h.appsDir)).not.toContain('com.test.planted');
    // SYSTEM does not change the language or dashboards: they stay as this hub had them.
    expect((await h.call<{ value: string }>('GET', '/api/manager/i18n/option/language')).body.value).toBe('en');
    const boards = Object.values((await h.call<Record<string, { name: string }>>('GET', '/api/manager/dashboards/dashboard')).body).map((d) => d.name);
    expect(boards).not.toContain('Planted');
    expect(record.leftOut.join(' ')).toContain('i18n/language');
    expect(record.leftOut.join(' ')).toContain('dashboards (needs service.dashboard)');
  });

  it("the owner's restore brings the backup's app and settings in, keeps the hub's tokens, and adds the backup's", async () => {
    const { bytes, planted } = await foreignArchive();
    const h = await hub();
    const tablet = await token(h, 'tablet', ['service.dashboard.readonly']);
    const { record } = await restoreAs(h, OWNER, bytes);
    expect(record.ok).toBe(true);
    expect(record.leftOut).toEqual([]);
    expect(record.tokensAdded).toBe(1);
    expect((await call(h.url, 'GET', '/api/manager/dashboards/dashboard', { token: tablet })).status).toBe(200);
    // The owner chose to bring the other hub's tokens along: its `*` token is listed (and revocable).
    expect((await call(h.url, 'GET', '/api/manager/tokens/token', { token: planted })).status).toBe(200);
    expect((await h.call<{ value: string }>('GET', '/api/manager/i18n/option/language')).body.value).toBe('nl');
    expect(Object.keys((await h.call<Record<string, unknown>>('GET', '/api/manager/apps/app')).body)).toContain('com.test.planted');
  });
});
