import type { Stats } from 'node:fs';
import { lstat, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isProcessAlive } from '../core/data-lock.js';
import { sha256File } from '../core/files.js';
import { PARTIAL_RE, parseArchiveName, SIDECAR_SUFFIX } from './format.js';
import { verifyArchive } from './verify.js';

export interface BackupRecord {
  /** File name inside the backup folder. */
  file: string;
  createdAt: string;
  size: number;
  sha256: string;
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** Archive names in `dir`, newest first. */
export async function archiveNames(dir: string): Promise<string[]> {
  return (await names(dir))
    .filter((n) => parseArchiveName(n) !== null)
    .sort()
    .reverse();
}

/** Reads the `sha256sum`-format sidecar written beside an archive; null when absent or unreadable. */
async function readSidecar(archive: string): Promise<string | null> {
  try {
    const m = /^([0-9a-f]{64})\s/.exec(await readFile(`${archive}${SIDECAR_SUFFIX}`, 'utf8'));
    return m?.[1] ?? null;
  } catch {
    return null;
  }
}

/** The sidecar text: `sha256sum -c` can check an archive copied elsewhere. */
export function sidecarText(sha256: string, archiveFile: string): string {
  return `${sha256}  ${archiveFile}\n`;
}

/** Caches hashes of archives without a sidecar (copied in by hand), keyed by name, size and mtime. */
const hashCache = new Map<string, string>();

/**
 * Finished backups in `dir`, newest first. The sha256 comes from the sidecar; an archive
 * without one is hashed once per process.
 */
export async function listBackups(dir: string): Promise<BackupRecord[]> {
  const out: BackupRecord[] = [];
  for (const file of await archiveNames(dir)) {
    const path = join(dir, file);
    let st: Stats;
    try {
      st = await stat(path);
    } catch {
      continue; // deleted meanwhile (retention of another run)
    }
    const key = `${path}:${st.size}:${st.mtimeMs}`;
    let sha256 = (await readSidecar(path)) ?? hashCache.get(key);
    if (!sha256) {
      sha256 = await sha256File(path);
      hashCache.set(key, sha256);
    }
    out.push({ file, createdAt: (parseArchiveName(file) as Date).toISOString(), size: st.size, sha256 });
  }
  return out;
}

/** Archives dated further ahead than this are not trusted to be newest (clock skew allowed). */
const FUTURE_SKEW_MS = 24 * 60 * 60 * 1000;

/** Verified archives, per name, size, mtime and inode: each is read back once per process. */
const verifiedCache = new Map<string, Date | string>();

export interface RetentionResult {
  readonly deleted: string[];
  /** Files named like archives that retention did not count and left alone, with why. */
  readonly leftAlone: string[];
}

/**
 * Why `name` is not a verified archive of ours, or its creation time: a regular file (never a
 * link, socket or folder, whatever its name) whose manifest reads back and agrees with its name.
 */
async function verifiedDate(dir: string, name: string, named: Date): Promise<Date | string> {
  const path = join(dir, name);
  const st = await lstat(path).catch(() => null);
  if (!st) return 'gone';
  if (!st.isFile()) return 'not a regular file';
  const key = `${path}:${st.size}:${st.mtimeMs}:${st.ino}`;
  let result = verifiedCache.get(key);
  if (result === undefined) {
    try {
      const { manifest } = await verifyArchive(path);
      result = new Date(manifest.createdAt).getTime() === named.getTime() ? named : 'its manifest has another date than its name';
    } catch (err) {
      result = `it does not verify (${err instanceof Error ? err.message : String(err)})`;
    }
    verifiedCache.set(key, result);
  }
  return result;
}

/**
 * Deletes all but the newest `keep` verified archives (and their sidecars). Acts on verified
 * archives only: a file or socket named like a far-future backup had made retention delete every
 * real archive. Never deletes `made` (the archive just written) nor the newest verified one;
 * archives dated more than a day ahead are left alone and reported, never counted as newest.
 */
export async function applyRetention(dir: string, keep: number, made: string | null = null, now = new Date()): Promise<RetentionResult> {
  const verified: { name: string; date: Date }[] = [];
  const leftAlone: string[] = [];
  for (const name of await archiveNames(dir)) {
    const named = parseArchiveName(name) as Date;
    const date = await verifiedDate(dir, name, named);
    if (typeof date === 'string') {
      if (date !== 'gone') leftAlone.push(`${name}: ${date}`);
    } else if (date.getTime() > now.getTime() + FUTURE_SKEW_MS) {
      leftAlone.push(`${name}: dated in the future`);
    } else {
      verified.push({ name, date });
    }
  }
  verified.sort((a, b) => b.date.getTime() - a.date.getTime());
  const deleted: string[] = [];
  for (const { name } of verified.slice(Math.max(1, keep))) {
    if (name === made) continue;
    await rm(join(dir, name), { force: true });
    await rm(join(dir, `${name}${SIDECAR_SUFFIX}`), { force: true });
    deleted.push(name);
  }
  return { deleted, leftAlone };
}

/**
 * Removes partial archives whose writer is gone (killed, crashed, power cut) and sidecars whose
 * archive never got its final name. Partials of a live process are left alone.
 */
export async function cleanStale(dir: string): Promise<string[]> {
  const all = await names(dir);
  const archives = new Set(all.filter((n) => parseArchiveName(n) !== null));
  const removed: string[] = [];
  for (const n of all) {
    const partial = PARTIAL_RE.exec(n);
    const pid = partial ? Number(partial[1]) : null;
    const stalePartial = pid !== null && pid !== process.pid && !isProcessAlive(pid);
    const orphanSidecar =
      n.endsWith(SIDECAR_SUFFIX) && parseArchiveName(n.slice(0, -SIDECAR_SUFFIX.length)) !== null && !archives.has(n.slice(0, -SIDECAR_SUFFIX.length));
    // Only regular files: a folder or socket given such a name is not something a backup left.
    if ((stalePartial || orphanSidecar) && (await lstat(join(dir, n)).catch(() => null))?.isFile()) {
      await rm(join(dir, n), { force: true });
      removed.push(n);
    }
  }
  return removed;
}
