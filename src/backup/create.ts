/**
 * Makes one backup archive: store snapshot, insights copy, apps and their userdata, manifest
 * last. Crash-safe by construction: the archive is written under a hidden `.partial` name,
 * fsynced, read back and verified against its manifest, and only then renamed to its final
 * name (and the folder fsynced). A kill, crash or full disk at any point leaves no file that
 * looks like a finished backup; the next run removes the leftovers.
 */
import type { Dirent } from 'node:fs';
import { mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SDK_MODULES_DIR } from '../apps/host/sdk-link.js';
import { fsyncDir, writeFileDurable } from '../core/durable-file.js';
import { exists, makeDirs } from '../core/files.js';
import {
  APPS_PREFIX,
  archiveName,
  FORMAT_VERSION,
  INSIGHTS_ENTRY,
  isAppId,
  MANIFEST_PATH,
  type Manifest,
  type ManifestFile,
  partialName,
  STORE_ENTRY,
} from './format.js';
import { applyRetention, type BackupRecord, cleanStale, sidecarText } from './retention.js';
import { copySqliteDatabase } from './sqlite-copy.js';
import { TarGzWriter } from './tar-writer.js';
import { verifyArchive } from './verify.js';

export interface CreateBackupOptions {
  /** The hub's data dir: app userdata is read from `<dataDir>/apps/<id>/`. */
  readonly dataDir: string;
  /** Installed app packages: `<appsDir>/<id>/`. */
  readonly appsDir: string;
  /** Backup folder; created (0700) if missing. */
  readonly outDir: string;
  /** The whole store document as JSON (its bytes, as `store.snapshot()` takes them in memory). */
  readonly storeSnapshot: Uint8Array | string;
  /** Path of the insights SQLite database; skipped when absent or the file does not exist. */
  readonly insightsDb?: string;
  /**
   * Copies the insights database to `dest` through the running hub's own connection. SQLite's
   * online backup from a second connection restarts whenever the hub commits (every second), so
   * on a large file it may never finish; through the writer's connection it cannot be disturbed.
   */
  readonly copyInsights?: (dest: string) => Promise<void>;
  readonly hubVersion: string;
  /** App ids to include; default every folder in appsDir (names starting with '.' are temp). */
  readonly appIds?: readonly string[];
  /** Keep the newest N archives once this one is verified; default: delete nothing. */
  readonly keep?: number;
  /** gzip level; 6 is `gzip`'s own default. */
  readonly gzipLevel?: number;
  /** Where the insights copy is staged; default os.tmpdir(). */
  readonly tmpDir?: string;
  /** Clock, for tests. */
  readonly now?: () => Date;
}

export interface BackupResult extends BackupRecord {
  /** Absolute path of the archive. */
  readonly path: string;
  readonly durationMs: number;
  readonly manifest: Manifest;
  /** Entries left out (symlinks, sockets) with why, so the caller can log them. */
  readonly skipped: readonly string[];
  /** Archives retention deleted after this one verified. */
  readonly deleted: readonly string[];
  /** Files named like archives that retention left alone (unverified, dated ahead), with why. */
  readonly leftAlone: readonly string[];
}

async function listDirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

const vanished = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Adds a folder tree under `prefix`: directories and regular files only, in a stable order.
 * Files that vanish between listing and opening (a temp file renamed into place by a running
 * app or the log ring) are skipped: the file they became is listed on its own.
 */
