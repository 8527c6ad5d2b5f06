import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEVELS, RAW_KEEP_MS } from '../../../src/managers/insights/levels.js';
import { type InsightsStorage, PAGE_CACHE_KIB, type Point, type RollupRow } from '../../../src/managers/insights/storage.js';
import { bruteBuckets, finalPoints, meta, openTemp, rng } from './helpers.js';

const H = 3_600_000;
const D = 24 * H;
const NOW = Date.parse('2026-06-15T10:17:23.456Z');

let storage: InsightsStorage;
let cleanup: () => void;
beforeEach(() => {
  ({ storage, cleanup } = openTemp());
});
afterEach(() => cleanup());

type Row = RollupRow;

function levelRows(table: string, log: number): Map<number, Row> {
  const rows = storage.db.prepare<[number], Row>(`SELECT * FROM ${table} WHERE log = ?`).all(log);
  return new Map(rows.map((r) => [r.b, r]));
}

describe('insights storage', () => {
  it("bounds the database's page cache (SQLite keeps 2 MB by default)", () => {
    expect(storage.db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
    expect(PAGE_CACHE_KIB).toBeLessThanOrEqual(512);
  });

  it('creates, lists, updates and deletes logs', () => {
    const a = storage.insertLog(meta('a'));
    const b = storage.insertLog(meta('b', 'boolean'));
    expect(storage.listLogs().map((l) => l.id)).toEqual(['a', 'b']);
    expect(a).toMatchObject({ id: 'a', type: 'number', units: '°C', decimals: 2, lastValue: null, lastUpdated: null });
    expect(() => storage.insertLog(meta('a'))).toThrow(/UNIQUE/);
    expect(storage.updateLog(a.row, { ...meta('a'), title: 'Renamed' }).title).toBe('Renamed');
    storage.commit([{ log: b.row, t: NOW, v: 1 }]);
    storage.deleteLog(b.row);
    expect(storage.listLogs().map((l) => l.id)).toEqual(['a']);
    expect(storage.db.prepare('SELECT count(*) AS c FROM raw').get()).toEqual({ c: 0 });
    expect(storage.db.prepare('SELECT count(*) AS c FROM r1d').get()).toEqual({ c: 0 });
  });

  it('keeps every rollup level equal to a brute-force aggregate of the raw points', () => {
    const num = storage.insertLog(meta('n')).row;
    const bool = storage.insertLog(meta('b', 'boolean')).row;
    const r = rng(42);
    const writes: Point[] = [];
    // Three days of points at random times, in random batches, some out of order, and some
    // rewriting an existing (log, t) with a new value.
    for (let k = 0; k < 6000; k++) {
      const t = NOW - Math.floor(r() * 3 * D);
      writes.push({ log: num, t, v: Math.round(r() * 4000) / 100 - 10 });
      if (k % 3 === 0) writes.push({ log: bool, t, v: r() < 0.5 ? 0 : 1 });
      if (k % 50 === 0 && writes.length > 10) {
        const again = writes[Math.floor(r() * writes.length)]!;
        writes.push({ ...again, v: again.log === bool ? 1 - again.v : again.v + 7 });
      }
    }
    for (let i = 0; i < writes.length; ) {
      const n = 1 + Math.floor(r() * 400);
      storage.commit(writes.slice(i, i + n));
      i += n;
    }
    const points = finalPoints(writes);
    for (const log of [num, bool]) {
      const raw = storage.db.prepare<[number], Point>('SELECT log, t, v FROM raw WHERE log = ? ORDER BY t').all(log);
      expect(raw).toEqual(points.filter((p) => p.log === log));
      for (const level of LEVELS) {
        const expected = bruteBuckets(points, log, level.width);
        const actual = levelRows(level.table, log);
        expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
        for (const [b, e] of expected) {
          const a = actual.get(b)!;
          expect(a.n).toBe(e.n);
          expect(a.s).toBeCloseTo(e.s, 6);
          expect(a.mn).toBe(e.mn);
          expect(a.mx).toBe(e.mx);
          expect(a.lt).toBe(e.lt);
          expect(a.lv).toBe(e.lv);
        }
      }
    }
    const last = points.filter((p) => p.log === num).at(-1)!;
    expect(storage.getLog(num)).toMatchObject({ lastValue: last.v, lastUpdated: last.t });
  });

  it('reports replaced points with the value they replaced', () => {
    const log = storage.insertLog(meta('n')).row;
    expect(storage.commit([{ log, t: NOW, v: 1 }]).added).toHaveLength(1);
    const res = storage.commit([{ log, t: NOW, v: 5 }]);
    expect(res.added).toHaveLength(0);
    expect(res.replaced).toEqual([{ log, t: NOW, v: 5, old: 1 }]);
    expect(levelRows('r1d', log).get(Math.floor(NOW / D))).toMatchObject({ n: 1, s: 5, mn: 5, mx: 5, lv: 5 });
  });

  it('prunes every level to its horizon, bounding rows per log whatever the write rate', () => {
    const log = storage.insertLog(meta('n')).row;
    const points: Point[] = [];
    // 3.5 years hourly, the last 3 days every 10 s, and the last 10 minutes at the 10/s limit.
    for (let t = NOW - 1280 * D; t <= NOW; t += H) points.push({ log, t, v: t % 97 });
    for (let t = NOW - 3 * D + 1; t <= NOW; t += 10_000) points.push({ log, t, v: t % 89 });
    for (let t = NOW - 600_000 + 3; t <= NOW; t += 100) points.push({ log, t, v: t % 83 });
    for (let i = 0; i < points.length; i += 5000) storage.commit(points.slice(i, i + 5000));
    const removed = storage.prune(NOW);
    expect(removed).toBeGreaterThan(0);
    const span = (table: string, col: string): { lo: number; c: number } =>
      storage.db.prepare<[number], { lo: number; c: number }>(`SELECT min(${col}) AS lo, count(*) AS c FROM ${table} WHERE log = ?`).get(log)!;
    const raw = span('raw', 't');
    expect(raw.lo).toBeGreaterThanOrEqual(NOW - RAW_KEEP_MS);
    expect(raw.c).toBeLessThanOrEqual(RAW_KEEP_MS / 100 + 1);
    for (const level of LEVELS) {
      const s = span(level.table, 'b');
      expect(s.lo * level.width).toBeGreaterThan(NOW - level.keepMs - level.width);
      // At most one row per bucket of the horizon, whatever was written.
      expect(s.c).toBeLessThanOrEqual(level.keepMs / level.width + 1);
      expect(s.c).toBeGreaterThan(0);
    }
    // Pruning again removes nothing new.
    expect(storage.prune(NOW)).toBe(0);
  });

  it('gives the pages of a deleted log back to the disk over the next prunes', () => {
    const big = storage.insertLog(meta('big')).row;
    const points: Point[] = [];
    for (let i = 0; i < 100_000; i++) points.push({ log: big, t: NOW - 20 * H + i * 500, v: i % 1000 });
    storage.commit(points);
    const full = storage.pages().total;
    storage.deleteLog(big);
    expect(storage.pages().free).toBeGreaterThan(full / 2);
    for (let i = 0; i < 10 && storage.pages().free > 0; i++) storage.prune(NOW);
    expect(storage.pages().free).toBe(0);
    expect(storage.pages().total).toBeLessThan(full / 4);
  });

  it('stores a raw point in at most 40 bytes on disk', () => {
    // 20 logs each written once per 5 s, interleaved in time as live writers do.
    const logs = Array.from({ length: 20 }, (_, i) => storage.insertLog(meta(`l${i}`)).row);
    const r = rng(7);
    let count = 0;
    for (let k = 0; k < 200; k++) {
      const batch: Point[] = [];
      for (let j = 0; j < 10; j++) {
        const t = NOW - D + (k * 10 + j) * 5000;
        for (const log of logs) batch.push({ log, t: t + Math.floor(r() * 1000), v: Math.round(r() * 3000) / 100 });
      }
      storage.commit(batch);
      count += batch.length;
    }
    const bytes = storage.db.prepare<[], { s: number }>("SELECT sum(pgsize) AS s FROM dbstat WHERE name = 'raw'").get()!.s;
    expect(count).toBe(40_000);
    expect(bytes / count).toBeLessThanOrEqual(40);
  });

  it('copies a consistent snapshot with the online backup API', async () => {
    const log = storage.insertLog(meta('n')).row;
    storage.commit([{ log, t: NOW, v: 3 }]);
    const { dir } = openTemp();
    const dest = `${dir}/copy.db`;
    await storage.backup(dest);
    const { InsightsStorage } = await import('../../../src/managers/insights/storage.js');
    const copy = InsightsStorage.open(dest);
    expect(copy.listLogs()[0]).toMatchObject({ id: 'n', lastValue: 3 });
    expect(copy.db.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
  });

  it("moves a version 1 file's owners to Homey's form when it opens it (an older hub's, or a restored backup's)", async () => {
    storage.insertLog({ ...meta('a'), uri: 'hearth:app:com.example.old', ownerUri: 'hearth:app:com.example.old' });
    storage.insertLog({ ...meta('rss'), uri: 'hearth:manager:system', ownerUri: 'hearth:manager:system' });
    storage.insertLog(meta('b'));
    storage.db.pragma('user_version = 1');
    const { dir } = openTemp();
    const dest = `${dir}/old.db`;
    await storage.backup(dest);
    const { InsightsStorage } = await import('../../../src/managers/insights/storage.js');
    const opened = InsightsStorage.open(dest);
    expect(opened.listLogs().map((l) => [l.uri, l.id, l.ownerUri])).toEqual([
      ['homey:app:com.example.old', 'a', 'homey:app:com.example.old'],
      ['homey:manager:system', 'rss', 'homey:manager:system'],
      ['homey:app:com.example.test', 'b', 'homey:app:com.example.test'],
    ]);
    expect(opened.db.pragma('user_version', { simple: true })).toBe(2);
    opened.close();
  });
});
