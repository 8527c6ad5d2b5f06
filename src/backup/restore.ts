/**
 * Restores a backup archive over a stopped hub's data and apps folders. Nothing is touched until
 * the whole archive verified; the contents are extracted into a hidden staging folder on the
 * same filesystem, verified again on disk and fsynced, and only then swapped in (swap.ts). The
 * previous data stays as `<name>.pre-restore-<date>`, so a restore can be undone by hand.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { cp, open, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { extract, type ReadEntry } from 'tar';
import { acquireDataLock, DataDirLockedError, LOCK_FILE, lockHolder } from '../core/data-lock.js';
import { fsyncDir, writeFileDurable } from '../core/durable-file.js';
import { makeDirs } from '../core/files.js';
import { entryKind, isAppId, MANIFEST_PATH, type Manifest } from './format.js';
import { keepAside } from './pre-restore.js';
import { beginJournal, completeJournal, type Journal, MARKER, planStep, recoverRestore } from './restore-journal.js';
import { narrowStage } from './restore-narrow.js';
import type { RestoreRights } from './restore-rights.js';
import { chownLike, cleanLeftovers, move, type SwapMode, swapMode, workDir } from './swap.js';
import { verifyArchive } from './verify.js';

export interface RestoreOptions {
  readonly dataDir: string;
  readonly appsDir: string;
  /** Clock for the pre-restore names, for tests. */
  readonly now?: () => Date;
  /**
   * Force a swap strategy (swap.ts); by default 'beside' unless the folder is a mount point or
   * its parent is not writable. 'inside' keeps the previous data inside the folder itself.
   */
  readonly swap?: SwapMode;
  /**
   * Who asks, for a restore through the Web API: each part of the home comes from the backup
   * only where these rights could have written it (restore-rights.ts). Absent (the command
   * line): the whole backup.
   */
  readonly rights?: RestoreRights;
  /**
   * The backup folder: the copies of what the restore replaced move into its pre-restore/
   * (pre-restore.ts). Absent: they stay beside the folders they were.
   */
  readonly backups?: string;
}

export interface RestoreResult {
  readonly manifest: Manifest;
  /** Where the previous data / apps went; null when there was none (or apps live in data). */
  readonly previousData: string | null;
  readonly previousApps: string | null;
  /** Entries of the previous data dir that a backup does not own, moved into the restored one. */
  readonly carried: readonly string[];
  /** What the backup held that the restore did not bring in, and why (a sentence each). */
  readonly leftOut: readonly string[];
  /** How many of the backup's tokens joined the hub's own (a restore through the API keeps those). */
  readonly tokensAdded: number;
}

/** What a restore puts in place: every file of the manifest but those recorded as inconsistent. */
function restorable(manifest: Manifest): Map<string, Manifest['files'][string]> {
  const left = new Set(manifest.inconsistent.map((f) => f.path));
  return new Map(Object.entries(manifest.files).filter(([path]) => !left.has(path)));
}

/** Hashes (and fsyncs) every extracted file, holding the tree against the manifest. */
async function checkExtracted(root: string, manifest: Manifest): Promise<void> {
  const wanted = restorable(manifest);
  const seen = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        await walk(path);
        continue;
      }
      const rel = relative(root, path).split(sep).join('/');
      const expected = wanted.get(rel);
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
  for (const rel of wanted.keys()) {
    if (!seen.has(rel)) throw new Error(`'${rel}' was not extracted; nothing was changed`);
  }
}

/**
 * The extraction filter: only what a backup writes (format.ts entryKind), only files and
 * folders, never a file recorded as inconsistent. Modes from the archive are not trusted: data
 * is private to the hub, app code readable.
 */
function entryFilter(manifest: Manifest): (path: string, entry: ReadEntry | Stats) => boolean {
  const wanted = restorable(manifest);
  return (path, entry) => {
    if (!('type' in entry) || path === MANIFEST_PATH || entryKind(path) === null) return false;
    const dir = entry.type === 'Directory';
    if (!dir && (entry.type !== 'File' || !wanted.has(path))) return false;
    const data = path.startsWith('data/');
    const exec = typeof entry.mode === 'number' && (entry.mode & 0o100) !== 0;
    entry.mode = dir ? (data ? 0o700 : 0o755) : data ? 0o600 : exec ? 0o755 : 0o644;
    return true;
  };
}

/**
 * Makes the staged tree fit the target layout: apps beside the data dir ('separate') or the
 * apps folder being `<data-dir>/apps` ('shared', the systemd layout).
 */
async function fitLayout(stage: string, manifest: Manifest, sharedTarget: boolean): Promise<void> {
  const dataApps = join(stage, 'data', 'apps');
  const apps = join(stage, 'apps');
  await makeDirs(dataApps, 0o700);
  await makeDirs(apps, 0o755);
  const archiveShared = manifest.contents.layout === 'shared';
  if (sharedTarget && !archiveShared) {
    // Package files join the app's runtime folder (their names do not collide: the runtime
    // keeps to userdata/ and its logs).
    for (const id of await readdir(apps)) {
      await makeDirs(join(dataApps, id), 0o700);
      for (const name of await readdir(join(apps, id))) await move(join(apps, id, name), join(dataApps, id, name));
    }
  } else if (!sharedTarget && archiveShared) {
    // One tree for both: each place gets all of it rather than guessing which file is whose.
    for (const id of manifest.contents.apps) {
      // The manifest schema holds ids to the app id rule; checked again here because a path
      // built from an id is about to be written.
      if (!isAppId(id)) throw new Error(`'${id}' is not an app id; nothing was changed`);
      await cp(join(dataApps, id), join(apps, id), { recursive: true });
    }
  }
}

