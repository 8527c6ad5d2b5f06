/**
 * Restores a backup archive over a stopped hub's data and apps folders. Nothing is touched until
 * the whole archive verified; the contents are extracted into hidden folders beside the targets,
 * verified again on disk and fsynced, and only then swapped in by rename. The previous folders
 * stay beside them as `<name>.pre-restore-<date>`, so a restore can be undone by hand.
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { extract, type ReadEntry } from 'tar';
import type { Stats } from 'node:fs';
import { acquireDataLock, DataDirLockedError, LOCK_FILE, lockHolder } from '../core/data-lock.js';
import { fsyncDir } from '../core/durable-file.js';
import { isAllowedEntryPath, MANIFEST_PATH, type Manifest } from './format.js';
import { verifyArchive } from './verify.js';

export interface RestoreOptions {
  readonly dataDir: string;
  readonly appsDir: string;
  /** Clock for the pre-restore names, for tests. */
  readonly now?: () => Date;
}

export interface RestoreResult {
  readonly manifest: Manifest;
  /** Where the previous data / apps folders were kept; null when there was none. */
  readonly previousData: string | null;
  readonly previousApps: string | null;
  /** Entries of the previous data dir that a backup does not own, moved into the restored one. */
  readonly carried: readonly string[];
}

/**
 * Top-level names of the data dir that a backup owns: replaced by the archive's version. The
 * SQLite side files must never sit beside a different insights.db (SQLite would replay a
 * foreign WAL into it). Everything else (backups/, the app store catalogue, owner-token) is
 * carried over from the previous data dir.
 */
const OWNED = new Set(['db.json', 'insights.db', 'insights.db-wal', 'insights.db-shm', 'insights.db-journal', 'apps', LOCK_FILE]);
const isOwned = (name: string): boolean => OWNED.has(name) || name.startsWith('db.json.') || name.startsWith('.db.json.');

const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  );

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const workName = (target: string, pid = process.pid): string => join(dirname(target), `.${basename(target)}.restore.${pid}.partial`);

/** Removes work folders of restores that were killed (their pid is gone). */
async function cleanLeftovers(target: string): Promise<void> {
  const re = new RegExp(`^\\.${basename(target).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.restore\\.(\\d+)\\.partial$`);
  let names: string[];
  try {
    names = await readdir(dirname(target));
  } catch {
    return;
  }
  for (const n of names) {
    const m = re.exec(n);
    if (m && !alive(Number(m[1]))) await rm(join(dirname(target), n), { recursive: true, force: true });
  }
}

/** A free `<target>.pre-restore-<date>` name. */
async function preRestoreName(target: string, now: Date): Promise<string> {
  const base = `${target}.pre-restore-${now.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-')}`;
  for (let i = 0; ; i++) {
    const candidate = i === 0 ? base : `${base}-${i}`;
    if (!(await exists(candidate))) return candidate;
  }
}

/** Hashes (and fsyncs) every extracted file, holding the tree against the manifest. */
async function checkExtracted(root: string, manifest: Manifest): Promise<void> {
  const seen = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        await walk(path);
        continue;
      }
      const rel = relative(root, path).split(sep).join('/');
      const expected = manifest.files[rel];
      if (!e.isFile() || !expected) throw new Error(`restore produced an unexpected '${rel}'; nothing was changed`);
      const handle = await open(path, 'r');
      try {
        const hash = createHash('sha256');
        let size = 0;
        for await (const chunk of handle.createReadStream({ autoClose: false })) {
          hash.update(chunk as Buffer);
          size += (chunk as Buffer).length;
        }
        if (size !== expected.size || hash.digest('hex') !== expected.sha256) {
          throw new Error(`'${rel}' does not match the manifest after extraction (was the archive changed meanwhile?); nothing was changed`);
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      seen.add(rel);
    }
    await fsyncDir(dir);
  };
  await walk(root);
  for (const rel of Object.keys(manifest.files)) {
    if (!seen.has(rel)) throw new Error(`'${rel}' was not extracted; nothing was changed`);
  }
}

