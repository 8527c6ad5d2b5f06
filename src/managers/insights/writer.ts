/**
 * Batches points in memory and commits them in one transaction per tick (at least every 2 s,
 * and on stop), so a killed hub loses at most the last tick. A log is written at most once per
 * SLOT_MS: writes landing in the same slot replace each other (the last one wins), so a fast
 * writer never grows a queue. The slot still open is held back one tick, so a late write to it
 * replaces rather than adds.
 */
import { SLOT_MS } from './levels.js';
import type { CommitResult, InsightsStorage, Point } from './storage.js';

export interface WriterOptions {
  /** Commit interval in ms; at most 2000 to keep the loss bound. Default 1000. */
  readonly flushMs?: number;
  /** Pending points beyond which a commit happens at once (backfills). Default 20000. */
  readonly maxPending?: number;
  /** Prune interval in ms. Default 60000. */
  readonly pruneMs?: number;
  readonly now?: () => number;
  /** Told about every commit, e.g. to publish events. */
  readonly onCommit?: (result: CommitResult) => void;
  readonly onError?: (err: unknown) => void;
}

export class EntryWriter {
  /** log row -> slot -> point */
  private readonly pending = new Map<number, Map<number, Point>>();
  private count = 0;
  private timer: NodeJS.Timeout | null = null;
  private lastPrune = 0;
  private readonly flushMs: number;
  private readonly maxPending: number;
  private readonly pruneMs: number;
  private readonly now: () => number;

  constructor(
    private readonly storage: InsightsStorage,
    private readonly options: WriterOptions = {},
  ) {
    this.flushMs = Math.min(options.flushMs ?? 1000, 2000);
    this.maxPending = options.maxPending ?? 20_000;
    this.pruneMs = options.pruneMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Points waiting for the next commit. */
  get pendingCount(): number {
    return this.count;
  }

  /**
   * Queues one point; a point in the same slot of the same log replaces the queued one. When
   * the queue is full it commits first; if that commit fails, the error is thrown and the point
   * is not queued, so the queue stays bounded even while the disk refuses writes.
   */
  add(log: number, t: number, v: number): void {
    const slot = Math.floor(t / SLOT_MS);
    if (this.count >= this.maxPending && !this.pending.get(log)?.has(slot)) this.flush();
    let slots = this.pending.get(log);
    if (!slots) this.pending.set(log, (slots = new Map()));
    if (!slots.has(slot)) this.count += 1;
    slots.set(slot, { log, t, v });
  }

  /** Forgets the queued points of a log (it is being deleted or cleared). */
  drop(log: number): void {
    this.count -= this.pending.get(log)?.size ?? 0;
    this.pending.delete(log);
  }

  /**
   * Commits the queued points whose slot has closed (all of them when `all`), in one
   * transaction. Returns what was committed.
   */
  flush(all = false): CommitResult | null {
    const openSlot = Math.floor(this.now() / SLOT_MS);
    const batch: Point[] = [];
    for (const [log, slots] of this.pending) {
      for (const [slot, p] of slots) {
        if (!all && slot >= openSlot) continue;
        batch.push(p);
        slots.delete(slot);
      }
      if (slots.size === 0) this.pending.delete(log);
    }
    this.count -= batch.length;
    if (batch.length === 0) return null;
    let result: CommitResult;
    try {
      result = this.storage.commit(batch);
    } catch (err) {
      // Nothing of the batch was stored (one transaction): queue it again for the next tick,
      // unless a newer write took its slot meanwhile.
      for (const p of batch) {
        let slots = this.pending.get(p.log);
        if (!slots) this.pending.set(p.log, (slots = new Map()));
        const slot = Math.floor(p.t / SLOT_MS);
        if (slots.has(slot)) continue;
        slots.set(slot, p);
        this.count += 1;
      }
      throw err;
    }
    this.options.onCommit?.(result);
    return result;
  }

  /** Starts the commit (and prune) timer. */
  start(): void {
    if (this.timer) return;
    this.lastPrune = this.now();
    this.storage.prune(this.lastPrune);
    this.timer = setInterval(() => this.tick(), this.flushMs);
    this.timer.unref();
  }

  private tick(): void {
    try {
      this.flush();
      const now = this.now();
      if (now - this.lastPrune >= this.pruneMs) {
        this.lastPrune = now;
        this.storage.prune(now);
      }
    } catch (err) {
      this.options.onError?.(err);
    }
  }

  /** Stops the timer and commits everything still queued. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush(true);
  }
}
