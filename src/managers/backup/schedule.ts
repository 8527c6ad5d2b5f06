/**
 * When automatic backups run: --backup-schedule (cron, in the hub's time zone) with a random
 * delay, a catch-up run at start when the last success is older than a day (a schedule never
 * runs what it missed while the hub was off), and nothing at all until the system clock is
 * plausible (a Pi without an RTC boots in 1970 until NTP answers).
 *
 * The timer never sleeps more than a minute: each wake reads the clock again, so a clock set
 * forward runs the due backup once and a clock set back plans from the new time. (node-cron,
 * used before, stalled on large clock jumps and read every instant through Intl: src/core/cron.ts.)
 */
import type { Logger } from 'pino';
import { CronError, type CronSchedule, nextRun, parseCron, type WallClock } from '../../core/cron.js';
import { clockFor } from '../../core/system-zone.js';
import type { JobTrigger } from './service.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_RANDOM_DELAY_MS = 30 * 60 * 1000;
const CATCH_UP_DELAY_MS = 60 * 1000;
const CLOCK_POLL_MS = 30 * 1000;
/** The longest the timer sleeps before it reads the clock again. */
const WAKE_MS = 60 * 1000;
/** Earlier than this, the clock has not been set yet. */
export const PLAUSIBLE_YEAR = 2025;

export interface SchedulerOptions {
  readonly expression: string;
  readonly timeZone: string;
  readonly log: Logger;
  readonly now: () => Date;
  readonly enabled: () => boolean;
  readonly lastSuccess: () => Date | null;
  readonly fire: (trigger: JobTrigger) => void;
}

/** True when a backup is due at start: never made, or the last one is more than a day old. */
export function needsCatchUp(lastSuccess: Date | null, now: Date): boolean {
  return lastSuccess === null || Number.isNaN(lastSuccess.getTime()) || now.getTime() - lastSuccess.getTime() > DAY_MS;
}

/** The parsed schedule; throws a sentence naming the flag when the expression is not cron. */
export function validateSchedule(expression: string): CronSchedule {
  try {
    return parseCron(expression);
  } catch (err) {
    const why = err instanceof CronError ? ` (${err.message})` : '';
    throw new Error(`invalid --backup-schedule '${expression}'${why}: use a cron expression such as '30 3 * * *' (daily at 03:30)`);
  }
}

export class BackupScheduler {
  private schedule: CronSchedule | null = null;
  private readonly clock: WallClock;
  /** The next run as the schedule has it, and when it fires (after its random delay). */
  private planned: { at: number; fireAt: number } | null = null;
  private maxDelay = 0;
  private timer: NodeJS.Timeout | null = null;
  private clockTimer: NodeJS.Timeout | null = null;
  private catchUpTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: SchedulerOptions) {
    this.clock = clockFor(opts.timeZone);
  }

  start(): void {
    const schedule = validateSchedule(this.opts.expression);
    if (this.clockPlausible()) {
      this.begin(schedule);
      return;
    }
    this.opts.log.warn({ now: this.opts.now().toISOString() }, 'system clock not set yet; automatic backups wait for it');
    this.clockTimer = setInterval(() => {
      if (!this.clockPlausible()) return;
      if (this.clockTimer) clearInterval(this.clockTimer);
      this.clockTimer = null;
      this.begin(schedule);
    }, CLOCK_POLL_MS);
    this.clockTimer.unref();
  }

  private clockPlausible(): boolean {
    return this.opts.now().getUTCFullYear() >= PLAUSIBLE_YEAR;
  }

  private begin(schedule: CronSchedule): void {
    this.schedule = schedule;
    const now = this.opts.now().getTime();
    const first = nextRun(schedule, now, this.clock);
    const second = first === null ? null : nextRun(schedule, first, this.clock);
    // Delays are capped at half the time between two runs, so a short schedule (tests, or
    // someone backing up hourly) is not pushed past its own next run.
    const period = first !== null && second !== null ? second - first : DAY_MS;
    this.maxDelay = Math.min(MAX_RANDOM_DELAY_MS, Math.floor(period / 2));
    if (this.opts.enabled()) this.plan(now);
    this.planCatchUp(Math.min(CATCH_UP_DELAY_MS, Math.floor(period / 2)));
  }

  /** Plans the first run after `from` and sleeps towards it. */
  private plan(from: number): void {
    const at = this.schedule ? nextRun(this.schedule, from, this.clock) : null;
    this.planned = at === null ? null : { at, fireAt: at + Math.floor(Math.random() * this.maxDelay) };
    this.sleep();
  }

  private sleep(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.planned) return;
    const wait = Math.max(0, Math.min(this.planned.fireAt - this.opts.now().getTime(), WAKE_MS));
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }

  private wake(): void {
    this.timer = null;
    const planned = this.planned;
    if (!planned || !this.schedule) return;
    const now = this.opts.now().getTime();
    if (now >= planned.fireAt) {
      if (this.opts.enabled()) this.opts.fire('schedule');
      // From the later of now and the planned run: a run fires once, however the clock moved.
      this.plan(Math.max(now, planned.at));
      return;
    }
    // Set back: a run now comes sooner than the one planned from the old time.
    const sooner = nextRun(this.schedule, now, this.clock);
    if (sooner !== null && sooner < planned.at) {
      this.plan(now);
      return;
    }
    this.sleep();
  }

  /** A while after start, not at once: the hub answers first, and a quick restart does no work. */
  private planCatchUp(delay: number): void {
    if (this.catchUpTimer || !this.opts.enabled() || !needsCatchUp(this.opts.lastSuccess(), this.opts.now())) return;
    this.catchUpTimer = setTimeout(() => {
      this.catchUpTimer = null;
      // Re-checked: a manual backup may have happened meanwhile.
      if (this.opts.enabled() && needsCatchUp(this.opts.lastSuccess(), this.opts.now())) this.opts.fire('catch-up');
    }, delay);
    this.catchUpTimer.unref();
  }

  /** Follows the automaticBackupsEnabled option. */
  setEnabled(enabled: boolean): void {
    if (!this.schedule) return; // clock not plausible yet: begin() reads the option itself
    if (enabled) {
      if (!this.planned) this.plan(this.opts.now().getTime());
      this.planCatchUp(Math.min(CATCH_UP_DELAY_MS, this.maxDelay || CATCH_UP_DELAY_MS));
    } else {
      this.planned = null;
      this.sleep();
      if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
      this.catchUpTimer = null;
    }
  }

  /** Next planned run (before its random delay); null when disabled or not scheduled yet. */
  nextRun(): Date | null {
    return this.planned && this.opts.enabled() ? new Date(this.planned.at) : null;
  }

  stop(): void {
    for (const t of [this.timer, this.catchUpTimer]) if (t) clearTimeout(t);
    if (this.clockTimer) clearInterval(this.clockTimer);
    this.timer = null;
    this.clockTimer = null;
    this.catchUpTimer = null;
    this.planned = null;
    this.schedule = null;
  }
}
