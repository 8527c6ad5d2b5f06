/**
 * Watches one running app from outside: its cpu and memory (sampled from /proc, where an app
 * cannot lie and a stuck app cannot stay silent), its liveness (a ping it must answer), and the
 * limits it must stay within: its memory ceiling (RSS), its CPU budget (a share of a core for
 * longer than a while), and its disk quota (the blocks its userdata occupies). A breach ends the
 * app with the cause written into its crash log; over its disk quota it stays stopped until
 * someone enables it (restarting would find the folder as full as before).
 */
import { stat } from 'node:fs/promises';
import { RpcError } from '../wire/wire.js';
import type { AppChild } from './child.js';
import { deletedButOpen, folderUsage, freeBytes } from './disk-usage.js';
import { type Usage, UsageSampler } from './usage.js';

export interface WatchLimits {
  /** RSS ceiling, MiB. */
  readonly memoryMb: number;
  /** Userdata quota, MiB. */
  readonly diskMb: number;
  /** Free space of the data filesystem, MiB, below which the app may not grow. */
  readonly diskFloorMb: number;
}

export interface WatchOptions {
  readonly usageIntervalMs: number;
  /** 0 turns liveness pings off. */
  readonly pingIntervalMs: number;
  readonly callTimeoutMs: number;
  /** A share of one core, in percent, the app may use for at most `cpuBudgetMs` at a stretch. */
  readonly cpuBudgetPercent: number;
  readonly cpuBudgetMs: number;
  /** How often the userdata is measured; 0 turns it off. */
  readonly diskIntervalMs: number;
}

export interface WatchHooks {
  usage(u: Usage): void;
  /** The app broke a limit (or stopped answering): end it, `cause` for its crash log; `hold`: do not restart. */
  breach(cause: string, hold: boolean): void;
}

const MiB = 1024 * 1024;

/** A sentence for a userdata folder over its quota, or null when it is within it (the check before a start). */
export async function diskProblem(userdata: string, quotaMb: number): Promise<string | null> {
  return (await measureDisk(userdata, quotaMb, undefined)).problem;
}

/**
 * What a running app holds on the data disk (its userdata, and files it deleted but keeps open,
 * which only its descriptors show) and whether that is over its quota.
 */
async function measureDisk(userdata: string, quotaMb: number, pid: number | undefined): Promise<{ bytes: number; problem: string | null }> {
  const usage = await folderUsage(userdata);
  if (usage.truncated) {
    return {
      bytes: usage.bytes,
      problem: `its userdata holds more than ${usage.bytes > 0 ? `${Math.round(usage.bytes / MiB)} MiB in ` : ''}100,000 files and folders; its quota is ${quotaMb} MiB`,
    };
  }
  const dev =
    pid === undefined
      ? null
      : await stat(userdata).then(
          (s) => s.dev,
          () => null,
        );
  const hidden = pid === undefined || dev === null ? 0 : await deletedButOpen(pid, dev);
  const bytes = usage.bytes + hidden;
  if (bytes <= quotaMb * MiB) return { bytes, problem: null };
  const of = hidden > 0 ? ` (${Math.round(hidden / MiB)} MiB of it in files it deleted and keeps open)` : '';
  return { bytes, problem: `its userdata holds ${Math.round(bytes / MiB)} MiB${of}, over its quota of ${quotaMb} MiB` };
}

export class AppWatch {
  private timers: ReturnType<typeof setInterval>[] = [];
  /** Since when the app has used more than its CPU budget's share, without a break. */
  private busySince: number | null = null;
  private ended = false;
  /** What the app held on the data disk at the last measurement. */
  private held: number | null = null;

  constructor(
    private readonly child: AppChild,
    private readonly userdata: string,
    private readonly limits: WatchLimits,
    private readonly opts: WatchOptions,
    private readonly hooks: WatchHooks,
  ) {}

  start(): void {
    const pid = this.child.pid;
    if (pid !== undefined) {
      const sampler = new UsageSampler(pid);
      this.every(this.opts.usageIntervalMs, () => {
        void sampler.sample().then((u) => {
          if (u && this.child.running) this.check(u);
        });
      });
      void sampler.sample(); // baseline for the first cpu figure
    }
    if (this.opts.pingIntervalMs > 0) {
      this.every(this.opts.pingIntervalMs, () => {
        this.child.call('ping', {}, this.opts.callTimeoutMs).catch((err: unknown) => {
          if (err instanceof RpcError && err.code === 'timeout' && this.child.running) {
            this.end(`it did not answer a ping within ${this.opts.callTimeoutMs} ms (its event loop is blocked)`, false);
          }
        });
      });
    }
    if (this.opts.diskIntervalMs > 0) {
      // The baseline the floor check compares against: what the app held when it was ready.
      void measureDisk(this.userdata, this.limits.diskMb, this.child.pid).then((r) => (this.held ??= r.bytes));
      this.every(this.opts.diskIntervalMs, () => void this.checkDisk());
    }
  }

  /**
   * Over its quota (files it deleted but keeps open count too), or still growing while the data
   * filesystem is below its free-space floor: the app is stopped and held. The floor keeps the
   * store, insights and backups writable whatever the apps together wrote.
   */
  private async checkDisk(): Promise<void> {
    const { bytes, problem } = await measureDisk(this.userdata, this.limits.diskMb, this.child.pid);
    const before = this.held;
    this.held = bytes;
    if (!this.child.running) return;
    if (problem) return this.end(problem, true);
    if (before === null || bytes <= before) return;
    const free = await freeBytes(this.userdata);
    if (free !== null && free < this.limits.diskFloorMb * MiB) {
      this.end(
        `the data disk has ${Math.round(free / MiB)} MiB free, below the floor of ${this.limits.diskFloorMb} MiB the hub keeps for its own data, and the app went on writing (its userdata grew to ${Math.round(bytes / MiB)} MiB)`,
        true,
      );
    }
  }

  private check(u: Usage): void {
    this.hooks.usage(u);
    if (u.mem > this.limits.memoryMb * MiB) {
      this.end(`it used ${Math.round(u.mem / MiB)} MiB of memory (its proportional set size), over its ceiling of ${this.limits.memoryMb} MiB`, false);
      return;
    }
    if (u.cpu < this.opts.cpuBudgetPercent) {
      this.busySince = null;
      return;
    }
    const now = Date.now();
    this.busySince ??= now - this.opts.usageIntervalMs;
    if (now - this.busySince >= this.opts.cpuBudgetMs) {
      this.end(
        `it used more than ${this.opts.cpuBudgetPercent}% of a core for ${Math.round((now - this.busySince) / 1000)} s (its budget is ${Math.round(this.opts.cpuBudgetMs / 1000)} s)`,
        false,
      );
    }
  }

  private end(cause: string, hold: boolean): void {
    if (this.ended) return;
    this.ended = true;
    this.stop();
    this.hooks.breach(cause, hold);
  }

  private every(ms: number, fn: () => void): void {
    const t = setInterval(fn, ms);
    t.unref();
    this.timers.push(t);
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }
}
