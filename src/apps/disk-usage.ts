/**
 * How much disk an app's userdata takes: the blocks its files occupy (a sparse file counts what
 * it really holds), walked without following links. The walk is bounded in entries, so a folder
 * of millions of empty files cannot make the hub walk forever: past the bound it counts as over.
 */
import { lstat, readdir } from 'node:fs/promises';
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
