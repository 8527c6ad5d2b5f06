/**
 * Archives and backup folders made by someone other than the hub: crafted archives that try to
 * write outside the staging folder or plant data no backup writes, things named like archives
 * in the backup folder, and an app changing a file while it is backed up.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { create as tarCreate } from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { archiveName } from '../../src/backup/format.js';
import { createBackup, FORMAT_VERSION, restoreBackup, verifyArchive } from '../../src/backup/index.js';
import { type Fixture, makeFixture, treeDigest } from './fixtures.js';

const roots: string[] = [];
const servers: Server[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const s of servers.splice(0)) s.close();
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

async function fixture(): Promise<Fixture> {
  const f = await makeFixture({ insightRows: 10 });
  roots.push(f.root);
  return f;
}

const backup = (f: Fixture, extra: Partial<Parameters<typeof createBackup>[0]> = {}) =>
  createBackup({ dataDir: f.dataDir, appsDir: f.appsDir, outDir: f.outDir, storeSnapshot: f.snapshot, hubVersion: '0.1.0-test', ...extra });

/**
 * An archive with `files` and a manifest that correctly describes them (so only the rules about
 * what a backup may hold can refuse it); `contents` overrides the manifest's contents.
 */
async function craft(files: Record<string, string>, contents: Record<string, unknown> = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'hearth-crafted-'));
  roots.push(root);
  const src = join(root, 'src');
  const listed: Record<string, { size: number; sha256: string }> = {};
  for (const [path, body] of Object.entries(files)) {
    await mkdir(dirname(join(src, path)), { recursive: true });
    await writeFile(join(src, path), body);
    listed[path] = { size: Buffer.byteLength(body), sha256: createHash('sha256').update(body).digest('hex') };
  }
  const manifest = {
    formatVersion: FORMAT_VERSION,
    hubVersion: '0.1.0',
    createdAt: '2026-11-20T03:30:00.000Z',
    contents: { store: true, insights: false, apps: [], userdata: [], layout: 'separate', ...contents },
    files: listed,
  };
  await writeFile(join(src, 'manifest.json'), JSON.stringify(manifest));
  const file = join(root, 'crafted.tar.gz');
  await tarCreate({ gzip: true, file, cwd: src, portable: true }, [...new Set(Object.keys(files).map((p) => p.split('/')[0]!))].concat('manifest.json'));
  return file;
}

const STORE = JSON.stringify({ schemaVersion: 1, tokens: { planted: { id: 'planted', name: 'x', hash: 'b'.repeat(64), scopes: ['*'] } } });

