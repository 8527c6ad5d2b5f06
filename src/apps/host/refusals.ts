/**
 * How many messages the protocol refuses an app may send before it is stopped. A correct app
 * sends none: a refused message is a bug or an attack, and each one still costs the hub a parse
 * and a check. An app that wrote millions of well-framed but malformed messages pinned the hub
 * at 99% CPU and was never stopped; now the budget runs out within a fraction of a second.
 */

/** Refused messages allowed per window before the app is stopped. */
export const REFUSALS_ALLOWED = 100;
export const REFUSAL_WINDOW_MS = 60_000;
/** Refusals described in the app's crash log one by one; the rest are only counted. */
const DESCRIBED = 3;

export class RefusalBudget {
  private count = 0;
  private windowStart = 0;
  private first: string | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Records one refused message. Returns a sentence to log it with while it is among the first
   * few of its window, and throws a BudgetSpent once the budget is gone.
   */
  refuse(describe: () => string): string | null {
    const now = this.now();
    if (now - this.windowStart >= REFUSAL_WINDOW_MS) {
      this.windowStart = now;
      this.count = 0;
      this.first = null;
    }
    this.count++;
    // Described lazily: describing a malformed message costs more than refusing it.
    const why = this.count <= DESCRIBED ? describe() : null;
    this.first ??= why ?? describe();
    if (this.count > REFUSALS_ALLOWED) {
      throw new BudgetSpent(
        `it sent more than ${REFUSALS_ALLOWED} messages the hub's protocol refuses within ${REFUSAL_WINDOW_MS / 1000} s (the first: ${this.first})`,
      );
    }
    return why;
  }
}

export class BudgetSpent extends Error {
  override name = 'BudgetSpent';
}
