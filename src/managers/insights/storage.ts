/**
 * The insights database: logs, raw points and their rollups in one SQLite file (WAL). Every
 * change is one transaction, so a killed process leaves the file as of the last commit.
 * Synchronous by design (better-sqlite3): each call is short and bounded.
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { bucketsOf, fold } from './aggregate.js';
import { MIGRATE_FROM, SCHEMA_SQL, SCHEMA_VERSION } from './db-schema.js';
import { LEVELS, RAW_KEEP_MS, type RollupLevel } from './levels.js';
import { prepareStatements, type Statements, toLog } from './statements.js';

export type LogType = 'number' | 'boolean';

const WAL_LIMIT_BYTES = 8 * 1024 * 1024;
/**
 * SQLite's page cache, in KiB (its default is 2,000). A home's timer writing values to random
 * logs of 3,000 touches most of the file's pages, and each one stayed in the hub's memory: the
 * default cost the big home's hub 3.2 MiB more than this bound, with the same cost per commit
 * (a page not cached is read from the kernel's file cache, which no process is charged for).
 */
export const PAGE_CACHE_KIB = 512;
const VACUUM_PAGES_PER_PRUNE = 2048;

export interface LogMeta {
  readonly uri: string;
  readonly id: string;
  readonly title: string;
  readonly type: LogType;
  readonly units: string | null;
  readonly decimals: number | null;
  readonly titleTrue: string | null;
  readonly titleFalse: string | null;
  readonly ownerUri: string;
}

export interface LogRow extends LogMeta {
  /** Integer key of the log inside the database. */
  readonly row: number;
  readonly lastValue: number | null;
  /** ms since the epoch of the latest point. */
  readonly lastUpdated: number | null;
}

export interface Point {
  readonly log: number;
  /** ms since the epoch */
  readonly t: number;
  readonly v: number;
}

export interface CommitResult {
  /** Points stored as new. */
  readonly added: Point[];
  /** Points that replaced one at the same log and ms, with the value they replaced. */
  readonly replaced: Array<Point & { readonly old: number }>;
  /**
   * Each log's newest point of the commit: the log's last value and time became these where they
   * were not newer (the holder of the log's row moves it to these itself, with no read back).
   */
  readonly latest: Point[];
}

/** One query bucket: the aggregate of the points in it, and its latest point. */
export interface BucketRow {
  n: number;
  s: number;
  mn: number;
  mx: number;
  lv: number;
  lt: number;
}

/** One stored rollup row: a bucket's aggregate, keyed by log row and bucket number. */
export interface RollupRow extends BucketRow {
  log: number;
  b: number;
}

/** A pass of pruning under way (startPrune): the logs it walks, its cuts, and how far it is. */
export interface PrunePass {
  readonly logs: readonly number[];
  readonly rawCut: number;
  /** Per level, the first bucket index kept. */
  readonly cuts: readonly number[];
  next: number;
}

export class InsightsStorage {
  private readonly stmt: Statements;
  /** level name ('raw', '1m', ...) -> everything before this ms has been pruned from it. */
  private readonly cutoffs = new Map<string, number>();

  private constructor(
    readonly db: Database.Database,
    readonly file: string,
  ) {
    this.stmt = prepareStatements(db);
    for (const c of this.stmt.cutoffs.all()) this.cutoffs.set(c.level, c.cutoff);
  }

