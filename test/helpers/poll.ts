/**
 * Waiting in tests, in one place: for something the hub does asynchronously, by asking again
 * rather than by timing (`poll`, `waitUntil`); and, where time itself is what a test is about
 * (a code's lifetime runs out, a held app stays held), a pause that says why (`pause`).
 */

/** Calls `fn` every `every` ms until `ok` holds for its result; throws naming `what` after `tries`. */
export async function poll<T>(fn: () => Promise<T> | T, ok: (v: T) => boolean, what: string, tries = 300, every = 50): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    last = await fn();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, every));
  }
  throw new Error(`${what} never happened; last: ${JSON.stringify(last)}`);
}

/** Waits until `cond` is true (asked every `every` ms); throws naming `what` after `tries`. */
export async function waitUntil(cond: () => Promise<boolean> | boolean, what: string, tries = 300, every = 50): Promise<void> {
  await poll(cond, (v) => v, what, tries, every);
}

/**
 * Lets `ms` pass when the passing of time is what is tested (nothing can be asked instead):
 * `why` says what must have happened, or must not have, by then.
 */
export function pause(ms: number, why: string): Promise<void> {
  void why;
  return new Promise((r) => setTimeout(r, ms));
}
