/**
 * The archive library against real folders, a real SQLite file and real gzip: round trip,
 * corruption, newer formats, retention, the data-dir lock.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as tarCreate } from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { applyRetention, BackupArchiveError, createBackup, FORMAT_VERSION, listBackups, restoreBackup, verifyArchive } from '../../src/backup/index.js';
import { holdDataLock } from '../helpers/lock.js';
import { type Fixture, insightRows, makeFixture, STORE_DOC, treeDigest } from './fixtures.js';

const roots: string[] = [];
afterEach(async () => {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

async function fixture(opts?: Parameters<typeof makeFixture>[0]): Promise<Fixture> {
  const f = await makeFixture(opts);
  roots.push(f.root);
  return f;
}

const backup = (f: Fixture, extra: Partial<Parameters<typeof createBackup>[0]> = {}) =>
  createBackup({
    dataDir: f.dataDir,
    appsDir: f.appsDir,
    outDir: f.outDir,
    storeSnapshot: f.snapshot,
    insightsDb: f.insightsDb,
    hubVersion: '0.1.0-test',
    ...extra,
  });

describe('createBackup + restoreBackup', () => {
  it('round-trips store, insights, apps and userdata, keeping the previous data beside it', async () => {
    const f = await fixture();
    const appsBefore = await treeDigest(f.appsDir, (rel) => rel.endsWith('passwd-link') || rel.startsWith('node_modules'));
    const userdataBefore = await treeDigest(join(f.dataDir, 'apps'));
    const rowsBefore = insightRows(f.insightsDb);
    expect(rowsBefore).toHaveLength(2000);

    const result = await backup(f);
    expect(result.file).toMatch(/^hearth-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.tar\.gz$/);
    expect(result.manifest.formatVersion).toBe(FORMAT_VERSION);
    expect(result.manifest.hubVersion).toBe('0.1.0-test');
    expect(result.manifest.contents).toEqual({
      store: true,
      insights: true,
      apps: ['com.example.lights', 'com.example.weather'],
      userdata: ['com.example.lights'],
      layout: 'separate',
    });
    // The SDK link's folder is the hub's, not a stranger's: left out without a word.
    expect(result.skipped).toEqual(['apps/com.example.weather/lib/passwd-link: not a regular file or folder']);
    expect((await stat(result.path)).size).toBe(result.size);
    expect(await readFile(`${result.path}.sha256`, 'utf8')).toBe(`${result.sha256}  ${result.file}\n`);
    expect(await listBackups(f.outDir)).toEqual([{ file: result.file, createdAt: result.createdAt, size: result.size, sha256: result.sha256 }]);

    // Wipe what a backup owns, and change what it must bring back.
    await rm(f.appsDir, { recursive: true });
    await rm(join(f.dataDir, 'apps'), { recursive: true });
    await rm(f.insightsDb);
    await writeFile(join(f.dataDir, 'db.json'), '{"schemaVersion":1,"dashboards":{}}');
    await writeFile(join(f.dataDir, 'insights.db-wal'), 'stale wal that must not survive');

    const restored = await restoreBackup(result.path, { dataDir: f.dataDir, appsDir: f.appsDir });
    expect(JSON.parse(await readFile(join(f.dataDir, 'db.json'), 'utf8'))).toEqual(STORE_DOC);
    await expect(stat(join(f.dataDir, 'insights.db-wal'))).rejects.toThrow(/ENOENT/);
    expect(insightRows(f.insightsDb)).toEqual(rowsBefore);
    // Everything but the SDK link, which the hub makes again when it starts.
    expect(await treeDigest(f.appsDir)).toEqual(appsBefore);
    expect(await treeDigest(join(f.dataDir, 'apps'))).toEqual(userdataBefore);
    expect((await stat(join(f.appsDir, 'com.example.weather', 'lib', 'run.sh'))).mode & 0o777).toBe(0o755);
    expect((await stat(join(f.dataDir, 'db.json'))).mode & 0o777).toBe(0o600);
    await expect(stat(join(f.dataDir, 'hearth.lock'))).rejects.toThrow(/ENOENT/);

    // What a backup does not own came along: the backups themselves, the catalogue, the owner token.
    expect([...restored.carried].sort()).toEqual(['backups', 'owner-token', 'store']);
    expect((await listBackups(f.outDir)).map((b) => b.file)).toEqual([result.file]);
    expect(await readFile(join(f.dataDir, 'owner-token'), 'utf8')).toBe('secret-owner-token\n');
    // The previous data is kept beside the new one, holding what was replaced.
    expect(restored.previousData).toMatch(/data\.pre-restore-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/);
    expect(await readFile(join(restored.previousData as string, 'db.json'), 'utf8')).toBe('{"schemaVersion":1,"dashboards":{}}');
    expect(restored.previousApps).toBeNull();
    expect((await readdir(f.root)).filter((n) => n.includes('.partial'))).toEqual([]);
  });

  it("names a folder in the apps folder that is no app, and leaves the hub's SDK link out without a word", async () => {
    const f = await fixture({ insightRows: 10 });
    await mkdir(join(f.appsDir, 'Not An App'));
    const result = await backup(f);
    expect(result.manifest.contents.apps).toEqual(['com.example.lights', 'com.example.weather']);
    expect(result.skipped).toEqual([
      "apps/Not An App: not an app id, so not an app's folder",
      'apps/com.example.weather/lib/passwd-link: not a regular file or folder',
    ]);
    expect(Object.keys(result.manifest.files).filter((p) => p.includes('node_modules'))).toEqual([]);
  });

  it('backs up without insights and restores into folders that do not exist yet', async () => {
    const f = await fixture();
    await rm(f.insightsDb);
    const result = await backup(f, { outDir: join(f.root, 'usb'), appIds: ['com.example.lights'] });
    expect(result.manifest.contents.insights).toBe(false);
    expect(result.manifest.contents.apps).toEqual(['com.example.lights']);
    expect(Object.keys(result.manifest.files).sort()).toEqual([
      'apps/com.example.lights/app.js',
      'apps/com.example.lights/app.json',
      'apps/com.example.lights/locales/en.json',
      'data/apps/com.example.lights/cache/blob.bin',
      'data/apps/com.example.lights/state.json',
      'data/db.json',
    ]);
    const target = join(f.root, 'fresh');
    const r = await restoreBackup(result.path, { dataDir: join(target, 'data'), appsDir: join(target, 'apps') });
    expect(r.previousData).toBeNull();
    expect(await readdir(join(target, 'apps'))).toEqual(['com.example.lights']);
    expect(await readFile(join(target, 'data', 'apps', 'com.example.lights', 'state.json'), 'utf8')).toBe('{"on":true}');
  });
});

describe('layouts and swap strategies', () => {
  it('archives an apps folder that is <data-dir>/apps once (systemd layout) and restores it into either layout', async () => {
    const f = await fixture({ insightRows: 10 });
    // The systemd layout: packages and their runtime folders share <data-dir>/apps/<id>.
    const appsDir = join(f.dataDir, 'apps');
    await mkdir(join(appsDir, 'com.example.lights', 'userdata'), { recursive: true });
    await writeFile(join(appsDir, 'com.example.lights', 'app.json'), '{"id":"com.example.lights"}');
    await writeFile(join(appsDir, 'com.example.lights', 'userdata', 'u.txt'), 'mine');
    const before = await treeDigest(appsDir);
    const result = await backup(f, { appsDir });
    expect(result.manifest.contents.layout).toBe('shared');
    expect(result.manifest.contents.apps).toEqual(['com.example.lights']);
    expect(Object.keys(result.manifest.files).filter((p) => p.startsWith('apps/'))).toEqual([]);

    await rm(appsDir, { recursive: true });
    await restoreBackup(result.path, { dataDir: f.dataDir, appsDir });
    expect(await treeDigest(appsDir)).toEqual(before);

    const other = join(f.root, 'other');
    await restoreBackup(result.path, { dataDir: join(other, 'data'), appsDir: join(other, 'apps') });
    expect(await treeDigest(join(other, 'apps'))).toEqual(before);
    expect(await treeDigest(join(other, 'data', 'apps'))).toEqual(before);
  });

  it('restores a separate-layout archive into the systemd layout, merging package and runtime folders', async () => {
    const f = await fixture({ insightRows: 10 });
    const result = await backup(f);
    const target = join(f.root, 'var-lib-hearth');
    await restoreBackup(result.path, { dataDir: target, appsDir: join(target, 'apps') });
    expect((await readdir(join(target, 'apps'))).sort()).toEqual(['com.example.lights', 'com.example.weather']);
    expect((await readdir(join(target, 'apps', 'com.example.lights'))).sort()).toEqual(['app.js', 'app.json', 'cache', 'locales', 'state.json']);
  });

  it('swaps inside the folders when asked (mount points, unwritable parents), keeping what a backup does not own in place', async () => {
    const f = await fixture({ insightRows: 10 });
    const result = await backup(f);
    await writeFile(join(f.dataDir, 'db.json'), '{"schemaVersion":1}');
    await rm(join(f.appsDir, 'com.example.weather'), { recursive: true });
    const r = await restoreBackup(result.path, { dataDir: f.dataDir, appsDir: f.appsDir, swap: 'inside' });
    expect(r.previousData).toMatch(new RegExp(`^${f.dataDir}/pre-restore-`));
    expect(r.previousApps).toMatch(new RegExp(`^${f.appsDir}/\\.pre-restore-`));
    expect(JSON.parse(await readFile(join(f.dataDir, 'db.json'), 'utf8'))).toEqual(STORE_DOC);
    expect(await readFile(join(r.previousData as string, 'db.json'), 'utf8')).toBe('{"schemaVersion":1}');
    expect((await listBackups(f.outDir)).map((b) => b.file)).toEqual([result.file]);
    expect((await readdir(f.appsDir)).filter((n) => !n.startsWith('.')).sort()).toEqual(['com.example.lights', 'com.example.weather']);
    expect((await readdir(f.dataDir)).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(r.carried).toEqual([]);
  });
});

/** Index of `needle` in the file; the test archives are stored (level 0) so content is visible. */
function indexOf(buf: Buffer, needle: string): number {
  const i = buf.indexOf(Buffer.from(needle));
  expect(i).toBeGreaterThan(0);
  return i;
}