/** 'inside' needs the folder to exist: a forced 'inside' on a missing folder creates it first. */
async function chooseMode(target: string, forced: SwapMode | undefined): Promise<SwapMode> {
  if (forced === 'inside') {
    await makeDirs(target, 0o750);
    return 'inside';
  }
  return forced ?? swapMode(target);
}

/**
 * Restores `archive` into `dataDir` and `appsDir` (the hub must be stopped).
 *
 * @example await restoreBackup('backups/hearth-backup-2026-11-21T03-30-00-000Z.tar.gz',
 *   { dataDir: '/var/lib/hearth', appsDir: '/var/lib/hearth/apps' })
 */
export async function restoreBackup(archive: string, opts: RestoreOptions): Promise<RestoreResult> {
  const dataDir = resolve(opts.dataDir);
  const appsDir = resolve(opts.appsDir);
  const sharedTarget = appsDir === join(dataDir, 'apps');
  if (!sharedTarget && appsDir.startsWith(dataDir + sep)) {
    // Swapping the data dir would carry the apps folder (and its staging copy) away mid-restore.
    throw new Error(`an apps folder inside the data dir is supported only as ${join(dataDir, 'apps')}; move ${appsDir} out first`);
  }
  const holder = await lockHolder(dataDir);
  if (holder !== null) throw new DataDirLockedError(dataDir, holder.pid);
  const { manifest } = await verifyArchive(archive);

  await makeDirs(dirname(dataDir));
  if (!sharedTarget) await makeDirs(dirname(appsDir));
  const dataMode = await chooseMode(dataDir, opts.swap);
  const appsMode = sharedTarget ? null : await chooseMode(appsDir, opts.swap);
  const release = await acquireDataLock(dataDir);
  const stage = workDir(dataDir, dataMode);
  const appsStage = appsMode ? workDir(appsDir, appsMode) : null;
  let journalFile: string | null = null;
  try {
    // A restore stopped half-way is finished first: its staged trees are not leftovers.
    await recoverRestore(dataDir);
    await cleanLeftovers(dataDir);
    if (!sharedTarget) await cleanLeftovers(appsDir);
    await makeDirs(stage, 0o700);
    await extract({
      file: archive,
      cwd: stage,
      strict: true,
      preserveOwner: false,
      // verifyArchive read every byte already, so sizes are known and bounded.
      maxDecompressionRatio: Infinity,
      filter: entryFilter(manifest),
    });
    await checkExtracted(stage, manifest);
    await fitLayout(stage, manifest, sharedTarget);
    const narrowed = opts.rights ? await narrowStage(stage, dataDir, opts.rights) : { plan: { apps: true, insights: true }, leftOut: [], tokensAdded: 0 };
    const swapApps = appsStage !== null && narrowed.plan.apps;
    // A hub started during the swap finds the data dir taken: this process holds its lock (a
    // socket named after the data dir's path, not a file inside it), from before until after.
    await chownLike(join(stage, 'data'), dataDir);
    if (appsStage && swapApps) {
      await chownLike(join(stage, 'apps'), appsDir);
      await move(join(stage, 'apps'), appsStage);
    }

    // From the journal on, a stop at any point is finished by the next start (restore-journal.ts).
    const now = (opts.now ?? (() => new Date()))();
    const steps = [await planStep(dataDir, join(stage, 'data'), dataMode, now, 'data')];
    // Inside the apps folder the previous apps hide behind a dot, so nobody takes them for an app.
    if (appsMode && appsStage && swapApps) steps.push(await planStep(appsDir, appsStage, appsMode, now, 'apps'));
    // The staged data names this restore: the swap is done only once the data dir holds it.
    const marker = randomUUID();
    await writeFileDurable(join(stage, 'data', MARKER), `${marker}\n`);
    const journal: Journal = {
      version: 1,
      dataDir,
      steps,
      plan: narrowed.plan,
      marker,
      summary: { archive: basename(archive), createdAt: manifest.createdAt, leftOut: narrowed.leftOut, tokensAdded: narrowed.tokensAdded },
    };
    journalFile = await beginJournal(journal);
    const { carried, restored } = await completeJournal(journal, journalFile);
    journalFile = null;
    if (!restored) throw new Error('the restored data could not be put in place; the data dir holds the data it had');
    await rm(join(dataDir, LOCK_FILE), { force: true });
    await fsyncDir(dataDir);
    // The copies of what was replaced go to the backup folder (pre-restore.ts), where they are listed.
    const kept = opts.backups ? (await keepAside({ dataDir, appsDir, backups: resolve(opts.backups) })).moved : new Map<string, string>();
    const previousData = steps[0]!.previous && (kept.get(steps[0]!.previous) ?? steps[0]!.previous);
    const previous = steps[1]?.previous ?? null;
    const previousApps = previous && (kept.get(previous) ?? previous);
    return { manifest, previousData, previousApps, carried, leftOut: narrowed.leftOut, tokensAdded: narrowed.tokensAdded };
  } finally {
    // A swap that failed half-way keeps its staged trees for the journal's next run.
    if (journalFile === null) {
      await rm(stage, { recursive: true, force: true });
      if (appsStage) await rm(appsStage, { recursive: true, force: true });
    }
    // The lock now lives in the restored data dir (it was written into the staged copy).
    if (release) await release();
  }
}