async function addTree(
  tar: TarGzWriter,
  source: string,
  prefix: string,
  files: Record<string, ManifestFile>,
  skipped: string[],
  inconsistent: Manifest['inconsistent'],
): Promise<void> {
  let entries: Dirent[];
  try {
    const st = await stat(source);
    entries = (await readdir(source, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    await tar.directory(prefix, st.mtime);
  } catch (err) {
    if (!vanished(err)) throw err;
    skipped.push(`${prefix}: removed while the backup ran`);
    return;
  }
  for (const e of entries) {
    const path = join(source, e.name);
    const archivePath = `${prefix}/${e.name}`;
    if (e.isDirectory()) await addTree(tar, path, archivePath, files, skipped, inconsistent);
    else if (e.isFile()) {
      try {
        const { size, sha256, shrank } = await tar.addFile(archivePath, path);
        files[archivePath] = { size, sha256 };
        if (shrank) {
          const reason = 'it shrank while it was being read; the archive holds it, a restore leaves it out';
          inconsistent.push({ path: archivePath, reason });
          skipped.push(`${archivePath}: ${reason}`);
        }
      } catch (err) {
        // addFile opens before it writes anything, so a vanished file leaves no trace.
        if (!vanished(err)) throw err;
        skipped.push(`${archivePath}: removed while the backup ran`);
      }
    }
    // Links and special files would be refused at restore (they are how tar attacks work).
    else skipped.push(`${archivePath}: not a regular file or folder`);
  }
}

/** A name that does not collide with an existing archive (two backups in one millisecond). */
async function freeName(outDir: string, now: Date): Promise<{ name: string; createdAt: Date }> {
  let createdAt = now;
  for (;;) {
    const name = archiveName(createdAt);
    if (!(await exists(join(outDir, name)))) return { name, createdAt };
    createdAt = new Date(createdAt.getTime() + 1);
  }
}

/**
 * Writes one verified `hearth-backup-<time>.tar.gz` into `outDir` and returns its record.
 *
 * @example await createBackup({ dataDir, appsDir, outDir, storeSnapshot: store.snapshot(),
 *   insightsDb: join(dataDir, 'insights.db'), hubVersion: '0.1.0', keep: 7 })
 */
export async function createBackup(opts: CreateBackupOptions): Promise<BackupResult> {
  const started = performance.now();
  await makeDirs(opts.outDir, 0o700);
  await cleanStale(opts.outDir);

  const { name, createdAt } = await freeName(opts.outDir, (opts.now ?? (() => new Date()))());
  const final = join(opts.outDir, name);
  const partial = join(opts.outDir, partialName(name));
  const staging = await mkdtemp(join(opts.tmpDir ?? tmpdir(), 'hearth-backup-'));
  const tar = new TarGzWriter(partial, opts.gzipLevel ?? 6);
  const files: Record<string, ManifestFile> = {};
  const skipped: string[] = [];
  try {
    const apps: string[] = [];
    // Only app ids become archive paths (restore takes nothing else); any other folder there
    // is left out and named, never a reason to fail the whole home's backup. The hub's own
    // folder there (the SDK link, made again at every start) is left out without a word.
    const listed = opts.appIds ? [...opts.appIds].sort() : (await listDirs(opts.appsDir)).filter((name) => name !== SDK_MODULES_DIR);
    for (const id of listed) {
      if (isAppId(id)) apps.push(id);
      else skipped.push(`apps/${id}: not an app id, so not an app's folder`);
    }
    const inconsistent: Manifest['inconsistent'] = [];
    const userdata: string[] = [];
    const insights = opts.insightsDb !== undefined && (await exists(opts.insightsDb));

    await tar.directory('data', createdAt);
    // Not parsed here to check it: the store's bytes are JSON by construction (json-pieces.ts),
    // and parsing a big home's whole document made ~5 MiB of garbage that lived through it. A
    // string given instead (tests, scripts) is its caller's to make JSON: restore parses it.
    const snapshot = typeof opts.storeSnapshot === 'string' ? Buffer.from(opts.storeSnapshot, 'utf8') : opts.storeSnapshot;
    files[STORE_ENTRY] = await tar.buffer(STORE_ENTRY, snapshot, createdAt);
    if (insights && opts.insightsDb) {
      const copy = join(staging, 'insights.db');
      await (opts.copyInsights ?? ((dest: string) => copySqliteDatabase(opts.insightsDb!, dest)))(copy);
      const { size, sha256 } = await tar.addFile(INSIGHTS_ENTRY, copy); // a private copy: it cannot shrink
      files[INSIGHTS_ENTRY] = { size, sha256 };
      await rm(copy, { force: true }); // free the space before the apps are read
    }
    // Apps folder = <data-dir>/apps: packages and runtime data are one tree; archive it once.
    const shared = resolve(opts.appsDir) === resolve(opts.dataDir, 'apps');
    await tar.directory('data/apps', createdAt);
    for (const id of apps) {
      const dir = join(opts.dataDir, 'apps', id);
      if (!(await exists(dir))) continue;
      userdata.push(id);
      await addTree(tar, dir, `data/apps/${id}`, files, skipped, inconsistent);
    }
    const packaged: string[] = shared ? [...userdata] : [];
    if (!shared) {
      await tar.directory(APPS_PREFIX, createdAt);
      for (const id of apps) {
        const dir = join(opts.appsDir, id);
        if (!(await exists(dir))) {
          skipped.push(`apps/${id}: the app's folder is missing`);
          continue;
        }
        packaged.push(id);
        await addTree(tar, dir, `apps/${id}`, files, skipped, inconsistent);
      }
    }

    const manifest: Manifest = {
      formatVersion: FORMAT_VERSION,
      hubVersion: opts.hubVersion,
      createdAt: createdAt.toISOString(),
      contents: { store: true, insights, apps: packaged, userdata, layout: shared ? 'shared' : 'separate' },
      files,
      inconsistent,
    };
    await tar.buffer(MANIFEST_PATH, Buffer.from(JSON.stringify(manifest, null, 1), 'utf8'), createdAt);
    await tar.finish();

    const handle = await open(partial, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Read back what is on disk: catches a bad write before anyone relies on this archive.
    const verified = await verifyArchive(partial);
    if (await exists(final)) throw new Error(`${final} appeared while the backup was written`);
    await rename(partial, final);
    await fsyncDir(opts.outDir);
    // After the rename: a crash before this line leaves an archive without a sidecar, which
    // listBackups hashes instead; never a sidecar claiming an archive that is not there.
    await writeFileDurable(`${final}.sha256`, sidecarText(verified.sha256, name));

    const { deleted, leftAlone } = opts.keep !== undefined ? await applyRetention(opts.outDir, opts.keep, name, createdAt) : { deleted: [], leftAlone: [] };
    return {
      file: name,
      path: final,
      createdAt: createdAt.toISOString(),
      size: verified.size,
      sha256: verified.sha256,
      durationMs: Math.round(performance.now() - started),
      manifest: verified.manifest,
      skipped,
      deleted,
      leftAlone,
    };
  } catch (err) {
    await tar.abort();
    await rm(partial, { force: true });
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC') {
      throw new Error(`backup folder ${opts.outDir} is full; free space or choose another --backup-dir`, { cause: err });
    }
    throw err;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
