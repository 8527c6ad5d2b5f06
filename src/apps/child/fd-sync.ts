/**
 * Flushing a file an app wrote, under Node 20's permission model. The model refuses every call on
 * a bare file descriptor that could change a file ("fsync API is disabled when Permission Model
 * is enabled": fsync, fdatasync, fchmod, fchown, futimes), yet apps' own databases (nedb, and
 * others written the same way) flush each write with `fs.fsync` and stop when it fails. A
 * FileHandle's `sync()` is allowed, and fsync flushes the file, not the descriptor: so
 * `fs.fsync`/`fs.fdatasync` here open the app's own descriptor again through /proc/self/fd
 * (read-only: childExecArgv lets an app read there, which reads nothing it does not hold open)
 * and flush that. `fsyncSync`/`fdatasyncSync` stay refused (a FileHandle has no synchronous
 * flush), and so do fchmod, fchown and futimes: a descriptor opened for reading anywhere would
 * change the file.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

/** Where a process finds its own descriptors by number (read-only in an app's allow-list). */
export const OWN_FDS = '/proc/self/fd/';

type Done = (err: NodeJS.ErrnoException | null) => void;

/** `fd` flushed as `how` asks, by opening it again; the callback gets what Node's would. */
function flushAgain(fd: number, how: 'sync' | 'datasync', done: Done): void {
  fs.promises.open(`${OWN_FDS}${fd}`, 'r').then(
    (handle) =>
      handle[how]().then(
        () => handle.close().then(() => done(null), done),
        (err: NodeJS.ErrnoException) => handle.close().finally(() => done(err)),
      ),
    // A descriptor that is not open, or not a file (a socket): what fsync itself answers then.
    (err: NodeJS.ErrnoException) => done(err.code === 'ENOENT' || err.code === 'ENXIO' ? fsyncError(how, fd, err.code === 'ENOENT' ? 'EBADF' : 'EINVAL') : err),
  );
}

function fsyncError(how: 'sync' | 'datasync', fd: number, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${how === 'sync' ? 'fsync' : 'fdatasync'} of descriptor ${fd}`), { code });
}

/** Replaces fs.fsync and fs.fdatasync (for CommonJS and ES module importers alike). */
export function allowFdSync(): void {
  const { fsync, fdatasync } = fs;
  const replace = (how: 'sync' | 'datasync', original: typeof fsync) =>
    function flush(fd: number, callback: Done): void {
      // Anything else (a bad fd, no callback) gets Node's own checks and errors.
      if (!Number.isInteger(fd) || fd < 0 || typeof callback !== 'function') original(fd, callback);
      else flushAgain(fd, how, callback);
    };
  fs.fsync = replace('sync', fsync) as typeof fs.fsync;
  fs.fdatasync = replace('datasync', fdatasync) as typeof fs.fdatasync;
  syncBuiltinESMExports();
}
