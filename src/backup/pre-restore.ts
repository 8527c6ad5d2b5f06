/**
 * The copies a restore keeps of what it replaced, kept where a person looks for old copies of
 * their home: the backup folder, as `pre-restore/<time>/data` and `.../apps` (one folder per
 * restore), the newest PRE_RESTORE_KEEP only. The swap itself leaves them beside the folders it
 * replaced (two renames on one file system: restore-journal.ts); once the swap is complete they
 * move here, and a hub's start moves any left beside (a stop between the two, or a restore by an
 * older hearth, which left `data.pre-restore-*` folders in the folder above the data dir).
 */
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { exists, makeDirs } from '../core/files.js';
import { literal } from '../core/regexp.js';
import { move } from './swap.js';

/** The folder in the backup folder that holds the pre-restore copies. */
export const PRE_RESTORE_DIR = 'pre-restore';
/** How many restores' copies are kept: the oldest go when a newer one arrives. */
export const PRE_RESTORE_KEEP = 3;

/** A restore's time as swap.ts writes it (2026-11-26T10-49-33Z), and a -N when two fell in one second. */
const STAMP = String.raw`\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z(?:-\d+)?`;

export interface PreRestoreCopy {
  /** The folder's name in pre-restore/: the restore's time. */
  readonly name: string;
  /** When the restore ran (from the name). */
  readonly at: string;
  /** The data dir and apps folder as they were before it (null: not replaced). */
  readonly data: string | null;
  readonly apps: string | null;
}

export interface KeptAside {
  /** Where each copy that moved now is, by where it was. */
  readonly moved: ReadonlyMap<string, string>;
  /** Copies removed because newer ones pass PRE_RESTORE_KEEP. */
  readonly pruned: readonly string[];
}

/** Every pre-restore copy a restore left beside (or, for a mount point, inside) `target`, with its stamp. */
async function leftBy(target: string, kind: 'data' | 'apps'): Promise<{ path: string; stamp: string }[]> {
  const found: { path: string; stamp: string }[] = [];
  const places: [string, RegExp][] = [
    [dirname(target), new RegExp(`^${literal(basename(target))}\\.pre-restore-(${STAMP})$`)],
    // 'inside' mode: the data dir's previous entries in pre-restore-<time>, the apps folder's in .pre-restore-<time>.
    [target, new RegExp(`^${kind === 'apps' ? '\\.' : ''}pre-restore-(${STAMP})$`)],
  ];
  for (const [dir, re] of places) {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const m = re.exec(name);
      if (m?.[1]) found.push({ path: join(dir, name), stamp: m[1] });
    }
  }
  return found;
}

/**
 * Moves every pre-restore copy of `dataDir` and `appsDir` into `<backups>/pre-restore/<time>/`,
 * then keeps the newest PRE_RESTORE_KEEP. Call with the data dir's lock held and no restore half
 * done (after recoverRestore or completeJournal).
 */
export async function keepAside(dirs: { dataDir: string; appsDir: string; backups: string }): Promise<KeptAside> {
  const root = copiesRoot(dirs.backups);
  const moved = new Map<string, string>();
  for (const kind of ['data', 'apps'] as const) {
    for (const copy of await leftBy(kind === 'data' ? dirs.dataDir : dirs.appsDir, kind)) {
      // The backup folder may sit inside the data dir: never move a folder into itself.
      if (root === copy.path || root.startsWith(`${copy.path}/`)) continue;
      const folder = join(root, copy.stamp);
      await makeDirs(folder, 0o750);
      let to = join(folder, kind);
      for (let i = 1; await exists(to); i++) to = join(folder, `${kind}-${i}`);
      await move(copy.path, to);
      moved.set(copy.path, to);
    }
  }
  const all = await listPreRestore(dirs.backups);
  const pruned: string[] = [];
  for (const old of all.slice(PRE_RESTORE_KEEP)) {
    await rm(join(root, old.name), { recursive: true, force: true });
    pruned.push(old.name);
  }
  return { moved, pruned };
}

/** The pre-restore copies in the backup folder, newest first. */
export async function listPreRestore(backups: string): Promise<PreRestoreCopy[]> {
  const root = copiesRoot(backups);
  const re = new RegExp(`^${STAMP}$`);
  const out: PreRestoreCopy[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!re.test(name)) continue;
    const part = async (p: string): Promise<string | null> => ((await exists(join(root, name, p))) ? join(root, name, p) : null);
    const [date, time] = name.split('T') as [string, string];
    const at = `${date}T${time.slice(0, 8).replace(/-/g, ':')}Z`;
    out.push({ name, at, data: await part('data'), apps: await part('apps') });
  }
  return out.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

/** Removes one pre-restore copy by its name; false when there is none of that name. */
export async function removePreRestore(backups: string, name: string): Promise<boolean> {
  if (!new RegExp(`^${STAMP}$`).test(name)) return false;
  const folder = join(copiesRoot(backups), name);
  if (!(await exists(folder))) return false;
  await rm(folder, { recursive: true, force: true });
  return true;
}

const copiesRoot = (backups: string): string => join(backups, PRE_RESTORE_DIR);
