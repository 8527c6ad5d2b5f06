/**
 * Event-loop lag from a timer: how late a 100 ms interval fires, kept until taken as a p99.
 * Not perf_hooks.monitorEventLoopDelay: its HDR histogram is 360 KiB of native memory and its
 * 20 ms timer wakes an idle hub 50 times a second (on a Pi, that is idle power). Ten wake-ups a
 * second see the stalls that matter to a hub's users (tens of milliseconds and more).
 */
export class LoopLag {
  private samples: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private last = 0;

  constructor(
    private readonly everyMs = 100,
    /** At most this many samples between takes (ten minutes' worth at 100 ms). */
    private readonly keep = 6_000,
  ) {}

  start(): void {
    this.last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      if (this.samples.length < this.keep) this.samples.push(Math.max(0, now - this.last - this.everyMs));
      this.last = now;
    }, this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.samples = [];
  }

  /** The 99th percentile of the lags (ms) since the last take, and starts over; 0 without samples. */
  takeP99(): number {
    const sorted = this.samples.sort((a, b) => a - b);
    this.samples = [];
    return sorted.length ? sorted[Math.ceil(sorted.length * 0.99) - 1]! : 0;
  }
}
