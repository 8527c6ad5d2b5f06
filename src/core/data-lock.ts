/**
 * One writer per data directory: a lock file holding the owner's pid. Two processes writing one
 * lowdb file corrupt it, so a second hub (or `hearth restore` while a hub runs) is refused.
 */
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCK_FILE = 'hearth.lock';

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(`data dir ${dataDir} is in use by another hearth process (pid ${pid}); stop it first`);
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

/** Returns the pid of a live process holding the lock, or null. */
export async function lockHolder(dataDir: string): Promise<number | null> {
  try {
    const pid = Number.parseInt(await readFile(join(dataDir, LOCK_FILE), 'utf8'), 10);
    return Number.isInteger(pid) && pid !== process.pid && isProcessAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the lock (replacing a stale one) and returns a function that releases it. */
export async function acquireDataLock(dataDir: string): Promise<() => Promise<void>> {
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o644);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return async () => {
        await rm(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = await lockHolder(dataDir);
      if (holder !== null) throw new DataDirLockedError(dataDir, holder);
      await rm(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`could not take the lock ${file}`);
}
