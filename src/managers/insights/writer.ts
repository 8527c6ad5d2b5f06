/**
 * Batches points in memory and commits them in one transaction per tick (at least every 2 s,
 * and on stop), so a killed hub loses at most the last tick. A log is written at most once per
 * SLOT_MS: writes landing in the same slot replace each other (the last one wins), so a fast
 * writer never grows a queue. The slot still open is held back one tick, so a late write to it
 * replaces rather than adds.
 *
 * A tick's work is done in steps of SLICE points (or PRUNE_SLICE logs' pruning), each its own
 * transaction, with the hub's other work let in between: SQLite runs on the hub's thread, and a
 * big home's second of points in one transaction (~4 ms) or a whole pruning pass (~35 ms) held
 * every change that arrived meanwhile.
 */
import { SLOT_MS } from './levels.js';
import type { CommitResult, InsightsStorage, Point, PrunePass } from './storage.js';

/** Points per transaction of a tick: ~0.5 ms each on a Raspberry Pi-class machine. */
export const SLICE = 5;
/** Logs pruned per transaction: five range deletes each, ~12 µs a log. */
export const PRUNE_SLICE = 100;

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
  /** Told when a tick's work is all done (the database quiet until the next tick). */
  readonly onIdle?: () => void;
}

export class EntryWriter {
  /** log row -> slot -> point */
  private readonly pending = new Map<number, Map<number, Point>>();
  private count = 0;
  private timer: NodeJS.Timeout | null = null;
  /** The next step of a tick under way. */
  private step: NodeJS.Immediate | null = null;
  private pruning: PrunePass | null = null;
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
   * Commits the queued points whose slot has closed (all of them when `all`), at most `limit` of
   * them, in one transaction. Returns what was committed.
   */
  flush(all = false, limit = Number.POSITIVE_INFINITY): CommitResult | null {
    const openSlot = Math.floor(this.now() / SLOT_MS);
    const batch: Point[] = [];
    for (const [log, slots] of this.pending) {
      if (batch.length >= limit) break;
      for (const [slot, p] of slots) {
        if (batch.length >= limit) break;
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
    // The first tick prunes, in steps: a whole pass was ~35 ms of a big home's start.
    this.pruning = this.storage.startPrune(this.lastPrune);
    this.timer = setInterval(() => this.tick(), this.flushMs);
    this.timer.unref();
  }

  private tick(): void {
    // A tick still stepping (a slow disk) goes on as it is: it takes the newer points too.
    if (this.step) return;
    const now = this.now();
    if (now - this.lastPrune >= this.pruneMs) {
      this.lastPrune = now;
      try {
        this.pruning ??= this.storage.startPrune(now);
      } catch (err) {
        this.options.onError?.(err);
      }
    }
    this.next();
  }

  /** One step of a tick: a slice of points, else of pruning; the next one after the hub's other work. */
  private readonly next = (): void => {
    this.step = null;
    try {
      if (this.stepOnce()) {
        this.later();
        return;
      }
    } catch (err) {
      this.options.onError?.(err);
      return;
    }
    this.options.onIdle?.();
  };

  /** One slice of the tick's work; whether there may be more. */
  private stepOnce(): boolean {
    const r = this.flush(false, SLICE);
    // After a full slice there may be more (each point is either added or replaced); after any,
    // pruning waits for a step of its own.
    if (r) return r.added.length + r.replaced.length === SLICE || this.pruning !== null;
    if (!this.pruning) return false;
    if (this.pruning.next < this.pruning.logs.length) {
      this.storage.pruneSome(this.pruning, PRUNE_SLICE);
      return true;
    }
    this.pruning = null;
    this.storage.vacuumSome();
    return true;
  }

  private later(): void {
    if (this.timer) this.step = setImmediate(this.next);
  }

  /** Stops the timer and commits everything still queued. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.step) clearImmediate(this.step);
    this.step = null;
    this.pruning = null;
    this.flush(true);
  }
}
