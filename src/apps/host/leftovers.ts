/**
 * App processes left behind by a hub that died without stopping them. Two layers, both decided
 * by what an app cannot forge (issue 22, finding 6):
 *  - the kernel ends them with the hub: in namespaces bubblewrap's `--die-with-parent`, without
 *    them `setpriv --pdeathsig KILL` before node (sandbox.ts); no app code runs in between, so
 *    replacing `process.exit` or its title changes nothing;
 *  - the next hub on the data dir ends any the record of running apps names: the pid the hub
 *    spawned and that process's start time (field 22 of /proc/<pid>/stat, fixed by the kernel
 *    when the process was made), on the same boot. A pid reused since has another start time.
 * It used to match command lines, which an app can overwrite.
 */
import { readFileSync } from 'node:fs';
import { statFields } from './usage.js';

export interface ProcessIdentity {
  readonly pid: number;
  /** Clock ticks after boot when the kernel made the process. */
  readonly start: number;
}

/** The kernel's start time of `pid`, or null when it is gone or unreadable. */
export function startTimeOf(pid: number): number | null {
  try {
    const start = Number(statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'))[22 - 3]);
    return Number.isSafeInteger(start) ? start : null;
  } catch {
    return null;
  }
}

/** SIGKILLs each process that is still the one recorded (same pid, same start time); returns the pids it ended. */
export function killRecorded(processes: readonly ProcessIdentity[]): number[] {
  const ended: number[] = [];
  for (const { pid, start } of processes) {
    if (pid === process.pid || startTimeOf(pid) !== start) continue;
    try {
      process.kill(pid, 'SIGKILL');
      ended.push(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  return ended;
}