describe('damaged archives', () => {
  it('names the file whose bytes changed', async () => {
    const f = await fixture();
    await writeFile(join(f.dataDir, 'apps', 'com.example.lights', 'state.json'), '{"on":true,"marker":"FLIPME"}');
    const result = await backup(f, { gzipLevel: 0 });
    const bytes = await readFile(result.path);
    bytes.writeUInt8(bytes.readUInt8(indexOf(bytes, 'FLIPME')) ^ 0x01, indexOf(bytes, 'FLIPME'));
    await writeFile(result.path, bytes);

    const err = await verifyArchive(result.path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupArchiveError);
    expect((err as BackupArchiveError).entry).toBe('data/apps/com.example.lights/state.json');
    expect((err as BackupArchiveError).message).toContain(`backup archive ${result.file} is damaged`);
    expect((err as BackupArchiveError).message).toContain("'data/apps/com.example.lights/state.json'");
  });

  it('refuses a flipped byte inside compressed data with a clear sentence, and restore changes nothing', async () => {
    const f = await fixture();
    const result = await backup(f);
    const bytes = await readFile(result.path);
    const at = Math.floor(bytes.length / 2);
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0x10, at);
    await writeFile(result.path, bytes);

    const err = await verifyArchive(result.path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupArchiveError);
    expect((err as BackupArchiveError).reason).toBe('corrupt');
    expect((err as Error).message).toMatch(new RegExp(`^backup archive ${result.file.replace(/\./g, '\\.')} is damaged`));
    // Placed in the archive: the file it hit or follows.
    expect((err as Error).message).toMatch(/'(data|apps)\/[^']+'|manifest\.json/);

    const before = await treeDigest(f.root, (rel) => rel.startsWith('data/backups'));
    await expect(restoreBackup(result.path, { dataDir: f.dataDir, appsDir: f.appsDir })).rejects.toThrow(/is damaged/);
    expect(await treeDigest(f.root, (rel) => rel.startsWith('data/backups'))).toEqual(before);
  });

  it('refuses a truncated archive and a file that is not a backup', async () => {
    const f = await fixture();
    const result = await backup(f);
    const bytes = await readFile(result.path);
    const cut = join(f.root, 'cut.tar.gz');
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
    await expect(verifyArchive(cut)).rejects.toThrow(/cut\.tar\.gz is damaged/);
    const junk = join(f.root, 'junk.tar.gz');
    await writeFile(junk, 'hello');
    await expect(verifyArchive(junk)).rejects.toThrow(/junk\.tar\.gz is damaged at its start/);
    await expect(verifyArchive(join(f.root, 'missing.tar.gz'))).rejects.toThrow(/does not exist/);
  });

  it('refuses an archive of a newer format, naming the upgrade', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hearth-backup-newer-'));
    roots.push(root);
    await mkdir(join(root, 'src', 'data'), { recursive: true });
    await writeFile(join(root, 'src', 'data', 'db.json'), '{}');
    await writeFile(join(root, 'src', 'manifest.json'), JSON.stringify({ formatVersion: FORMAT_VERSION + 1, somethingNew: { files: 'elsewhere' } }));
    const file = join(root, 'future.tar.gz');
    await tarCreate({ gzip: true, file, cwd: join(root, 'src'), portable: true }, ['data', 'manifest.json']);
    const err = await verifyArchive(file).catch((e: unknown) => e);
    expect((err as BackupArchiveError).reason).toBe('newer-format');
    expect((err as Error).message).toBe(
      `backup archive future.tar.gz was made by a newer hearth (format ${FORMAT_VERSION + 1}; this hearth reads up to ${FORMAT_VERSION}); upgrade hearth to restore it`,
    );
    await expect(restoreBackup(file, { dataDir: join(root, 'data'), appsDir: join(root, 'apps') })).rejects.toThrow(/newer hearth/);
    await expect(stat(join(root, 'data'))).rejects.toThrow(/ENOENT/);
  });
});

