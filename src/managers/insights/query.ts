/**
 * getLogEntries as a function of (log, resolution, now, zone): picks the rollup level that fits
 * the range, reads at most one bucket row per query bucket, and shapes the answer.
 */
import { pickLevel } from './levels.js';
import { type Resolution, resolveRange } from './resolutions.js';
import type { InsightsStorage, LogRow } from './storage.js';

export interface EntriesAnswer {
  /** The log's id within its owner (its key is `<uri>:<id>`). */
  id: string;
  uri: string;
  start: string;
  end: string;
  step: number;
  updatesIn: number;
  values: Array<{ t: string; v: number | boolean | null }>;
  lastValue: number | boolean | null;
  min: number | null;
  max: number | null;
}

export const logKey = (log: Pick<LogRow, 'uri' | 'id'>): string => `${log.uri}:${log.id}`;

/** Rounds to the log's decimals; no rounding when the log has none. */
export function roundTo(v: number, decimals: number | null): number {
  if (decimals === null) return v;
  const f = 10 ** Math.max(0, Math.min(decimals, 12));
  return Math.round(v * f) / f;
}

/** A stored value as the API shows it: a boolean, or a number rounded to the log's decimals. */
export function typed(log: Pick<LogRow, 'type' | 'decimals'>, v: number | null): number | boolean | null {
  if (v === null) return null;
  return log.type === 'boolean' ? v !== 0 : roundTo(v, log.decimals);
}

/**
 * Numbers: each bucket is the mean of its points, rounded; min/max are those of the points.
 * Booleans: each bucket is the state at its end (its latest point, or the state carried over
 * from before), null before the first known state and for buckets that have not begun.
 */
export function queryEntries(storage: InsightsStorage, log: LogRow, resolution: Resolution, now: number, zone: string): EntriesAnswer {
  const range = resolveRange(resolution, now, zone);
  const { start, end, step, buckets } = range;
  const level = pickLevel(start, step, now);
  const rows = storage.buckets(log.row, level, start, end, step);
  const values: EntriesAnswer['values'] = [];
  let min: number | null = null;
  let max: number | null = null;
  let state = log.type === 'boolean' ? storage.valueBefore(log.row, start) : null;
  for (let i = 0; i < buckets; i++) {
    const t = start + i * step;
    const r = rows[i];
    let v: number | null = null;
    if (log.type === 'number') {
      if (r && r.n > 0) {
        v = roundTo(r.s / r.n, log.decimals);
        min = min === null ? r.mn : Math.min(min, r.mn);
        max = max === null ? r.mx : Math.max(max, r.mx);
      }
    } else if (r && r.n > 0) {
      state = r.lv;
      v = state;
    } else if (t <= now) {
      v = state;
    }
    values.push({ t: new Date(t).toISOString(), v: typed(log, v) });
  }
  return {
    id: log.id,
    uri: log.uri,
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    step,
    updatesIn: range.updatesIn,
    values,
    lastValue: typed(log, log.lastValue),
    min: min === null ? null : roundTo(min, log.decimals),
    max: max === null ? null : roundTo(max, log.decimals),
  };
}
