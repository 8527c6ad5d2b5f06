/**
 * Why the hub cannot start, said as one sentence with what to do: the daemon prints it alone
 * (no JSON, no stack; the stack is logged at debug) and exits. Everything the start checks
 * before it creates anything (the data dir's lock, the port, folders it must write) ends here.
 */
import { access, constants, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}

const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'a read-only file system',
  ENOSPC: 'the disk is full',
  ENOTDIR: 'a file is where a folder should be',
  EEXIST: 'a file is where a folder should be',
};

/**
 * A file-system error met while preparing `what` (the folder given with `flag`), as a
 * StartupError; null for any other error (a bug, which keeps its stack).
 */
export function folderError(err: unknown, what: string, dir: string, flag: string): StartupError | null {
  const e = err as NodeJS.ErrnoException;
  const reason = typeof e?.code === 'string' ? REASONS[e.code] : undefined;
  if (!reason) return null;
  const user = typeof process.getuid === 'function' ? ` by uid ${process.getuid()}` : '';
  return new StartupError(
    `the ${what} ${dir} cannot be written${user} (${e.path ?? dir}: ${reason}): give this user the folder, or choose another with ${flag}`,
    { cause: err },
  );
}

/**
 * Throws a StartupError when `dir` (or, while it does not exist, the nearest folder above it
 * that does) cannot be written by this process: checked before the hub makes anything.
 */
export async function checkWritable(dir: string, what: string, flag: string): Promise<void> {
  let at = resolve(dir);
  // A file given where a folder is meant (a mistyped flag) is that, not a permission problem.
  const info = await stat(at).catch(() => null);
  if (info && !info.isDirectory()) throw new StartupError(`the ${what} ${dir} is a file, not a folder: choose a folder with ${flag}`);
  for (;;) {
    try {
      await access(at, constants.W_OK | constants.X_OK);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && dirname(at) !== at) {
        at = dirname(at);
        continue;
      }
      throw folderError(err, what, dir, flag) ?? err;
    }
  }
}