describe('restore takes only what a backup writes', () => {
  const cases: [string, Record<string, string>, Record<string, unknown>, RegExp][] = [
    [
      'an app id that climbs out of the staging folder',
      { 'data/db.json': STORE, 'data/apps/com.example.lights/evil.json': '{}' },
      { apps: ['../../data'], userdata: ['com.example.lights'], layout: 'shared' },
      /manifest\.json does not match the manifest schema \(must be a reverse-domain id/,
    ],
    [
      'an owner-token',
      { 'data/db.json': STORE, 'data/owner-token': 'hth_planted' },
      {},
      /holds an unexpected entry 'data\/owner-token' of type File: not something a hearth backup writes/,
    ],
    ['the app store catalogue', { 'data/db.json': STORE, 'data/store/index.json': '{"apps":{}}' }, {}, /unexpected entry 'data\/store\//],
    ['a folder that is not an app id', { 'data/db.json': STORE, 'apps/node_modules/x.js': '1' }, { apps: ['node_modules'] }, /unexpected entry|does not match/],
    [
      'package files of an app its manifest does not list',
      { 'data/db.json': STORE, 'apps/com.evil.app/app.js': '1' },
      {},
      /not something a backup of its contents writes/,
    ],
  ];
  for (const [what, files, contents, why] of cases) {
    it(`refuses an archive holding ${what}, and changes nothing`, async () => {
      const f = await fixture();
      const archive = await craft(files, contents);
      const before = await treeDigest(f.root);
      await expect(verifyArchive(archive)).rejects.toThrow(why);
      await expect(restoreBackup(archive, { dataDir: f.dataDir, appsDir: f.appsDir })).rejects.toThrow(why);
      expect(await treeDigest(f.root)).toEqual(before);
      expect(await readFile(join(f.dataDir, 'owner-token'), 'utf8')).toBe('secret-owner-token\n');
    });
  }
});

describe('retention acts on verified archives only', () => {
  it('leaves a socket and a file named like far-future backups alone, and keeps the newest real ones', async () => {
    const f = await fixture();
    // A short folder: a Unix socket's path must fit in 108 bytes, and the test temp root is deep.
    const outDir = await mkdtemp('/tmp/hb-');
    roots.push(outDir);
    const socketName = 'hearth-backup-2999-01-01T00-00-00-000Z.tar.gz';
    const server = createServer();
    servers.push(server);
    await new Promise<void>((r) => server.listen(join(outDir, socketName), r));
    const fileName = 'hearth-backup-2998-01-01T00-00-00-000Z.tar.gz';
    await writeFile(join(outDir, fileName), 'not an archive');
    const made: string[] = [];
    for (let day = 1; day <= 3; day++) {
      const r = await backup(f, { outDir, keep: 2, now: () => new Date(`2026-11-0${day}T03:30:00.000Z`) });
      made.push(r.file);
      expect(r.leftAlone).toEqual([`${socketName}: not a regular file`, expect.stringMatching(new RegExp(`^${fileName}: it does not verify`))]);
    }
    const names = (await readdir(outDir)).filter((n) => n.endsWith('.tar.gz')).sort();
    expect(names).toEqual([made[1], made[2], fileName, socketName].sort());
  });

  it('never counts a verified archive dated in the future as newest, nor deletes it', async () => {
    const f = await fixture();
    const future = await backup(f, { now: () => new Date('2999-01-01T00:00:00.000Z') });
    const a = await backup(f, { keep: 1, now: () => new Date('2026-11-01T03:30:00.000Z') });
    const b = await backup(f, { keep: 1, now: () => new Date('2026-11-02T03:30:00.000Z') });
    expect(b.deleted).toEqual([a.file]);
    expect(b.leftAlone).toEqual([`${future.file}: dated in the future`]);
    expect((await readdir(f.outDir)).filter((n) => n.endsWith('.tar.gz')).sort()).toEqual([b.file, future.file].sort());
    expect(archiveName(new Date('2999-01-01T00:00:00.000Z'))).toBe(future.file);
  });
});

describe('a file an app changes while it is backed up', () => {
  it('does not fail the backup: a file that shrank is recorded as inconsistent and left out of a restore', { timeout: 120_000 }, async () => {
    const f = await fixture();
    const flipping = join(f.dataDir, 'apps', 'com.example.lights', 'flip.bin');
    await writeFile(flipping, 'x');
    // Flips a sparse file between 64 MiB and 1 byte as fast as it can, as a hostile app would.
    const flipper = spawn(process.execPath, [
      '-e',
      `const fs = require('fs'); let big = false;
      (function flip() { fs.truncateSync(${JSON.stringify(flipping)}, (big = !big) ? 64 * 1024 * 1024 : 1); setImmediate(flip); })();`,
    ]);
    children.push(flipper);
    let inconsistent: { path: string; reason: string }[] = [];
    let archive = '';
    for (let i = 0; i < 20 && inconsistent.length === 0; i++) {
      const r = await backup(f, { now: () => new Date(Date.UTC(2026, 10, 1, 0, 0, i)) });
      inconsistent = r.manifest.inconsistent;
      archive = r.path;
      expect(r.skipped.filter((s) => s.startsWith('data/apps/com.example.lights/flip.bin: ')).length).toBe(inconsistent.length);
    }
    flipper.kill('SIGKILL');
    expect(inconsistent).toEqual([{ path: 'data/apps/com.example.lights/flip.bin', reason: expect.stringContaining('shrank while it was being read') }]);
    const target = join(f.root, 'restored');
    await restoreBackup(archive, { dataDir: join(target, 'data'), appsDir: join(target, 'apps') });
    const restored = await readdir(join(target, 'data', 'apps', 'com.example.lights'));
    expect(restored).toContain('state.json');
    expect(restored).not.toContain('flip.bin');
  });
});
