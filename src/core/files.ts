/**
 * The small file-system jobs more than one module needs, written once: whether a path names
 * something, the SHA-256 of a file read as a stream, making a folder with its parents, and
 * replacing a link in one step.
 */
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, statSync } from 'node:fs';
import { mkdir, rename, rm, stat, symlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Whether `path` names something; any error reading it (absent, no permission) counts as no. */
export function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The SHA-256 of a file's bytes as hex, read as a stream (archives are gigabytes). */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The missing directories of `path`, outermost first, as `exists` would walk them; throws on a part that is not a directory. */
function missingOf(path: string, isDir: (p: string) => boolean | null): string[] {
  const missing: string[] = [];
  for (let at = resolve(path); ; ) {
    const dir = isDir(at);
    if (dir === true) break;
    if (dir === false) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR' });
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  return missing;
}

/**
 * Makes `path` and the parents it lacks (mkdir -p), each with `mode`. Not Node's
 * `mkdir` with its recursive option: that never returns for a path under /proc (it retries its
 * ENOENT for ever), and a backup folder set there hung every backup of the hub; this walks at
 * most the path's depth and fails with the system's reason (test/house/no-recursive-mkdir.test.ts).
 */
export async function makeDirs(path: string, mode?: number): Promise<void> {
  const seen = new Map<string, boolean | null>();
  // Asked upwards from the path until a directory is found (stat, one per level).
  for (let at = resolve(path); ; ) {
    const kind = await stat(at).then(
      (s) => s.isDirectory(),
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw err;
      },
    );
    seen.set(at, kind);
    if (kind !== null || dirname(at) === at) break;
    at = dirname(at);
  }
  for (const dir of missingOf(path, (p) => seen.get(p) ?? null)) {
    await mkdir(dir, mode === undefined ? {} : { mode }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  }
}

/** `makeDirs`, synchronously (at start, and where the caller cannot wait). */
export function makeDirsSync(path: string, mode?: number): void {
  const isDir = (p: string): boolean | null => {
    try {
      return statSync(p).isDirectory();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };
  for (const dir of missingOf(path, isDir)) {
    try {
      mkdirSync(dir, mode === undefined ? {} : { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/**
 * Points `link` at `target` in one rename (a link there before is replaced whole, never missing in
 * between). Answers false, changing nothing, when a real folder holds the name: the caller decides
 * whether it may go.
 */
export async function replaceLink(target: string, link: string): Promise<boolean> {
  // Beside it, hidden (a leftover of a crash here is no package): .<name>-<pid>-<time>.
  const temp = join(dirname(link), `.${basename(link)}-${process.pid}-${Date.now()}`);
  await rm(temp, { force: true });
  await symlink(target, temp, 'dir');
  try {
    await rename(temp, link);
    return true;
  } catch (err) {
    await rm(temp, { force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'ENOTEMPTY') throw err;
    return false;
  }
}
