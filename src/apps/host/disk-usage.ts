/**
 * How much disk an app's userdata takes: the blocks its files occupy (a sparse file counts what
 * it really holds), walked without following links, plus the blocks of files its process deleted
 * and keeps open (counted from its descriptors). The walk is bounded in entries, so a folder
 * of millions of empty files cannot make the hub walk forever: past the bound it counts as over.
 */
import { lstat, readdir, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';

/** Entries looked at in one measurement at most. */
export const MAX_ENTRIES = 100_000;

export interface DiskUsage {
  bytes: number;
  /** True when the walk stopped at MAX_ENTRIES (the folder holds at least that many entries). */
  truncated: boolean;
}

export async function folderUsage(root: string, maxEntries = MAX_ENTRIES): Promise<DiskUsage> {
  let bytes = 0;
  let seen = 0;
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      continue; // gone meanwhile, or not a folder
    }
    for (const name of names) {
      if (++seen > maxEntries) return { bytes, truncated: true };
      const path = join(dir, name);
      const info = await lstat(path).catch(() => null);
      if (!info) continue;
      bytes += info.blocks * 512;
      if (info.isDirectory()) stack.push(path);
    }
  }
  return { bytes, truncated: false };
}

/** Descriptors looked at in one measurement at most (an app has at most 1024 open). */
const MAX_FDS = 4096;

/**
 * Blocks of files a process holds open on `dev` that no name points to any more: a file opened,
 * deleted and written on is invisible to the walk above but fills the disk all the same. Read
 * from the kernel (/proc/<pid>/fd, each link stat'ed to the open file itself), so an app cannot
 * hide one; each file counts once however many descriptors it has on it.
 */
export async function deletedButOpen(pid: number, dev: number): Promise<number> {
  let fds: string[];
  try {
    fds = await readdir(`/proc/${pid}/fd`);
  } catch {
    return 0; // gone meanwhile
  }
  const seen = new Set<number>();
  let bytes = 0;
  for (const fd of fds.slice(0, MAX_FDS)) {
    const info = await stat(`/proc/${pid}/fd/${fd}`).catch(() => null);
    if (!info?.isFile() || info.nlink !== 0 || info.dev !== dev || seen.has(info.ino)) continue;
    seen.add(info.ino);
    bytes += info.blocks * 512;
  }
  return bytes;
}

/** Bytes free to an unprivileged writer on the filesystem of `path`, or null when it cannot be read. */
export async function freeBytes(path: string): Promise<number | null> {
  try {
    const s = await statfs(path);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}
