/**
 * Putting a restored folder tree in place of a live one. Two strategies:
 *  - beside (the normal case): the old folder is renamed to `<name>.pre-restore-<date>` next to
 *    it and the new one renamed into its place: two renames on one filesystem.
 *  - inside (the folder is a mount point, or its parent is not writable, e.g. a systemd
 *    StateDirectory under /var/lib restored by the hub's own user): the entries are swapped one
 *    by one, the previous ones kept in a `pre-restore-<date>` folder inside it.
 * The swap itself runs from a journal (restore-journal.ts), so a stop half-way is finished later.
 */
import { access, constants, cp, lchown, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isProcessAlive } from '../core/data-lock.js';
import { exists } from '../core/files.js';
import { literal } from '../core/regexp.js';

export type SwapMode = 'beside' | 'inside';

/** How `target` can be replaced (see the module comment). */
export async function swapMode(target: string): Promise<SwapMode> {
  const parent = dirname(target);
  const writable = await access(parent, constants.W_OK).then(
    () => true,
    () => false,
  );
  if (!writable) {
    if (!(await exists(target))) throw new Error(`cannot create ${target}: ${parent} is not writable`);
    return 'inside';
  }
  if (!(await exists(target))) return 'beside';
  const [t, p] = await Promise.all([stat(target), stat(parent)]);
  return t.dev !== p.dev ? 'inside' : 'beside';
}

/** Where a restore stages the new tree for `target`: same filesystem, hidden, pid-tagged. */
export function workDir(target: string, mode: SwapMode, pid = process.pid): string {
  return mode === 'beside' ? join(dirname(target), `.${basename(target)}.restore.${pid}.partial`) : join(target, `.restore.${pid}.partial`);
}

/** Removes staging folders of restores that were killed (their pid is gone), in both places. */
export async function cleanLeftovers(target: string): Promise<void> {
  const escaped = literal(basename(target));
  const places: [string, RegExp][] = [
    [dirname(target), new RegExp(`^\\.${escaped}\\.restore\\.(\\d+)\\.partial$`)],
    [target, /^\.restore\.(\d+)\.partial$/],
  ];
  for (const [dir, re] of places) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const n of names) {
      const m = re.exec(n);
      if (m && Number(m[1]) !== process.pid && !isProcessAlive(Number(m[1]))) await rm(join(dir, n), { recursive: true, force: true });
    }
  }
}

/** A free pre-restore name for `target` in the given mode. */
export async function previousName(target: string, mode: SwapMode, now: Date, hidden = false): Promise<string> {
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  const base = mode === 'beside' ? `${target}.pre-restore-${stamp}` : join(target, `${hidden ? '.' : ''}pre-restore-${stamp}`);
  for (let i = 0; ; i++) {
    const candidate = i === 0 ? base : `${base}-${i}`;
    if (!(await exists(candidate))) return candidate;
  }
}

/** Renames, or copies when `from` and `to` are on different filesystems. */
export async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await cp(from, to, { recursive: true, errorOnExist: true, force: false });
    await rm(from, { recursive: true, force: true });
  }
}

/**
 * Gives a restored tree the owner of the folder it replaces. Only root can and needs to: a
 * `sudo hearth restore` must not leave root-owned files the hub's own user cannot write.
 */
export async function chownLike(tree: string, like: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const ref = (await exists(like)) ? await stat(like) : await stat(dirname(like));
  const walk = async (p: string): Promise<void> => {
    await lchown(p, ref.uid, ref.gid);
    const st = await stat(p);
    if (!st.isDirectory()) return;
    for (const name of await readdir(p)) await walk(join(p, name));
  };
  await walk(tree);
}
