import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickLevel } from '../../../src/managers/insights/levels.js';
import { queryEntries, roundTo } from '../../../src/managers/insights/query.js';
import { RESOLUTIONS, type Resolution, resolveRange } from '../../../src/managers/insights/resolutions.js';
import type { InsightsStorage, LogRow, Point } from '../../../src/managers/insights/storage.js';
import { meta, openTemp, rng } from './helpers.js';

const H = 3_600_000;
const D = 24 * H;

// A Sunday of the spring change, and the autumn one, in Amsterdam; and an ordinary day.
const NOWS = [Date.parse('2026-03-29T12:00:07.300Z'), Date.parse('2026-10-25T20:01:00Z'), Date.parse('2026-06-15T10:17:23.456Z')];

let storage: InsightsStorage;
let cleanup: () => void;
const points = new Map<number, Point[]>();
let num: LogRow;
let bool: LogRow;

/** Points from 2.2 years back to the last `now`: sparse long ago, dense recently. */
function generate(log: number, boolean: boolean, seed: number): Point[] {
  const r = rng(seed);
  const end = Math.max(...NOWS);
  const out: Point[] = [];
  const value = (): number => (boolean ? (r() < 0.5 ? 0 : 1) : Math.round(r() * 5000) / 100 - 5);
  for (let t = end - 806 * D; t <= end; ) {
    out.push({ log, t, v: value() });
    // Denser within 4 days of any `now`, so short resolutions have many points per bucket.
    const near = NOWS.some((n) => t <= n && n - t < 4 * D);
    t += Math.floor((near ? 40_000 : 5 * H) * (0.2 + r()));
  }
  return out;
}

beforeAll(() => {
  ({ storage, cleanup } = openTemp());
  num = storage.insertLog(meta('n', 'number', 1));
  bool = storage.insertLog(meta('b', 'boolean'));
  for (const [log, isBool, seed] of [
    [num, false, 1],
    [bool, true, 2],
  ] as const) {
    const p = generate(log.row, isBool, seed);
    points.set(log.row, p);
    for (let i = 0; i < p.length; i += 10_000) storage.commit(p.slice(i, i + 10_000));
  }
  num = storage.getLog(num.row)!;
  bool = storage.getLog(bool.row)!;
});
afterAll(() => cleanup());

function brute(log: LogRow, res: Resolution, now: number, zone: string): { values: Array<number | boolean | null>; min: number | null; max: number | null } {
  const r = resolveRange(res, now, zone);
  // Everything stored counts, even points after `now` (other test times): the store holds them.
  const all = points.get(log.row) ?? [];
  const values: Array<number | boolean | null> = [];
  let min: number | null = null;
  let max: number | null = null;
  let state: number | null = all.filter((p) => p.t < r.start).at(-1)?.v ?? null;
  for (let i = 0; i < r.buckets; i++) {
    const from = r.start + i * r.step;
    const to = Math.min(from + r.step, r.end);
    const inside = all.filter((p) => p.t >= from && p.t < to);
    if (log.type === 'number') {
      if (inside.length === 0) values.push(null);
      else {
        values.push(roundTo(inside.reduce((s, p) => s + p.v, 0) / inside.length, log.decimals));
        for (const p of inside) {
          min = min === null ? p.v : Math.min(min, p.v);
          max = max === null ? p.v : Math.max(max, p.v);
        }
      }
    } else {
      if (inside.length > 0) {
        state = inside.at(-1)!.v;
        values.push(state === 1);
      } else values.push(from <= now && state !== null ? state === 1 : null);
    }
  }
  return { values, min, max };
}

describe.each(NOWS.map((n) => new Date(n).toISOString()))('getLogEntries at %s', (nowIso) => {
  const now = Date.parse(nowIso);
  const cases = RESOLUTIONS.flatMap((res) => [
    [res, 'Europe/Amsterdam'],
    [res, 'UTC'],
  ]) as Array<[Resolution, string]>;
  it.each(cases)('%s in %s equals a brute-force computation over the points', (res, zone) => {
    for (const log of [num, bool]) {
      const answer = queryEntries(storage, log, res, now, zone);
      const expected = brute(log, res, now, zone);
      const range = resolveRange(res, now, zone);
      expect(answer.values).toHaveLength(range.buckets);
      expect(answer.step).toBe(range.step);
      expect(answer.start).toBe(new Date(range.start).toISOString());
      expect(answer.end).toBe(new Date(range.end).toISOString());
      expect(answer.values.map((v) => v.t)).toEqual(Array.from({ length: range.buckets }, (_, i) => new Date(range.start + i * range.step).toISOString()));
      if (log.type === 'number') {
        answer.values.forEach((v, i) => {
          const e = expected.values[i];
          if (e === null || e === undefined) expect(v.v).toBeNull();
          else expect(Math.abs((v.v as number) - (e as number))).toBeLessThanOrEqual(0.1 + 1e-9);
        });
        expect(answer.min).toBe(expected.min === null ? null : roundTo(expected.min, 1));
        expect(answer.max).toBe(expected.max === null ? null : roundTo(expected.max, 1));
      } else {
        expect(answer.values.map((v) => v.v)).toEqual(expected.values);
      }
    }
  });
});

describe('getLogEntries answer', () => {
  it('has the shape the API documents', () => {
    const now = NOWS[2]!;
    const a = queryEntries(storage, num, 'last24Hours', now, 'UTC');
    expect(a).toMatchObject({ id: 'n', uri: 'homey:app:com.example.test', step: 300_000, lastValue: roundTo(num.lastValue!, 1) });
    expect(a.values).toHaveLength(288);
    expect(a.updatesIn).toBe(Math.ceil(now / 300_000) * 300_000 - now);
    expect(a.values.filter((v) => v.v !== null).length).toBeGreaterThan(250);
    const b = queryEntries(storage, bool, 'lastHour', now, 'UTC');
    expect(typeof b.lastValue).toBe('boolean');
    expect(b.min).toBeNull();
  });

  it('gives null buckets for a log without points', () => {
    const empty = storage.insertLog(meta('empty'));
    const a = queryEntries(storage, empty, 'last7Days', NOWS[2]!, 'UTC');
    expect(a.values.every((v) => v.v === null)).toBe(true);
    expect(a).toMatchObject({ lastValue: null, min: null, max: null });
  });
});

describe('query cost', () => {
  it('reads a key range of one rollup level, and raw points only for the last hour', () => {
    const now = NOWS[2]!;
    for (const res of RESOLUTIONS) {
      const range = resolveRange(res, now, 'Europe/Amsterdam');
      const level = pickLevel(range.start, range.step, now);
      const plan = storage.queryPlan(level);
      const table = level?.table ?? 'raw';
      // One key range of one table, read in key order: no scan, no temp B-tree.
      expect(plan).toBe(`SEARCH ${table} USING PRIMARY KEY (log=? AND ${level ? 'b' : 't'}>? AND ${level ? 'b' : 't'}<?)`);
      expect(level === null).toBe(res === 'lastHour');
    }
  });
});
