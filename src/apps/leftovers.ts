/**
 * App processes left behind by a hub that died without stopping them (SIGKILL, power-managed
 * restarts outside systemd). An app whose event loop is busy cannot run its own orphan check,
 * so the next hub on the same data dir ends them. The data-dir lock means no other live hub
 * owns these, so a process allowed to write `<data-dir>/apps/<id>/userdata` is a leftover.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Pids of app processes of this data dir that are not children of this hub. Reads /proc
 * synchronously: a procfs read never waits for a disk, and the async reads queued one by one
 * behind the thread pool took 10-35 ms of every start (docs/performance.md).
 */
export async function findLeftoverApps(dataDir: string): Promise<number[]> {
  const marker = `--allow-fs-write=${join(dataDir, 'apps')}/`;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return []; // no procfs (macOS): nothing to find this way
  }
  const found: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!args.some((a) => a.startsWith(marker) && a.endsWith('/userdata'))) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field 4 (after the parenthesised command name) is the parent pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) found.push(pid);
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return found;
}

/** SIGKILLs leftovers; returns the pids it ended. */
export async function killLeftoverApps(dataDir: string): Promise<number[]> {
  const pids = await findLeftoverApps(dataDir);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  return pids;
}