/** Renames, or copies when `from` and `to` are on different filesystems. */
async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await cp(from, to, { recursive: true, errorOnExist: true, force: false });
    await rm(from, { recursive: true, force: true });
  }
}

/** Modes from the archive are not trusted: data is private to the hub, app code readable. */
function safeEntry(path: string, entry: ReadEntry | Stats): boolean {
  if (!('type' in entry) || path === MANIFEST_PATH || !isAllowedEntryPath(path)) return false;
  const dir = entry.type === 'Directory';
  if (!dir && entry.type !== 'File') return false;
  const data = path.startsWith('data/');
  const exec = typeof entry.mode === 'number' && (entry.mode & 0o100) !== 0;
  entry.mode = dir ? (data ? 0o700 : 0o755) : data ? 0o600 : exec ? 0o755 : 0o644;
  entry.uid = undefined;
  entry.gid = undefined;
  return true;
}

/**
 * Restores `archive` into `dataDir` and `appsDir` (the hub must be stopped).
 *
 * @example await restoreBackup('backups/hearth-backup-2026-11-21T03-30-00-000Z.tar.gz',
 *   { dataDir: '/var/lib/hearth/data', appsDir: '/var/lib/hearth/apps' })
 */
export async function restoreBackup(archive: string, opts: RestoreOptions): Promise<RestoreResult> {
  const holder = await lockHolder(opts.dataDir);
  if (holder !== null) throw new DataDirLockedError(opts.dataDir, holder);
  const { manifest } = await verifyArchive(archive);

  const release = (await exists(opts.dataDir)) ? await acquireDataLock(opts.dataDir) : null;
  const dataWork = workName(opts.dataDir);
  const appsWork = workName(opts.appsDir);
  try {
    await cleanLeftovers(opts.dataDir);
    await cleanLeftovers(opts.appsDir);
    await mkdir(dataWork, { recursive: true, mode: 0o700 });
    await extract({
      file: archive,
      cwd: dataWork,
      strict: true,
      preserveOwner: false,
      // verifyArchive read every byte already, so sizes are known and bounded.
      maxDecompressionRatio: Infinity,
      filter: safeEntry,
    });
    await checkExtracted(dataWork, manifest);
    await mkdir(join(dataWork, 'data', 'apps'), { recursive: true, mode: 0o700 });
    await mkdir(join(dataWork, 'apps'), { recursive: true, mode: 0o755 });
    // A hub started during the swap must find the data dir taken.
    await writeFile(join(dataWork, 'data', LOCK_FILE), String(process.pid), { mode: 0o644 });
    await mkdir(dirname(opts.appsDir), { recursive: true });
    await move(join(dataWork, 'apps'), appsWork);

    const now = (opts.now ?? (() => new Date()))();
    let previousData: string | null = null;
    let previousApps: string | null = null;
    if (await exists(opts.dataDir)) {
      previousData = await preRestoreName(opts.dataDir, now);
      await rename(opts.dataDir, previousData);
    }
    await rename(join(dataWork, 'data'), opts.dataDir);
    await fsyncDir(dirname(opts.dataDir));
    if (await exists(opts.appsDir)) {
      previousApps = await preRestoreName(opts.appsDir, now);
      await rename(opts.appsDir, previousApps);
    }
    await rename(appsWork, opts.appsDir);
    await fsyncDir(dirname(opts.appsDir));

    const carried: string[] = [];
    if (previousData) {
      for (const name of await readdir(previousData)) {
        if (isOwned(name) || (await exists(join(opts.dataDir, name)))) continue;
        await move(join(previousData, name), join(opts.dataDir, name));
        carried.push(name);
      }
      await rm(join(previousData, LOCK_FILE), { force: true });
    }
    await rm(join(opts.dataDir, LOCK_FILE), { force: true });
    await fsyncDir(opts.dataDir);
    return { manifest, previousData, previousApps, carried };
  } finally {
    await rm(dataWork, { recursive: true, force: true });
    await rm(appsWork, { recursive: true, force: true });
    // The lock now lives in the restored data dir (it was written into the work copy).
    if (release) await release();
  }
}
