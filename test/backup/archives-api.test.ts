/**
 * The archive operations the web app uses, against a real hub: download, upload (verified, named
 * after its manifest), verify, and restore through an in-process hub restart that keeps the
 * replaced data as a named pre-restore copy. Every bad input answers a JSON sentence and changes
 * nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { backUp, restorableHub } from './hubs.js';

const B = '/api/manager/backup';
interface Summary {
  file: string;
  size: number;
  sha256: string;
  createdAt: string;
  hubVersion: string;
  contents: { store: boolean };
  files: number;
  alreadyThere?: boolean;
  restarting?: boolean;
}
interface State {
  backups: { file: string; sha256: string; size: number }[];
  lastRestore: { file: string; ok: boolean; previousData: string | null; previousApps: string | null; error: string | null } | null;
  running: boolean;
  job: { state: string; file: string | null } | null;
  preRestore: { name: string; at: string; data: string | null; apps: string | null }[];
}
interface ErrorBody {
  error: string;
  error_description: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const hub = (options: Parameters<typeof startHub>[0] = {}): Promise<RunningHub> => restorableHub(cleanups, options);

async function upload(h: RunningHub, bytes: Uint8Array, type = 'application/gzip'): Promise<{ status: number; body: Summary & ErrorBody }> {
  return h.call<Summary & ErrorBody>('POST', `${B}/archive/`, { rawBody: bytes, headers: { 'content-type': type } });
}

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe('backup archives through the API', { timeout: 60_000 }, () => {
  it('downloads an archive (its bytes are the listed sha256), only with SYSTEM, only by a backup name', async () => {
    const h = await hub();
    const file = await backUp(h);
    const res = await fetch(`${h.url}${B}/archive/${file}`, {
      headers: {
        authorization: `Bearer ${(await h.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'x', scopes: ['SYSTEM'] } })).body.token}`,
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${file}"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const listed = (await h.call<State>('GET', `${B}/state`)).body.backups[0]!;
    expect(sha(bytes)).toBe(listed.sha256);
    expect(bytes.length).toBe(listed.size);

    const readonly = (await h.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'ro', scopes: ['SYSTEM_READONLY'] } })).body.token;
    expect((await h.call('GET', `${B}/archive/${file}`, { token: readonly })).status).toBe(403);
    expect((await h.call('GET', `${B}/archive/${file}`, { token: null })).status).toBe(401);
    for (const bad of ['owner-token', '..%2Fowner-token', 'hearth-backup-2020-01-01T00-00-00-000Z.tar.gz']) {
      const r = await h.call<ErrorBody>('GET', `${B}/archive/${bad}`);
      expect(r.status).toBe(404);
      expect(r.body.error_description).toMatch(/backup/);
    }
    // Verify: SYSTEM_READONLY may.
    const v = await h.call<Summary>('POST', `${B}/archive/${file}/verify`, { token: readonly });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ file, sha256: listed.sha256, size: listed.size, contents: { store: true } });
    expect(v.body.files).toBeGreaterThan(0);
  });

  it('takes an upload only once it verifies; a damaged or foreign file is refused with a sentence and leaves nothing behind', async () => {
    const h = await hub();
    const file = await backUp(h);
    const dir = join(h.dataDir, 'backups');
    const bytes = new Uint8Array(await readFile(join(dir, file)));
    const before = (await h.call<State>('GET', `${B}/state`)).body.backups;

    // The same archive again: nothing added.
    const same = await upload(h, bytes);
    expect(same.status).toBe(201);
    expect(same.body).toMatchObject({ file, sha256: sha(bytes), alreadyThere: true });

    // Damaged in the middle: the verification names the problem; the folder is as it was.
    const damaged = bytes.slice();
    for (let i = 200; i < 260; i++) {
      const at = Math.floor(damaged.length / 2) + i;
      damaged[at] = damaged[at]! ^ 0xff;
    }
    const bad = await upload(h, damaged);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_parameter');
    expect(bad.body.error_description).toMatch(/not a hearth backup.*nothing was changed/);
    const notGzip = await upload(h, new TextEncoder().encode('hello, not an archive'));
    expect(notGzip.status).toBe(400);
    expect((await upload(h, bytes, 'application/json')).status).toBe(415);
    expect((await h.call<State>('GET', `${B}/state`)).body.backups).toEqual(before);
    expect((await readdir(dir)).filter((n) => n.endsWith('.partial'))).toEqual([]);

    // Gone from the folder, then uploaded: back under its own name, with its sidecar.
    await rm(join(dir, file));
    await rm(join(dir, `${file}.sha256`));
    expect((await h.call<State>('GET', `${B}/state`)).body.backups).toEqual([]);
    const up = await upload(h, bytes);
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ file, sha256: sha(bytes), size: bytes.length });
    expect(up.body.alreadyThere).toBeUndefined();
    expect((await h.call<State>('GET', `${B}/state`)).body.backups).toEqual(before);
    expect(await readFile(join(dir, `${file}.sha256`), 'utf8')).toBe(`${sha(bytes)}  ${file}\n`);
  });

  it('restores through a hub restart on the same port: the state comes back, the replaced data is kept and named', async () => {
    const h = await hub();
    const made = await h.call<{ id: string }>('POST', '/api/manager/dashboards/dashboard', { body: { name: 'Before', columns: [] } });
    const file = await backUp(h);
    await h.call('PUT', `/api/manager/dashboards/dashboard/${made.body.id}`, { body: { name: 'After' } });
    await h.call('POST', '/api/manager/dashboards/dashboard', { body: { name: 'Made later', columns: [] } });

    // A bad name, or a running hub asked twice: refused, nothing restarts.
    expect((await h.call('POST', `${B}/archive/nope.tar.gz/restore`)).status).toBe(404);
    const pid = h.process.pid;
    const accepted = await h.call<Summary>('POST', `${B}/archive/${file}/restore`);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ file, restarting: true });
    const again = await h.call<ErrorBody>('POST', `${B}/archive/${file}/restore`).catch(() => null);
    if (again) expect([409, 503]).toContain(again.status);

    const state = await poll(
      () =>
        call<State>(h.url, 'GET', `${B}/state`, { token: OWNER }).then(
          (r) => r.body,
          () => null,
        ),
      (s) => s?.lastRestore !== null && s?.lastRestore !== undefined,
      'the hub back up after the restore',
      400,
    );
    expect(h.process.pid).toBe(pid); // restarted in the same process, on the same port
    expect(state!.lastRestore).toMatchObject({ file, ok: true, error: null });
    // The replaced data is kept in the backup folder, one folder per restore, and listed.
    const previous = state!.lastRestore!.previousData!;
    const stamp = /\/pre-restore\/(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)\/data$/.exec(previous)?.[1];
    expect(previous).toBe(join(h.dataDir, 'backups', 'pre-restore', stamp!, 'data'));
    expect(state!.preRestore).toEqual([
      { name: stamp, at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/), data: previous, apps: expect.any(String) },
    ]);
    // Of this hub's folders: the temp root is shared with other test files' hubs, restoring at the same time.
    const mine = [basename(h.dataDir), basename(h.appsDir)];
    expect(readdirSync(dirname(h.dataDir)).filter((n) => n.includes('.pre-restore-') && mine.some((m) => n.startsWith(`${m}.`)))).toEqual([]);
    expect((await stat(join(previous, 'db.json'))).isFile()).toBe(true);
    // The replaced store is the one with the later changes.
    expect(await readFile(join(previous, 'db.json'), 'utf8')).toContain('Made later');

    const dashboards = (await h.call<Record<string, { name: string }>>('GET', '/api/manager/dashboards/dashboard')).body;
    expect(Object.values(dashboards).map((d) => d.name)).toEqual(['Before']);
    // The backup folder stayed with the data dir (a backup never holds it): the archive is still listed.
    expect((await h.call<State>('GET', `${B}/state`)).body.backups.map((b) => b.file)).toContain(file);

    // A copy can be deleted by its name; another name is a 404 sentence.
    const bad = await h.call<ErrorBody>('DELETE', `${B}/pre-restore/..%2f..%2fetc`);
    expect(bad.status).toBe(404);
    expect((await h.call<ErrorBody>('DELETE', `${B}/pre-restore/2020-01-01T00-00-00Z`)).body.error_description).toMatch(
      /^no pre-restore copy '2020-01-01T00-00-00Z' in /,
    );
    expect((await h.call('DELETE', `${B}/pre-restore/${stamp}`)).status).toBe(204);
    expect((await h.call<State>('GET', `${B}/state`)).body.preRestore).toEqual([]);
    expect(existsSync(previous)).toBe(false);
  });

  it('after a restore of a backup older than the owner token, the owner-token file is still the owner', async () => {
    const dataDir = await tempDir();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const first = await startHub({ dataDir, ownerToken: null });
    const old = (await readFile(join(dataDir, 'owner-token'), 'utf8')).trim();
    const file = await backUp({ ...first, call: (m, p, o = {}) => call(first.url, m, p, { token: old, ...o }) } as RunningHub);
    await first.cleanup();
    // The owner token is replaced (file deleted, hub started again), then the old backup restored.
    await rm(join(dataDir, 'owner-token'));
    const h = await hub({ dataDir, ownerToken: null });
    const owner = (await readFile(join(dataDir, 'owner-token'), 'utf8')).trim();
    expect(owner).not.toBe(old);
    expect((await call(h.url, 'POST', `${B}/archive/${file}/restore`, { token: owner })).status).toBe(202);
    const state = await poll(
      () =>
        call<State>(h.url, 'GET', `${B}/state`, { token: owner }).then(
          (r) => r.body,
          () => null,
        ),
      (s) => s?.lastRestore?.ok === true,
      'the hub back up after the restore',
      400,
    );
    expect(state!.lastRestore!.file).toBe(file);
    expect((await call(h.url, 'GET', '/api/manager/tokens/token', { token: owner })).status).toBe(200);
    expect((await call(h.url, 'GET', '/api/manager/tokens/token', { token: old })).status).toBe(401);
  });
});
