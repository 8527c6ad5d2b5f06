/**
 * The insights service: logs keyed by `<uri>:<id>`, entries through the coalescing writer,
 * getLogEntries through the query engine, and the events of every change. HTTP reaches it
 * through operations.ts, apps through the SDK router (sdk.ts), the hub through hub-logs.ts.
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { diff } from '../../core/diff.js';
import { conflict, invalid, notFound, unavailable } from '../../core/errors.js';
import type { HubBus } from '../bus.js';
import { Checkpointer } from './checkpointer.js';
import { retentionTable } from './levels.js';
import { allEntries, entry, type HeldRow, isoOf, type LogEntryBoolean, lastPointMoved, toLog } from './log-views.js';
import { type EntriesAnswer, logKey, queryEntries } from './query.js';
import { DEFAULT_RESOLUTION, isResolution, RESOLUTIONS } from './resolutions.js';
import { type CommitResult, InsightsStorage, type LogMeta, type LogRow, type LogType } from './storage.js';
import type { LogView } from './views.js';
import { EntryWriter } from './writer.js';

export const DB_FILE = 'insights.db';
const DAY = 86_400_000;
/** Entries may be dated this far ahead (clock skew between an app and the hub). */
const MAX_FUTURE_MS = 60_000;
/** Older entries would fall outside every level at once. */
const MAX_PAST_MS = 1100 * DAY;
export const LOG_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
/**
 * Logs one owner (an app, a manager) may have. Every log costs the hub memory and rollup work;
 * an app had created 20,000 in 3 s.
 */
export const MAX_LOGS_PER_OWNER = 100;

/** The Log resource of the API, as its contract declares it (views.ts). */
export type Log = LogView;
export type { LogEntryBoolean };

export interface CreateLogOptions {
  title: string | Record<string, string>;
  type?: LogType;
  units?: string;
  decimals?: number;
  titleTrue?: string;
  titleFalse?: string;
}

export interface InsightsDeps {
  readonly dataDir: string;
  readonly zone: string;
  readonly bus: HubBus;
  readonly log: Logger;
  readonly now?: () => number;
  readonly flushMs?: number;
}

/** A title given per language becomes one string: English, else the first one given. */
const titleOf = (t: string | Record<string, string>): string => (typeof t === 'string' ? t : (t.en ?? Object.values(t)[0] ?? ''));

export class InsightsService {
  private storage: InsightsStorage | undefined;
  private writer: EntryWriter | undefined;
  private checkpointer: Checkpointer | undefined;
  /** A log's row is held as read, its last point moved in place by each commit (`committed`). */
  private readonly logs = new Map<string, HeldRow>();
  private readonly byRow = new Map<number, string>();
  readonly now: () => number;

  constructor(private readonly deps: InsightsDeps) {
    this.now = deps.now ?? Date.now;
  }

  get file(): string {
    return join(this.deps.dataDir, DB_FILE);
  }

  start(): void {
    const storage = this.open();
    this.storage = storage;
    for (const row of storage.listLogs()) this.remember(row);
    this.checkpointer = this.checkpointerFor(storage);
    this.writer = new EntryWriter(storage, {
      now: this.now,
      flushMs: this.deps.flushMs ?? 1000,
      onCommit: (r) => this.committed(r),
      onError: (err) => this.deps.log.error({ err }, 'insights commit failed; entries stay queued'),
      onIdle: () => this.checkpointer?.soon(),
    });
    this.writer.start();
  }

  /**
   * The thread the WAL's checkpoints run in; none when a thread cannot be started here (SQLite
   * then checkpoints on the hub's thread, as it does by itself).
   */
  private checkpointerFor(storage: InsightsStorage): Checkpointer | undefined {
    try {
      return new Checkpointer(storage.db, this.file, {
        onFallback: (err) => this.deps.log.warn({ err }, "the insights checkpoint thread is gone; the hub's thread checkpoints again"),
      });
    } catch (err) {
      this.deps.log.warn({ err }, "no thread for the insights checkpoints; the hub's thread checkpoints");
      return undefined;
    }
  }

