/**
 * The storage levels of insights and how long each is kept: the retention table. Raw points
 * are rolled up on commit into fixed-width buckets aligned to the UTC epoch; each level is
 * pruned on its own horizon, so a log's storage is bounded whatever its write rate.
 * docs/insights.md explains the numbers.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A log is written at most once per slot: faster writes are coalesced, the last one wins. */
export const SLOT_MS = 100;
/** Raw points (one per slot at most) are kept this long. */
export const RAW_KEEP_MS = DAY;

export interface RollupLevel {
  readonly name: '1m' | '5m' | '1h' | '1d';
  /** SQLite table name; a fixed set, never from input. */
  readonly table: 'r1m' | 'r5m' | 'r1h' | 'r1d';
  /** Bucket width in ms; buckets start at multiples of it since the epoch (UTC). */
  readonly width: number;
  readonly keepMs: number;
}

/** Finest first. Every width divides the next one, so a coarse bucket is a sum of fine ones. */
export const LEVELS: readonly RollupLevel[] = [
  { name: '1m', table: 'r1m', width: MINUTE, keepMs: 2 * DAY },
  { name: '5m', table: 'r5m', width: 5 * MINUTE, keepMs: 8 * DAY },
  { name: '1h', table: 'r1h', width: HOUR, keepMs: 740 * DAY },
  { name: '1d', table: 'r1d', width: DAY, keepMs: 1100 * DAY },
];

/** The retention table as getState reports it. */
export function retentionTable(): Array<{ level: string; bucketMs: number | null; keepMs: number }> {
  return [{ level: 'raw', bucketMs: null, keepMs: RAW_KEEP_MS }, ...LEVELS.map((l) => ({ level: l.name, bucketMs: l.width, keepMs: l.keepMs }))];
}

/**
 * Which level a query over [start, ...) with buckets of `step` ms reads: the coarsest level
 * whose buckets tile the query's buckets exactly (width divides step, grid aligned) and that
 * still holds data back to `start`. When no aligned level reaches back far enough (a calendar
 * range in a zone with a half-hour offset), the coarsest level that does is used and each of
 * its buckets counts towards the query bucket holding its start. `null` means raw points.
 */
export function pickLevel(start: number, step: number, now: number): RollupLevel | null {
  const usable = LEVELS.filter((l) => l.width <= step && step % l.width === 0).reverse();
  const reaches = (l: RollupLevel): boolean => now - start <= l.keepMs;
  const aligned = usable.find((l) => start % l.width === 0 && reaches(l));
  if (aligned) return aligned;
  if (step < LEVELS[0]!.width && now - start <= RAW_KEEP_MS) return null;
  return usable.find(reaches) ?? usable[usable.length - 1] ?? null;
}
