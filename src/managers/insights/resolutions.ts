/**
 * The resolutions of getLogEntries as pure bucket arithmetic: which time range, which bucket
 * width, and when the answer changes. Rolling ranges end at the end of the bucket holding `now`
 * on a grid aligned to the UTC epoch; calendar ranges run from local midnight to local midnight
 * in the hub's zone (a DST day lasts 23 or 25 hours) with buckets counted from the start.
 */
import { localParts, zonedTimeToUtc } from '../../core/zone.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

const ROLLING = {
  lastHour: { duration: H, step: 15 * S },
  last6Hours: { duration: 6 * H, step: 2 * M },
  last24Hours: { duration: D, step: 5 * M },
  last3Days: { duration: 3 * D, step: 15 * M },
  last7Days: { duration: 7 * D, step: H },
  last14Days: { duration: 14 * D, step: 2 * H },
  last31Days: { duration: 31 * D, step: 3 * H },
  last3Months: { duration: 92 * D, step: 8 * H },
  last6Months: { duration: 183 * D, step: D },
  last2Years: { duration: 730 * D, step: 3 * D },
} as const;

type Period = 'day' | 'week' | 'month' | 'year';

const CALENDAR = {
  today: { period: 'day', back: 0, step: 5 * M },
  yesterday: { period: 'day', back: 1, step: 5 * M },
  thisWeek: { period: 'week', back: 0, step: H },
  lastWeek: { period: 'week', back: 1, step: H },
  thisMonth: { period: 'month', back: 0, step: 3 * H },
  lastMonth: { period: 'month', back: 1, step: 3 * H },
  thisYear: { period: 'year', back: 0, step: 2 * D },
  lastYear: { period: 'year', back: 1, step: 2 * D },
} as const satisfies Record<string, { period: Period; back: 0 | 1; step: number }>;

export type Resolution = keyof typeof ROLLING | keyof typeof CALENDAR;
export const RESOLUTIONS = [...Object.keys(ROLLING), ...Object.keys(CALENDAR)] as Resolution[];
export const DEFAULT_RESOLUTION: Resolution = 'last24Hours';

export const isResolution = (s: string): s is Resolution => Object.hasOwn(ROLLING, s) || Object.hasOwn(CALENDAR, s);

export interface Range {
  readonly resolution: Resolution;
  /** First bucket starts here (ms since epoch). */
  readonly start: number;
  /** Exclusive end; the last bucket may be cut short by it. */
  readonly end: number;
  /** Bucket width in ms. */
  readonly step: number;
  /** Number of buckets: ceil((end - start) / step), at most ~300. */
  readonly buckets: number;
  /** Ms until the answer changes: the current bucket closes, or the period moves on. */
  readonly updatesIn: number;
}

/** Start of the calendar period holding `t` in `zone`, shifted `offset` periods (−1 = previous). */
export function periodStart(zone: string, t: number, period: Period, offset: number): number {
  const p = localParts(zone, t);
  switch (period) {
    case 'day':
      return zonedTimeToUtc(zone, p.year, p.month, p.day + offset);
    case 'week':
      // ISO weeks: Monday is the first day.
      return zonedTimeToUtc(zone, p.year, p.month, p.day - (p.weekday - 1) + 7 * offset);
    case 'month':
      return zonedTimeToUtc(zone, p.year, p.month + offset, 1);
    case 'year':
      return zonedTimeToUtc(zone, p.year + offset, 1, 1);
  }
}

/**
 * @example resolveRange('today', Date.parse('2026-03-29T12:00:00Z'), 'Europe/Amsterdam')
 *   // start 2026-03-28T23:00Z, end 2026-03-29T22:00Z (23 h), step 300000, buckets 276
 */
export function resolveRange(resolution: Resolution, now: number, zone: string): Range {
  if (Object.hasOwn(ROLLING, resolution)) {
    const { duration, step } = ROLLING[resolution as keyof typeof ROLLING];
    const end = (Math.floor(now / step) + 1) * step;
    const buckets = Math.ceil(duration / step);
    return { resolution, start: end - buckets * step, end, step, buckets, updatesIn: end - now };
  }
  const { period, back, step } = CALENDAR[resolution as keyof typeof CALENDAR];
  const start = periodStart(zone, now, period, -back);
  const end = periodStart(zone, now, period, 1 - back);
  const buckets = Math.ceil((end - start) / step);
  let updatesIn: number;
  if (back === 0) {
    const closes = start + (Math.floor((now - start) / step) + 1) * step;
    updatesIn = Math.min(closes, end) - now;
  } else {
    // A past period is final; the answer changes when the current period ends.
    updatesIn = periodStart(zone, now, period, 1) - now;
  }
  return { resolution, start, end, step, buckets, updatesIn };
}