describe('retention and failures', () => {
  it('keeps the newest N, deleting older ones only after a new backup verified', async () => {
    const f = await fixture({ insightRows: 10 });
    const t0 = Date.parse('2026-01-01T03:30:00.000Z');
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      made.push((await backup(f, { keep: 2, now: () => new Date(t0 + i * 86_400_000) })).file);
    }
    expect((await listBackups(f.outDir)).map((b) => b.createdAt)).toEqual(['2026-01-04T03:30:00.000Z', '2026-01-03T03:30:00.000Z']);
    expect((await readdir(f.outDir)).sort()).toEqual([made[2], `${made[2]}.sha256`, made[3], `${made[3]}.sha256`].sort());

    // A backup that fails (insights "db" is not SQLite) deletes nothing and leaves no partial.
    await writeFile(join(f.root, 'not-sqlite.db'), 'not a database at all, just text'.repeat(200));
    await expect(backup(f, { keep: 1, insightsDb: join(f.root, 'not-sqlite.db'), now: () => new Date(t0 + 9 * 86_400_000) })).rejects.toThrow();
    expect((await readdir(f.outDir)).sort()).toEqual([made[2], `${made[2]}.sha256`, made[3], `${made[3]}.sha256`].sort());

    expect(await applyRetention(f.outDir, 1)).toEqual({ deleted: [made[2]], leftAlone: [] });
    expect((await listBackups(f.outDir)).map((b) => b.file)).toEqual([made[3]]);
  });

  it('restore refuses while a hub holds the data dir', async () => {
    const f = await fixture({ insightRows: 10 });
    const result = await backup(f);
    const holder = await holdDataLock(f.dataDir);
    try {
      await expect(restoreBackup(result.path, { dataDir: f.dataDir, appsDir: f.appsDir })).rejects.toThrow(
        `data dir ${f.dataDir} is in use by another hearth process (pid ${holder.pid}); stop it first`,
      );
      expect(JSON.parse(await readFile(join(f.dataDir, 'db.json'), 'utf8'))).toEqual(STORE_DOC);
    } finally {
      await holder.kill();
    }
  });
});
