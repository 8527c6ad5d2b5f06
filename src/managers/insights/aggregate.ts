/**
 * The two aggregations of insights' points in JS: points folded into rollup rows on commit (a
 * batch's points per bucket, before one upsert each), and stored rows gathered into a query's
 * buckets (a plain key-range read, bucketed here: no temp B-tree for a GROUP BY).
 */
import type { BucketRow, Point, RollupRow } from './storage.js';

/** Folds point `p` into the rollup row of bucket `b` of its log, in `into` (keyed `log:b`). */
export function fold(into: Map<string, RollupRow>, p: Point, b: number): void {
  const key = `${p.log}:${b}`;
  const a = into.get(key);
  if (!a) {
    into.set(key, { log: p.log, b, n: 1, s: p.v, mn: p.v, mx: p.v, lv: p.v, lt: p.t });
    return;
  }
  a.n += 1;
  a.s += p.v;
  if (p.v < a.mn) a.mn = p.v;
  if (p.v > a.mx) a.mx = p.v;
  if (p.t >= a.lt) {
    a.lv = p.v;
    a.lt = p.t;
  }
}

/**
 * Stored rows `[t, n, s, mn, mx, lv, lt]` as the query buckets [start + i*step, ...) of [start,
 * end): index i holds their aggregate, or undefined when empty. A row counts towards the query
 * bucket holding its start.
 */
export function bucketsOf(
  rows: ReadonlyArray<readonly [number, number, number, number, number, number, number]>,
  start: number,
  end: number,
  step: number,
): Array<BucketRow | undefined> {
  const out: Array<BucketRow | undefined> = new Array(Math.ceil((end - start) / step));
  for (const row of rows) {
    const [t, n, sum, mn, mx, lv, lt] = row;
    const i = Math.floor((t - start) / step);
    const a = out[i];
    if (!a) {
      out[i] = { n, s: sum, mn, mx, lv, lt };
      continue;
    }
    a.n += n;
    a.s += sum;
    if (mn < a.mn) a.mn = mn;
    if (mx > a.mx) a.mx = mx;
    if (lt >= a.lt) {
      a.lv = lv;
      a.lt = lt;
    }
  }
  return out;
}
