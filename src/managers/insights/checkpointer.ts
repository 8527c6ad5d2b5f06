/**
 * SQLite's WAL checkpoints of the insights database, run in a thread of their own. A checkpoint
 * copies the WAL's pages into the database file and syncs both (synchronous = NORMAL): on this
 * kind of machine 25-40 ms, nearly all of it the two fsyncs, every ~10 s in a 1,000-device home
 * (each point dirties ~5 pages of the B-trees, one per level, the log's row, its raw row), and on
 * the hub's thread every change arriving meanwhile waited for it. An SD card's fsync is slower
 * still. The thread holds its own connection and does nothing else; the hub's connection stops
 * checkpointing on its own (wal_autocheckpoint = 0) while the thread is there, and starts again
 * if the thread is gone. Cost: ~6.5 MiB of the hub's PSS (a V8 isolate).
 *
 * A PASSIVE checkpoint never waits for the writer, and completes (letting the next write start
 * the WAL from its beginning, so the file stays small) when no write lands while it runs: it is
 * asked for right after a tick's commits (soon), when the database is quiet for most of a second.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** How often a checkpoint is asked for: fewer, bigger ones write a page rewritten often once. */
export const CHECKPOINT_EVERY_MS = 10_000;
/**
 * A WAL past this size is checkpointed on the hub's thread (a pause, but a bound): the thread
 * stuck, or checkpoints that never complete because writes never stop.
 */
export const WAL_HARD_LIMIT_BYTES = 64 * 1024 * 1024;
/** SQLite's own default, back when the thread is gone. */
const AUTOCHECKPOINT_PAGES = 1000;

/** What the thread answers each request with (SQLite's wal_checkpoint row), or why it could not. */
export type CheckpointAnswer = { busy: number; log: number; checkpointed: number } | { error: string };

export interface CheckpointerOptions {
  readonly everyMs?: number;
  readonly now?: () => number;
  /** Told about each answer (tests, logs). */
  readonly onAnswer?: (answer: CheckpointAnswer) => void;
  /** Told when the thread is gone and the hub's connection checkpoints on its own again. */
  readonly onFallback?: (why: unknown) => void;
}

/**
 * The thread's whole program, run as a script: `require` and the file come from the hub (the
 * bundle has no file of its own to start a thread from). Kept free of outside names: it is sent
 * as its source.
 */
function threadMain(): void {
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const { driver, file } = workerData as { driver: string; file: string };
  const Driver = require(driver) as typeof Database;
  const db = new Driver(file, { fileMustExist: true });
  db.pragma('wal_autocheckpoint = 0');
  parentPort!.on('message', (m: unknown) => {
    if (m === 'stop') {
      db.close();
      parentPort!.close();
      return;
    }
    try {
      parentPort!.postMessage((db.pragma('wal_checkpoint(PASSIVE)') as unknown[])[0]);
    } catch (err) {
      parentPort!.postMessage({ error: String(err) });
    }
  });
}

export class Checkpointer {
  private worker: Worker | null;
  private asked = false;
  private last: number;
  private readonly now: () => number;
  private readonly everyMs: number;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly options: CheckpointerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.everyMs = options.everyMs ?? CHECKPOINT_EVERY_MS;
    this.last = this.now();
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(`(${threadMain.toString()})()`, {
      eval: true,
      workerData: { driver, file },
      env: {},
      stdout: false,
      stderr: false,
      // Its heap holds a few small objects; the limits keep V8 from reserving a hub's worth.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1, stackSizeMb: 1 },
    });
    worker.unref();
    worker.on('message', (a: CheckpointAnswer) => this.answered(a));
    worker.on('error', (err) => this.fallback(err));
    worker.on('exit', (code) => this.fallback(new Error(`the checkpoint thread exited (${code})`)));
    this.worker = worker;
    db.pragma('wal_autocheckpoint = 0');
  }

  /** Whether checkpoints run in the thread now. */
  get threaded(): boolean {
    return this.worker !== null;
  }

  /** After a tick's commits: asks the thread for a checkpoint when one is due (and none under way). */
  soon(): void {
    const now = this.now();
    if (!this.worker || this.asked || now - this.last < this.everyMs) return;
    this.last = now;
    if (walBytes(this.file) > WAL_HARD_LIMIT_BYTES) {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      return;
    }
    this.asked = true;
    this.worker.postMessage('checkpoint');
  }

  private answered(a: CheckpointAnswer): void {
    this.asked = false;
    // Not all of the WAL went (a write landed meanwhile): ask again at the next tick.
    if ('error' in a || a.checkpointed < a.log) this.last = 0;
    this.options.onAnswer?.(a);
  }

  private fallback(why: unknown): void {
    if (!this.worker) return;
    this.worker = null;
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    this.options.onFallback?.(why);
  }

  /** Ends the thread (its connection closed first); the hub's connection checkpoints on close. */
  stop(): void {
    const worker = this.worker;
    this.worker = null;
    worker?.postMessage('stop');
  }
}

function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}
