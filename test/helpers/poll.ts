/** Waiting for something the hub does asynchronously, by asking again rather than by timing. */

/** Calls `fn` every 50 ms until `ok` holds for its result; throws naming `what` after `tries`. */
export async function poll<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, tries = 300): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    last = await fn();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} never happened; last: ${JSON.stringify(last)}`);
}
