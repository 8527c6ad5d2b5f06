/**
 * The clock of the hub's time cards: at the start of every minute, "at a time" (the wall time in
 * the hub's zone), "every so many minutes", and at the minute of sunrise and sunset at the hub's
 * location. A minute the hub did not see (it was stopped, or the machine slept) is not caught up:
 * "at 07:00" at 07:20 would be wrong.
 */
import type { WallClock } from '../../core/cron.js';
import { sunTimes } from '../../home/sun.js';

const MINUTE = 60_000;

export interface TimeTriggerDeps {
  readonly clock: WallClock;
  readonly now: () => number;
  readonly location: () => { latitude: number; longitude: number } | null;
  /** Fires one of the time triggers (`homey:manager:cron:<id>`) with its state. */
  readonly fire: (cardId: string, state: Record<string, unknown>) => void;
}

const pad = (n: number) => String(n).padStart(2, '0');

export class TimeTriggers {
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly d: TimeTriggerDeps) {}

  start(): void {
    this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    const now = this.d.now();
    const next = Math.floor(now / MINUTE) * MINUTE + MINUTE;
    this.timer = setTimeout(() => this.tick(next), next - now);
    this.timer.unref();
  }

  /** The minute starting at `minute` (ms) has begun. */
  tick(minute: number): void {
    this.schedule();
    // Late by a minute or more (the machine slept, the clock was set): that minute is gone.
    if (this.d.now() - minute >= MINUTE) return;
    const p = this.d.clock.parts(minute);
    this.d.fire('homey:manager:cron:time_exactly', { time: `${pad(p.hour)}:${pad(p.minute)}` });
    this.d.fire('homey:manager:cron:every_minutes', { minuteOfDay: p.hour * 60 + p.minute });
    const at = this.d.location();
    if (!at) return;
    const sun = sunTimes(p.year, p.month, p.day, at.latitude, at.longitude);
    const same = (t: number | null) => t !== null && Math.floor(t / MINUTE) * MINUTE === minute;
    if (same(sun.sunrise)) this.d.fire('homey:manager:cron:sunrise', {});
    if (same(sun.sunset)) this.d.fire('homey:manager:cron:sunset', {});
  }
}
