/**
 * How much an app may push to the people and pages of the home: a token bucket per app, so a
 * burst passes and a flood does not. Before it, an app with no permission sent 35,416
 * notifications in 8 s, each to every signed-in browser, and the hub's answers slowed for all
 * (issue 22, finding 8). A refused push is dropped and the app's call fails with the sentence.
 */
import { HearthError } from '../../core/errors.js';

export interface Budget {
  /** Pushes at once. */
  readonly burst: number;
  /** Pushes a second, refilled continuously. */
  readonly perSecond: number;
  /** What is limited, for the sentence: "notifications", "realtime events". */
  readonly what: string;
  /** The rate in words, for the sentence: "10 a minute". */
  readonly rate: string;
}

/** Notifications are for people: a few at a time, ten a minute. */
export const NOTIFICATIONS: Budget = { burst: 10, perSecond: 1 / 6, what: 'notifications', rate: '10 a minute (10 at once)' };
/** Realtime events feed an app's widgets and settings page: enough for live values, not a flood. */
export const REALTIME: Budget = { burst: 100, perSecond: 50, what: 'realtime events', rate: '50 a second (100 at once)' };

export class PushBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly budget: Budget,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one push of app `id`, or throws a 429 sentence when its budget is spent. */
  take(id: string): void {
    const t = this.now();
    const b = this.buckets.get(id) ?? { tokens: this.budget.burst, at: t };
    b.tokens = Math.min(this.budget.burst, b.tokens + ((t - b.at) / 1000) * this.budget.perSecond);
    b.at = t;
    this.buckets.set(id, b);
    if (b.tokens < 1) {
      throw new HearthError('rate_limited', `an app may send ${this.budget.what} at most ${this.budget.rate}; this one was dropped`);
    }
    b.tokens -= 1;
  }

  /** Forgets an app (uninstalled): the map holds installed apps only. */
  forget(id: string): void {
    this.buckets.delete(id);
  }
}