  /**
   * Opens the database. A file SQLite cannot read (an SD card that lost blocks) is moved aside
   * as `insights.db.corrupt-<time>` and a new one started, so the hub keeps logging.
   */
  private open(): InsightsStorage {
    try {
      // No quick_check here: it reads the whole file (~0.5 s per 50 MB even on a fast disk).
      return InsightsStorage.open(this.file);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code !== 'SQLITE_CORRUPT' && code !== 'SQLITE_NOTADB') throw err;
      const aside = `${this.file}.corrupt-${new Date(this.now()).toISOString().replace(/[:.]/g, '-')}`;
      for (const suffix of ['', '-wal', '-shm']) {
        if (existsSync(this.file + suffix)) renameSync(this.file + suffix, aside + suffix);
      }
      this.deps.log.error({ err, movedTo: aside }, 'the insights database was unreadable; moved it aside and started a new one');
      return InsightsStorage.open(this.file);
    }
  }

  stop(): void {
    try {
      this.writer?.stop();
    } finally {
      this.checkpointer?.stop();
      this.checkpointer = undefined;
      this.storage?.close();
      this.writer = undefined;
      this.storage = undefined;
    }
  }

  private db(): InsightsStorage {
    if (!this.storage) throw new Error('the insights manager is not started');
    return this.storage;
  }

  private remember(row: LogRow): void {
    const key = logKey(row);
    this.logs.set(key, row);
    this.byRow.set(row.row, key);
  }

  private row(key: string): LogRow {
    const row = this.logs.get(key);
    if (!row) throw notFound(`log '${key}' does not exist; GET /api/manager/insights/log lists the logs by '<uri>:<id>'`);
    return row;
  }

  getLogs(): Record<string, Log> {
    this.flush();
    return Object.fromEntries([...this.logs].map(([k, r]) => [k, toLog(r)]));
  }

  getLog(key: string): Log {
    this.flush();
    return toLog(this.row(key));
  }

  /** The logs one owner (`homey:app:<id>`) created. */
  getLogsOf(ownerUri: string): Log[] {
    return [...this.logs.values()].filter((r) => r.uri === ownerUri).map(toLog);
  }

  private countOf(ownerUri: string): number {
    let n = 0;
    for (const r of this.logs.values()) if (r.uri === ownerUri) n++;
    return n;
  }

  /**
   * Creates a log, or updates the title/units/decimals of an existing one with the same owner
   * and id (apps call this on every start). Changing the type of an existing log is refused.
   */
  createLog(ownerUri: string, id: string, options: CreateLogOptions): Log {
    if (!LOG_ID.test(id)) throw invalid(`log id '${id}' must be 1-128 letters, digits, _ . : or -`);
    const meta: LogMeta = {
      uri: ownerUri,
      id,
      title: titleOf(options.title),
      type: options.type ?? 'number',
      units: options.units ?? null,
      decimals: options.decimals ?? null,
      titleTrue: options.titleTrue ?? null,
      titleFalse: options.titleFalse ?? null,
      ownerUri,
    };
    const key = logKey(meta);
    const existing = this.logs.get(key);
    if (!existing) {
      if (this.countOf(ownerUri) >= MAX_LOGS_PER_OWNER) {
        throw invalid(`'${ownerUri}' has ${MAX_LOGS_PER_OWNER} insights logs, the most one owner may; delete one before creating '${id}'`);
      }
      const row = this.db().insertLog(meta);
      this.remember(row);
      const log = toLog(row);
      this.deps.bus.publish('insights', 'log.create', log);
      return log;
    }
    if (existing.type !== meta.type) {
      throw conflict(`log '${key}' holds ${existing.type} entries; delete it first to log ${meta.type} values`);
    }
    const before = toLog(existing);
    const row = this.db().updateLog(existing.row, meta);
    this.remember(row);
    const after = toLog(row);
    const info = diff(before, after);
    if (info.changedKeys.length > 0) this.deps.bus.publish('insights', 'log.update', after, info);
    return after;
  }

  /**
   * Queues one entry (committed within a second). A number log takes finite numbers, a boolean
   * log booleans; `date` defaults to now and may not be in the future.
   */
  createEntry(key: string, value: number | boolean, date?: Date | string | number): void {
    const row = this.row(key);
    let v: number;
    if (row.type === 'boolean') {
      if (typeof value !== 'boolean') throw invalid(`log '${key}' is a boolean log; send true or false, not ${JSON.stringify(value)}`);
      v = value ? 1 : 0;
    } else {
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw invalid(`log '${key}' is a number log; send a finite number, not ${JSON.stringify(value)}`);
      v = value;
    }
    const now = this.now();
    const t = date === undefined ? now : new Date(date).getTime();
    if (!Number.isFinite(t)) throw invalid(`date '${String(date)}' is not a date; use ISO-8601`);
    if (t > now + MAX_FUTURE_MS) throw invalid(`date ${new Date(t).toISOString()} is in the future`);
    if (t < now - MAX_PAST_MS) throw invalid(`date ${new Date(t).toISOString()} is older than the ${MAX_PAST_MS / DAY} days insights keeps`);
    try {
      this.writerOrThrow().add(row.row, Math.round(t), v);
    } catch (err) {
      // Only a full queue whose commit failed gets here (disk full, read-only file system).
      this.deps.log.error({ err }, 'insights cannot store entries');
      throw unavailable(`insights cannot store entries right now (${(err as Error).message}); try again later`);
    }
  }

  private writerOrThrow(): EntryWriter {
    if (!this.writer) throw new Error('the insights manager is not started');
    return this.writer;
  }

  /**
   * Commits what is queued (closed slots), so reads see everything written before them. A
   * failing commit does not fail the read: its points stay queued and the error is logged.
   */
  flush(): void {
    try {
      this.writer?.flush();
    } catch (err) {
      this.deps.log.error({ err }, 'insights commit failed; entries stay queued');
    }
  }

  entries(key: string, resolution: string | undefined): EntriesAnswer {
    const row = this.row(key);
    const res = resolution ?? DEFAULT_RESOLUTION;
    if (!isResolution(res)) throw invalid(`resolution '${res}' is not one of: ${RESOLUTIONS.join(', ')}`);
    this.flush();
    return queryEntries(this.db(), this.logs.get(key) ?? row, res, this.now(), this.deps.zone);
  }

  /** Whether log `key` exists, and its last committed value (no commit first: cheap enough for every device at start). */
  lastOf(key: string): { value: number | null } | null {
    const row = this.logs.get(key);
    return row ? { value: row.lastValue } : null;
  }

  /** A cumulative log's hourly readings over [start, end) (InsightsStorage.hourReadings); null when there is no such log. */
  hourReadings(key: string, start: number, end: number): { before: number | null; hours: Array<[number, number, number]> } | null {
    const row = this.logs.get(key);
    return row ? this.db().hourReadings(row.row, start, end) : null;
  }

  /** Removes every entry of a log, keeping the log; answers the log as it is now. */
  deleteEntries(key: string): Log {
    const row = this.row(key);
    this.writerOrThrow().drop(row.row);
    const before = toLog(row);
    const cleared = this.db().clearEntries(row.row) ?? row;
    this.remember(cleared);
    const after = toLog(cleared);
    const info = diff(before, after);
    if (info.changedKeys.length > 0) this.deps.bus.publish('insights', 'log.update', after, info);
    if (row.type === 'boolean') this.deps.bus.publish('insights', 'logentryboolean.delete', allEntries(row));
    return after;
  }

  deleteLog(key: string): void {
    const row = this.row(key);
    this.writerOrThrow().drop(row.row);
    this.db().deleteLog(row.row);
    this.logs.delete(key);
    this.byRow.delete(row.row);
    if (row.type === 'boolean') this.deps.bus.publish('insights', 'logentryboolean.delete', allEntries(row));
    this.deps.bus.publish('insights', 'log.delete', toLog(row));
  }

  state(): {
    logs: number;
    entries: number;
    dbSizeBytes: number;
    oldestEntry: string | null;
    retention: ReturnType<typeof retentionTable>;
  } {
    this.flush();
    const s = this.db().stats();
    return {
      logs: this.logs.size,
      entries: s.entries,
      dbSizeBytes: this.db().sizeOnDisk(),
      oldestEntry: isoOf(s.oldest),
      retention: retentionTable(),
    };
  }

  /** Copies a consistent snapshot of the database to `dest` while the hub runs (backups). */
  async backup(dest: string): Promise<void> {
    this.flush();
    await this.db().backup(dest);
  }

  /** After a commit: each touched log's update, and each boolean entry's event. */
  private committed(r: CommitResult): void {
    for (const p of r.latest) {
      const row = this.rowOf(p.log);
      // As the commit's UPDATE of the log's row: a point older than the log's last one leaves it.
      if (!row || (row.lastUpdated !== null && row.lastUpdated > p.t)) continue;
      const info = lastPointMoved(row, p.v, p.t);
      // In place: a big home's commits touch a different log each time, and a copy of its row
      // (with two views and their diff, to learn what changed) lived until that log's next
      // point, long enough to be promoted and fill the old generation between collections.
      row.lastValue = p.v;
      row.lastUpdated = p.t;
      if (info.changedKeys.length > 0) this.deps.bus.publish('insights', 'log.update', toLog(row), info);
    }
    for (const p of r.added) {
      const row = this.rowOf(p.log);
      if (row?.type === 'boolean') this.deps.bus.publish('insights', 'logentryboolean.create', entry(row, p.t, p.v));
    }
    for (const p of r.replaced) {
      const row = this.rowOf(p.log);
      if (row?.type !== 'boolean' || p.old === p.v) continue;
      const before = entry(row, p.t, p.old);
      const after = entry(row, p.t, p.v);
      this.deps.bus.publish('insights', 'logentryboolean.update', after, diff(before, after));
    }
  }

  private rowOf(rowId: number): HeldRow | undefined {
    const key = this.byRow.get(rowId);
    return key === undefined ? undefined : this.logs.get(key);
  }
}