  /** Opens (or creates) the database file in WAL mode. */
  static open(file: string): InsightsStorage {
    const db = new Database(file);
    // Only a new, empty file can take this: freed pages can then be given back to the SD card
    // (see prune) after a log is deleted, instead of staying in the file at its peak size.
    if (Number(db.pragma('page_count', { simple: true })) === 0) db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL never corrupts; a power cut may drop the last commits, a killed
    // process loses nothing that was committed.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    // The WAL file keeps its largest size after a checkpoint unless told otherwise (a big
    // backfill would leave a big file behind).
    db.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > SCHEMA_VERSION) {
      db.close();
      throw new Error(`${file} has schema version ${version}, newer than this hub understands (${SCHEMA_VERSION}); upgrade hearth`);
    }
    db.exec(SCHEMA_SQL);
    // A file of an older hub (or restored from an older backup) is brought up to date at once.
    db.transaction(() => {
      for (let v = version; v > 0 && v < SCHEMA_VERSION; v++) db.exec(MIGRATE_FROM[v] ?? '');
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
    return new InsightsStorage(db, file);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  listLogs(): LogRow[] {
    return this.stmt.listLogs.all().map(toLog);
  }

  getLog(row: number): LogRow | undefined {
    const r = this.stmt.getLog.get(row);
    return r && toLog(r);
  }

  insertLog(meta: LogMeta): LogRow {
    const info = this.stmt.insertLog.run(meta);
    return this.getLog(Number(info.lastInsertRowid))!;
  }

  updateLog(row: number, meta: LogMeta): LogRow {
    this.stmt.updateLog.run({ ...meta, row });
    return this.getLog(row)!;
  }

  /** Removes a log with all its points and rollups, in one transaction. */
  deleteLog(row: number): void {
    this.db.transaction(() => {
      this.clearPoints(row);
      this.stmt.deleteLog.run(row);
    })();
  }

  /** Removes every point and rollup of a log, keeping the log itself. */
  clearEntries(row: number): LogRow | undefined {
    this.db.transaction(() => {
      this.clearPoints(row);
      this.stmt.clearLast.run(row);
    })();
    return this.getLog(row);
  }

  private clearPoints(row: number): void {
    this.stmt.clearRaw.run(row);
    for (const s of this.stmt.clear) s.run(row);
  }

  /**
   * Stores points and folds them into every rollup level, in one transaction. A point at the
   * same log and ms as a stored one replaces it; the buckets holding it are rebuilt from the
   * level below unless that level has been pruned there, so rollups stay exact.
   */
  commit(points: readonly Point[]): CommitResult {
    const added: Point[] = [];
    const replaced: Array<Point & { old: number }> = [];
    const latest = new Map<number, Point>();
    this.db.transaction(() => {
      const aggs = LEVELS.map(() => new Map<string, RollupRow>());
      for (const p of points) {
        const prev = latest.get(p.log);
        if (!prev || p.t >= prev.t) latest.set(p.log, p);
        if (this.stmt.insertRaw.run(p.log, p.t, p.v).changes === 0) {
          const old = this.stmt.getRaw.get(p.log, p.t)?.v ?? p.v;
          this.stmt.setRaw.run(p.v, p.log, p.t);
          replaced.push({ ...p, old });
          continue;
        }
        added.push(p);
        // Index loops: this runs for every point of a big home's commits, and an iterator's
        // entries were a fifth of the commit's garbage.
        for (let li = 0; li < LEVELS.length; li++) fold(aggs[li]!, p, Math.floor(p.t / LEVELS[li]!.width));
      }
      for (let li = 0; li < LEVELS.length; li++) {
        const up = this.stmt.upserts[li]!;
        for (const a of aggs[li]!.values()) up.run(a.log, a.b, a.n, a.s, a.mn, a.mx, a.lv, a.lt);
      }
      for (const p of replaced) this.rebuild(p);
      for (const p of latest.values()) this.stmt.touchLog.run(p.v, p.t, p.log, p.t);
    })();
    return { added, replaced, latest: [...latest.values()] };
  }

  private rebuild(p: Point & { old: number }): void {
    LEVELS.forEach((l, li) => {
      const b = Math.floor(p.t / l.width);
      const bucketStart = b * l.width;
      const below: RollupLevel | undefined = LEVELS[li - 1];
      if (bucketStart >= (this.cutoffs.get(below ? below.name : 'raw') ?? -Infinity)) {
        const from = below ? bucketStart / below.width : bucketStart;
        const to = below ? (bucketStart + l.width) / below.width : bucketStart + l.width;
        const stmt = li === 0 ? this.stmt.rebuildFromRaw : this.stmt.rebuild[li]!;
        stmt.run({ log: p.log, b, from, to });
      } else {
        // The level below is gone for this bucket: adjust in place (min/max may stay wider).
        this.stmt.patch[li]!.run({ log: p.log, b, t: p.t, v: p.v, delta: p.v - p.old });
      }
    });
  }

  /** Deletes what is older than each level's horizon, in one go; returns the rows removed. */
  prune(now: number): number {
    const pass = this.startPrune(now);
    const removed = this.pruneSome(pass, pass.logs.length);
    this.vacuumSome();
    return removed;
  }

  /**
   * Begins a pass of pruning at `now`, to be done a few logs at a time (pruneSome): each level's
   * cutoff is moved first, since a log not yet pruned only holds more than the cutoff says, and
   * a bucket is rebuilt from the level below only past that level's cutoff (rebuild).
   */
  startPrune(now: number): PrunePass {
    const pass: PrunePass = {
      logs: this.listLogs().map((l) => l.row),
      rawCut: now - RAW_KEEP_MS,
      cuts: LEVELS.map((l) => Math.floor((now - l.keepMs) / l.width)),
      next: 0,
    };
    this.db.transaction(() => {
      this.setCutoff('raw', pass.rawCut);
      for (const [li, l] of LEVELS.entries()) this.setCutoff(l.name, pass.cuts[li]! * l.width);
    })();
    return pass;
  }

  /**
   * Prunes the next `count` logs of a pass, in one transaction; returns the rows removed. A log
   * deleted meanwhile is simply found empty. One log is five range deletes, each a walk of the
   * primary key (a global `t < ?` would scan every table): a whole pass of a 3,000-log home is
   * ~35 ms, which every change arriving meanwhile waited for.
   */
  pruneSome(pass: PrunePass, count: number): number {
    let removed = 0;
    const logs = pass.logs.slice(pass.next, pass.next + count);
    this.db.transaction(() => {
      for (const log of logs) {
        removed += this.stmt.pruneRaw.run(log, pass.rawCut).changes;
        LEVELS.forEach((_, li) => {
          removed += this.stmt.prune[li]!.run(log, pass.cuts[li]!).changes;
        });
      }
    })();
    pass.next += logs.length;
    return removed;
  }

  /**
   * Gives back a bounded number of free pages, so a big delete shrinks the file over a few
   * minutes without one long pause.
   */
  vacuumSome(): void {
    this.db.pragma(`incremental_vacuum(${VACUUM_PAGES_PER_PRUNE})`);
  }

  /** Pages the file holds, and how many of them are free. */
  pages(): { total: number; free: number } {
    return {
      total: Number(this.db.pragma('page_count', { simple: true })),
      free: Number(this.db.pragma('freelist_count', { simple: true })),
    };
  }

  private setCutoff(level: string, cutoff: number): void {
    if (cutoff <= (this.cutoffs.get(level) ?? -Infinity)) return;
    this.cutoffs.set(level, cutoff);
    this.stmt.setCutoff.run(level, cutoff);
  }

  /**
   * The query buckets [start + i*step, start + (i+1)*step) of [start, end), aggregated from
   * `level` (raw points when null): index i holds its aggregate, or undefined when empty.
   * A level bucket counts towards the query bucket holding its start.
   */
  buckets(log: number, level: RollupLevel | null, start: number, end: number, step: number): Array<BucketRow | undefined> {
    const rows =
      level === null
        ? this.stmt.rawRows.all(log, start, end)
        : this.stmt.levelRows[LEVELS.indexOf(level)]!.all(log, Math.ceil(start / level.width), Math.ceil(end / level.width));
    return bucketsOf(rows as Array<[number, number, number, number, number, number, number]>, start, end, step);
  }

  /**
   * A cumulative log's readings hour by hour over [start, end) (`start` and `end` rounded up to
   * whole hours): each hour's start, its latest value and its lowest (for a meter, its first), in
   * time order, and the latest value of the hours before. What an energy report reads
   * (energy/reports.ts).
   */
  hourReadings(log: number, start: number, end: number): { before: number | null; hours: Array<[number, number, number]> } {
    const li = LEVELS.findIndex((l) => l.name === '1h');
    const width = LEVELS[li]!.width;
    const from = Math.ceil(start / width);
    const rows = this.stmt.levelRows[li]!.all(log, from, Math.ceil(end / width)) as Array<[number, number, number, number, number, number, number]>;
    rows.sort((a, b) => a[0] - b[0]);
    const before = this.stmt.levelBefore[li]!.get(log, from)?.v ?? null;
    return { before, hours: rows.map((r) => [r[0], r[5], r[3]]) };
  }

  /** How SQLite runs the bucket read of a level (EXPLAIN QUERY PLAN), for tests and diagnosis. */
  queryPlan(level: RollupLevel | null): string {
    const stmt = level === null ? this.stmt.rawRows : this.stmt.levelRows[LEVELS.indexOf(level)]!;
    const rows = this.db.prepare<[number, number, number], { detail: string }>(`EXPLAIN QUERY PLAN ${stmt.source}`).all(1, 0, 1);
    return rows.map((r) => r.detail).join('; ');
  }

  /** The latest value stored before `t`, looking from fine to coarse levels; null if none. */
  valueBefore(log: number, t: number): number | null {
    const raw = this.stmt.rawBefore.get(log, t);
    if (raw) return raw.v;
    for (let li = 0; li < LEVELS.length; li++) {
      const hit = this.stmt.levelBefore[li]!.get(log, Math.floor(t / LEVELS[li]!.width));
      if (hit) return hit.v;
    }
    return null;
  }

  /**
   * Raw points stored, and the time of the oldest point any level holds (ms) or null: the
   * first bucket of the coarsest level, sharpened by each finer level that still reaches into it.
   */
  stats(): { entries: number; oldest: number | null } {
    const entries = this.db.prepare<[], { c: number }>('SELECT count(*) AS c FROM raw').get()!.c;
    let oldest: number | null = null;
    let within = 0;
    for (const l of [...LEVELS].reverse()) {
      const b = this.db.prepare<[], { b: number | null }>(`SELECT min(b) AS b FROM ${l.table}`).get()?.b ?? null;
      if (b === null) continue;
      if (oldest === null || b * l.width < oldest + within) {
        oldest = b * l.width;
        within = l.width;
      }
    }
    const raw = this.db.prepare<[], { t: number | null }>('SELECT min(t) AS t FROM raw').get()?.t ?? null;
    if (raw !== null && (oldest === null || raw < oldest + within)) oldest = raw;
    return { entries, oldest };
  }

  /** Bytes the database takes on disk: main file plus write-ahead log. */
  sizeOnDisk(): number {
    const size = (f: string): number => {
      try {
        return statSync(f).size;
      } catch {
        return 0;
      }
    };
    return size(this.file) + size(`${this.file}-wal`);
  }

  /** Copies a consistent snapshot to `dest` while writers go on (SQLite online backup). */
  async backup(dest: string): Promise<void> {
    await this.db.backup(dest);
  }
}
