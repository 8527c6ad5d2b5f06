/**
 * Every SQL statement of the insights storage, prepared once per connection. Table names come
 * from the fixed LEVELS list, never from input.
 */
import type Database from 'better-sqlite3';
import { LEVELS } from './levels.js';
import type { LogRow, LogType } from './storage.js';

export interface RawLogRow {
  row: number;
  uri: string;
  id: string;
  title: string;
  type: LogType;
  units: string | null;
  decimals: number | null;
  title_true: string | null;
  title_false: string | null;
  last_value: number | null;
  last_updated: number | null;
  owner_uri: string;
}

export const toLog = (r: RawLogRow): LogRow => ({
  row: r.row,
  uri: r.uri,
  id: r.id,
  title: r.title,
  type: r.type,
  units: r.units,
  decimals: r.decimals,
  titleTrue: r.title_true,
  titleFalse: r.title_false,
  lastValue: r.last_value,
  lastUpdated: r.last_updated,
  ownerUri: r.owner_uri,
});

type Stmt<P extends unknown[] | object = unknown[], R = unknown> = Database.Statement<P, R>;
type Range3 = [number, number, number];

/** The statements of one connection (spelled out: declaration files cannot name the inferred type). */
export interface Statements {
  listLogs: Stmt<[], RawLogRow>;
  getLog: Stmt<[number], RawLogRow>;
  insertLog: Stmt;
  updateLog: Stmt;
  touchLog: Stmt;
  clearLast: Stmt;
  deleteLog: Stmt;
  insertRaw: Stmt;
  getRaw: Stmt<[number, number], { v: number }>;
  setRaw: Stmt;
  clearRaw: Stmt;
  pruneRaw: Stmt;
  upserts: Stmt[];
  clear: Stmt[];
  prune: Stmt[];
  rebuildFromRaw: Stmt;
  rebuild: Array<Stmt | null>;
  patch: Stmt[];
  levelRows: Array<Stmt<Range3, unknown[]>>;
  rawRows: Stmt<Range3, unknown[]>;
  rawBefore: Stmt<[number, number], { v: number }>;
  cutoffs: Stmt<[], { level: string; cutoff: number }>;
  setCutoff: Stmt;
  levelBefore: Array<Stmt<[number, number], { v: number }>>;
}

/** Prepares the statements of one connection. */
export function prepareStatements(db: Database.Database): Statements {
  const upserts = LEVELS.map((l) =>
    db.prepare(
      `INSERT INTO ${l.table} (log, b, n, s, mn, mx, lv, lt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (log, b) DO UPDATE SET n = n + excluded.n, s = s + excluded.s,
         mn = min(mn, excluded.mn), mx = max(mx, excluded.mx),
         lv = CASE WHEN excluded.lt >= lt THEN excluded.lv ELSE lv END, lt = max(lt, excluded.lt)`,
    ),
  );
  return {
    listLogs: db.prepare<[], RawLogRow>('SELECT * FROM logs ORDER BY row'),
    getLog: db.prepare<[number], RawLogRow>('SELECT * FROM logs WHERE row = ?'),
    insertLog: db.prepare(
      `INSERT INTO logs (uri, id, title, type, units, decimals, title_true, title_false, owner_uri)
       VALUES (@uri, @id, @title, @type, @units, @decimals, @titleTrue, @titleFalse, @ownerUri)`,
    ),
    updateLog: db.prepare(
      `UPDATE logs SET title = @title, type = @type, units = @units, decimals = @decimals,
         title_true = @titleTrue, title_false = @titleFalse WHERE row = @row`,
    ),
    touchLog: db.prepare(`UPDATE logs SET last_value = ?, last_updated = ? WHERE row = ? AND (last_updated IS NULL OR last_updated <= ?)`),
    clearLast: db.prepare('UPDATE logs SET last_value = NULL, last_updated = NULL WHERE row = ?'),
    deleteLog: db.prepare('DELETE FROM logs WHERE row = ?'),
    insertRaw: db.prepare('INSERT INTO raw (log, t, v) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
    getRaw: db.prepare<[number, number], { v: number }>('SELECT v FROM raw WHERE log = ? AND t = ?'),
    setRaw: db.prepare('UPDATE raw SET v = ? WHERE log = ? AND t = ?'),
    clearRaw: db.prepare('DELETE FROM raw WHERE log = ?'),
    pruneRaw: db.prepare('DELETE FROM raw WHERE log = ? AND t < ?'),
    upserts,
    clear: LEVELS.map((l) => db.prepare(`DELETE FROM ${l.table} WHERE log = ?`)),
    prune: LEVELS.map((l) => db.prepare(`DELETE FROM ${l.table} WHERE log = ? AND b < ?`)),
    rebuildFromRaw: db.prepare(
      `INSERT OR REPLACE INTO ${LEVELS[0]!.table} (log, b, n, s, mn, mx, lv, lt)
       SELECT @log, @b, count(*), sum(v), min(v), max(v),
         (SELECT v FROM raw WHERE log = @log AND t >= @from AND t < @to ORDER BY t DESC LIMIT 1), max(t)
       FROM raw WHERE log = @log AND t >= @from AND t < @to HAVING count(*) > 0`,
    ),
    rebuild: LEVELS.map((l, i) =>
      i === 0
        ? null
        : db.prepare(
            `INSERT OR REPLACE INTO ${l.table} (log, b, n, s, mn, mx, lv, lt)
             SELECT @log, @b, sum(n), sum(s), min(mn), max(mx),
               (SELECT lv FROM ${LEVELS[i - 1]!.table} WHERE log = @log AND b >= @from AND b < @to ORDER BY lt DESC LIMIT 1),
               max(lt)
             FROM ${LEVELS[i - 1]!.table} WHERE log = @log AND b >= @from AND b < @to HAVING count(*) > 0`,
          ),
    ),
    patch: LEVELS.map((l) =>
      db.prepare(
        `UPDATE ${l.table} SET s = s + @delta, mn = min(mn, @v), mx = max(mx, @v),
           lv = CASE WHEN lt = @t THEN @v ELSE lv END WHERE log = @log AND b = @b`,
      ),
    ),
    // Plain key-range reads; the bucketing happens in JS (no temp B-tree for a GROUP BY).
    levelRows: LEVELS.map((l) =>
      db.prepare<[number, number, number], unknown[]>(`SELECT b * ${l.width}, n, s, mn, mx, lv, lt FROM ${l.table} WHERE log = ? AND b >= ? AND b < ?`).raw(),
    ),
    rawRows: db.prepare<[number, number, number], unknown[]>('SELECT t, 1, v, v, v, v, t FROM raw WHERE log = ? AND t >= ? AND t < ?').raw(),
    rawBefore: db.prepare<[number, number], { v: number }>('SELECT v FROM raw WHERE log = ? AND t < ? ORDER BY t DESC LIMIT 1'),
    cutoffs: db.prepare<[], { level: string; cutoff: number }>('SELECT level, cutoff FROM pruned'),
    setCutoff: db.prepare('INSERT OR REPLACE INTO pruned (level, cutoff) VALUES (?, ?)'),
    levelBefore: LEVELS.map((l) =>
      db.prepare<[number, number], { v: number }>(`SELECT lv AS v FROM ${l.table} WHERE log = ? AND b < ? ORDER BY b DESC LIMIT 1`),
    ),
  };
}
