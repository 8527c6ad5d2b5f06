/**
 * cpu/mem of an app's child, sampled by the hub from /proc/<pid>/stat and /proc/<pid>/smaps_rollup.
 * Memory is the proportional set size: what the app really uses, its share of pages it shares
 * with other processes (node's own code, with every other app) counted by its share, and none
 * of the address space it only reserved (V8 and malloc reserve much more than they touch).
 * Read from outside rather than reported by the child: a child whose event loop is stuck
 * (the case that matters) could not report, and an app cannot lie about its own usage.
 * Where /proc does not exist (macOS dev boxes) usage stays zero.
 */
import { readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc/<pid>/stat times: 100 on every Linux build we target. */
const CLK_TCK = 100;

export interface Usage {
  /** Percent of one core since the previous sample (can exceed 100 with several threads). */
  cpu: number;
  /** Proportional set size in bytes (the resident set size where the kernel has no smaps_rollup). */
  mem: number;
}

/** Keeps the previous sample of one pid to turn cumulative cpu time into a percentage. */
/**
 * The fields of a /proc/<pid>/stat line after the command name (which may itself hold spaces
 * and parentheses): index 0 is field 3 (the state), so field N is at N - 3.
 */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

export class UsageSampler {
  private last: { ticks: number; at: number } | undefined;

  constructor(readonly pid: number) {}

  /** Returns null when the process is gone or /proc is unavailable. */
  async sample(): Promise<Usage | null> {
    let stat: string;
    let memory: string;
    try {
      [stat, memory] = await Promise.all([
        readFile(`/proc/${this.pid}/stat`, 'utf8'),
        readFile(`/proc/${this.pid}/smaps_rollup`, 'utf8').catch(() => readFile(`/proc/${this.pid}/status`, 'utf8')),
      ]);
    } catch {
      return null;
    }
    const fields = statFields(stat);
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14, 15)
    const kb = Number((/^Pss:\s+(\d+)\s+kB/m.exec(memory) ?? /^VmRSS:\s+(\d+)\s+kB/m.exec(memory))?.[1] ?? 0);
    const at = performance.now();
    let cpu = 0;
    if (this.last && at > this.last.at) {
      cpu = ((ticks - this.last.ticks) / CLK_TCK / ((at - this.last.at) / 1000)) * 100;
    }
    this.last = { ticks, at };
    return { cpu: Math.max(0, Math.round(cpu * 10) / 10), mem: kb * 1024 };
  }
}
