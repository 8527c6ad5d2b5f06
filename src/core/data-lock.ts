/**
 * One writer per data directory. Two processes appending to one store journal corrupt it, so a second
 * hub (or `hearth restore` while a hub runs) is refused.
 *
 * The lock is a Unix socket bound in Linux's abstract namespace under a name made from where the
 * data dir is (lockAddress): binding is atomic (EADDRINUSE when taken) and the kernel drops the socket when
 * its process dies, however it dies. A pid in a file cannot do this: after a power cut the pid
 * a lock file names often belongs to another process at the next boot, and the hub refused to
 * start until someone deleted the file. `hearth.lock` still holds the holder's pid, but only to
 * name it in the refusal; nothing decides by it. Elsewhere than Linux the socket is a file in
 * the data dir, and a file nobody answers on is a stale one.
 */
import { createHash } from 'node:crypto';
import { readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { StartupError } from './startup-error.js';

export const LOCK_FILE = 'hearth.lock';
const SOCKET_FILE = 'hearth.lock.sock';

export class DataDirLockedError extends StartupError {
  constructor(
    readonly dataDir: string,
    readonly pid: number | null,
  ) {
    super(`data dir ${dataDir} is in use by another hearth process${pid === null ? '' : ` (pid ${pid})`}; stop it first`);
  }
}

/** True while a process with this pid exists (EPERM: it exists but is not ours to signal). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The socket address of a data dir's lock. Abstract sockets live in the network namespace, not
 * in the file system, so the name holds where the data dir is: the device and inode of its
 * parent folder and its name. A container sharing the host's network with its own
 * `/var/lib/hearth/data` gets another lock; a restore that swaps the data dir for a new folder
 * (same parent, same name) keeps the same one.
 */
async function lockAddress(dataDir: string): Promise<string> {
  const dir = await realpath(dataDir).catch(() => resolve(dataDir));
  if (process.platform !== 'linux') return join(dir, SOCKET_FILE);
  const parent = await stat(dirname(dir)).catch(() => null);
  const where = parent ? `${parent.dev}:${parent.ino}:${basename(dir)}` : dir;
  return `\0hearth-data-lock-${createHash('sha256').update(where).digest('hex').slice(0, 40)}`;
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen({ path: address, exclusive: true }, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
}

/** A socket file (not Linux) that nobody answers on is left from a dead holder. */
function answers(address: string): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = createConnection({ path: address });
    socket.once('connect', () => {
      socket.destroy();
      resolveAnswer(true);
    });
    socket.once('error', () => resolveAnswer(false));
  });
}

/** Binds the lock socket; null when another live process holds it. */
async function bind(address: string): Promise<Server | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const server = createServer((socket) => socket.destroy());
    try {
      await listen(server, address);
      // The lock must not keep the hub's event loop alive, nor be inherited: libuv opens it CLOEXEC.
      server.unref();
      return server;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      if (address.startsWith('\0') || (await answers(address))) return null;
      await rm(address, { force: true }); // a socket file of a process that is gone
    }
  }
  return null;
}

async function recordedPid(dataDir: string): Promise<number | null> {
  const pid = Number.parseInt(await readFile(join(dataDir, LOCK_FILE), 'utf8').catch(() => ''), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** The live process holding the lock (its pid when recorded), or null when the lock is free. */
export async function lockHolder(dataDir: string): Promise<{ pid: number | null } | null> {
  const server = await bind(await lockAddress(dataDir));
  if (server) {
    await new Promise<void>((r) => server.close(() => r()));
    return null;
  }
  return { pid: await recordedPid(dataDir) };
}

/**
 * Takes the lock and returns a function that releases it. Throws DataDirLockedError while a live
 * process holds it; a lock left by a process that died (crash, SIGKILL, power cut) is simply free.
 */
export async function acquireDataLock(dataDir: string): Promise<() => Promise<void>> {
  const server = await bind(await lockAddress(dataDir));
  if (!server) throw new DataDirLockedError(dataDir, await recordedPid(dataDir));
  const file = join(dataDir, LOCK_FILE);
  // Only to name the holder (a restore may lock a data dir that does not exist yet).
  // ENOTDIR: a file where the data dir should be, which the hub's start then says in a sentence.
  await writeFile(file, `${process.pid}\n`, { mode: 0o644 }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') throw err;
  });
  return async () => {
    await rm(file, { force: true });
    await new Promise<void>((r) => server.close(() => r()));
  };
}
