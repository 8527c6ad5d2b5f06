/**
 * How many apps start at once, hub-wide. An app's start (fork to onInit resolved) is mostly
 * CPU: Node's own boot, the SDK, the app's modules. Ten apps forked together on a two-core board
 * share the cores ten ways, and each one's start timeout runs while it waits for them: on a slow
 * board (or under emulation) every app then misses it, and all restart together to miss it again.
 * Through the gate, at most `slots` apps start at a time, each with the CPU it needs, and an
 * app's start timeout counts only from its own turn.
 */
export class StartGate {
  private busy = 0;
  private readonly waiting: Array<(release: () => void) => void> = [];

  constructor(readonly slots: number) {
    if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`an app start gate needs at least one slot, not ${slots}`);
  }

  /**
   * Resolves with the function that frees the slot once one is this caller's, or with null when
   * `signal` aborts first (the app was stopped while it waited: it takes no slot).
   */
  enter(signal: AbortSignal): Promise<(() => void) | null> {
    if (signal.aborted) return Promise.resolve(null);
    if (this.busy < this.slots) {
      this.busy++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const grant = (release: () => void): void => {
        signal.removeEventListener('abort', abort);
        resolve(release);
      };
      const abort = (): void => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(null);
      };
      signal.addEventListener('abort', abort, { once: true });
      this.waiting.push(grant);
    });
  }

  /** How many starts wait for a turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** A slot's release, once only: the slot passes to the first waiter, or is freed. */
  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next) next(this.releaser());
      else this.busy--;
    };
  }
}
