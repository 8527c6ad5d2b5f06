/**
 * When automatic backups run: a node-cron job on --backup-schedule (in the hub's time zone) with
 * a random delay, a catch-up run at start when the last success is older than a day (node-cron
 * never runs missed jobs), and nothing at all until the system clock is plausible (a Pi without
 * an RTC boots in 1970 until NTP answers, and node-cron stalls on a big clock jump).
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { JobTrigger } from './service.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_RANDOM_DELAY_MS = 30 * 60 * 1000;
const CATCH_UP_DELAY_MS = 60 * 1000;
const CLOCK_POLL_MS = 30 * 1000;
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

/** Throws a sentence naming the flag when the expression is not a cron expression. */
export function validateSchedule(expression: string): void {
  if (!cron.validate(expression)) {
    throw new Error(`invalid --backup-schedule '${expression}': use a cron expression such as '30 3 * * *' (daily at 03:30)`);
  }
}

export class BackupScheduler {
  private task: ScheduledTask | null = null;
  private clockTimer: NodeJS.Timeout | null = null;
  private catchUpTimer: NodeJS.Timeout | null = null;
  private readonly cronLog;

  constructor(private readonly opts: SchedulerOptions) {
    this.cronLog = {
      info: (m: string) => opts.log.debug({ cron: m }, 'node-cron'),
      warn: (m: string) => opts.log.warn({ cron: m }, 'node-cron'),
      error: (m: string | Error) => opts.log.error({ cron: String(m) }, 'node-cron'),
      debug: (m: string | Error) => opts.log.debug({ cron: String(m) }, 'node-cron'),
    };
  }

  start(): void {
    validateSchedule(this.opts.expression);
    if (this.clockPlausible()) return this.begin();
    this.opts.log.warn({ now: this.opts.now().toISOString() }, 'system clock not set yet; automatic backups wait for it');
    this.clockTimer = setInterval(() => {
      if (!this.clockPlausible()) return;
      if (this.clockTimer) clearInterval(this.clockTimer);
      this.clockTimer = null;
      this.begin();
    }, CLOCK_POLL_MS);
    this.clockTimer.unref();
  }

  private clockPlausible(): boolean {
    return this.opts.now().getUTCFullYear() >= PLAUSIBLE_YEAR;
  }

  /**
   * Time between two runs of the schedule. Delays are capped at half of it, so a short schedule
   * (tests, or someone backing up hourly) is not pushed past its own next run.
   */
  private periodMs(): number {
    const probe = cron.createTask(this.opts.expression, () => undefined, { timezone: this.opts.timeZone, logger: this.cronLog });
    try {
      const [a, b] = probe.getNextRuns(2);
      return a && b ? b.getTime() - a.getTime() : DAY_MS;
    } finally {
      void probe.destroy();
    }
  }

  private begin(): void {
    const period = this.periodMs();
    this.task = cron.createTask(
      this.opts.expression,
      () => {
        if (this.opts.enabled()) this.opts.fire('schedule');
      },
      {
        name: 'hearth-backup',
        timezone: this.opts.timeZone,
        noOverlap: true,
        maxRandomDelay: Math.min(MAX_RANDOM_DELAY_MS, Math.floor(period / 2)),
        logger: this.cronLog,
      },
    );
    if (this.opts.enabled()) void this.task.start();
    this.planCatchUp(Math.min(CATCH_UP_DELAY_MS, Math.floor(period / 2)));
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
    if (!this.task) return; // clock not plausible yet: begin() reads the option itself
    if (enabled) {
      void this.task.start();
      this.planCatchUp(Math.min(CATCH_UP_DELAY_MS, Math.floor(this.periodMs() / 2)));
    } else {
      void this.task.stop();
      if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
      this.catchUpTimer = null;
    }
  }

  /** Next planned run (before its random delay); null when disabled or not scheduled yet. */
  nextRun(): Date | null {
    return this.task && this.opts.enabled() ? this.task.getNextRun() : null;
  }

  stop(): void {
    if (this.clockTimer) clearInterval(this.clockTimer);
    if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
    this.clockTimer = null;
    this.catchUpTimer = null;
    void this.task?.destroy();
    this.task = null;
  }
}
