import { describe, expect, it } from 'vitest';
import { pickLevel } from '../../../src/managers/insights/levels.js';
import { isResolution, RESOLUTIONS, type Resolution, resolveRange } from '../../../src/managers/insights/resolutions.js';

const AMS = 'Europe/Amsterdam';
const H = 3_600_000;
const D = 24 * H;
const iso = (t: number): string => new Date(t).toISOString();

describe('resolutions', () => {
  it('lists the 18 resolutions and nothing else', () => {
    expect(RESOLUTIONS).toHaveLength(18);
    expect(isResolution('last24Hours')).toBe(true);
    expect(isResolution('toString')).toBe(false);
    expect(isResolution('lastDecade')).toBe(false);
  });

  const now = Date.parse('2026-06-15T10:17:23.456Z');
  it.each(RESOLUTIONS)('%s: at most ~300 buckets tiling [start, end) around now', (res) => {
    const r = resolveRange(res, now, AMS);
    expect(r.buckets).toBeGreaterThan(0);
    expect(r.buckets).toBeLessThanOrEqual(300);
    expect(r.buckets).toBe(Math.ceil((r.end - r.start) / r.step));
    expect(r.updatesIn).toBeGreaterThan(0);
    if (res.startsWith('last') && !['lastWeek', 'lastMonth', 'lastYear'].includes(res)) {
      // Rolling: the last bucket holds now and closes at end, on a grid aligned to the epoch.
      expect(r.end % r.step).toBe(0);
      expect(r.end - r.step).toBeLessThanOrEqual(now);
      expect(r.end).toBeGreaterThan(now);
      expect(r.updatesIn).toBe(r.end - now);
    }
  });

  const rolling: Array<[Resolution, number, number]> = [
    ['lastHour', H, 15_000],
    ['last6Hours', 6 * H, 120_000],
    ['last24Hours', D, 300_000],
    ['last3Days', 3 * D, 900_000],
    ['last7Days', 7 * D, H],
    ['last14Days', 14 * D, 2 * H],
    ['last31Days', 31 * D, 3 * H],
    ['last3Months', 92 * D, 8 * H],
    ['last6Months', 183 * D, D],
    ['last2Years', 732 * D, 3 * D],
  ];
  it.each(rolling)('%s spans %d ms in steps of %d ms', (res, span, step) => {
    const r = resolveRange(res, now, AMS);
    expect(r.step).toBe(step);
    expect(r.end - r.start).toBe(span);
  });

  it('today and yesterday follow local midnight over the spring change (23 h day)', () => {
    const t = Date.parse('2026-03-29T12:00:00Z');
    const today = resolveRange('today', t, AMS);
    expect(iso(today.start)).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(today.end)).toBe('2026-03-29T22:00:00.000Z');
    expect(today.buckets).toBe(23 * 12);
    expect(today.step).toBe(300_000);
    // 12:00:00 UTC is on the grid: the bucket 12:00-12:05 just started.
    expect(today.updatesIn).toBe(300_000);
    const yesterday = resolveRange('yesterday', Date.parse('2026-03-30T08:00:00Z'), AMS);
    expect(iso(yesterday.start)).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(yesterday.end)).toBe('2026-03-29T22:00:00.000Z');
    // A past day is final: the answer changes when today ends (local midnight, 22:00 UTC).
    expect(yesterday.updatesIn).toBe(Date.parse('2026-03-30T22:00:00Z') - Date.parse('2026-03-30T08:00:00Z'));
  });

  it('today follows local midnight over the autumn change (25 h day)', () => {
    const today = resolveRange('today', Date.parse('2026-10-25T20:01:00Z'), AMS);
    expect(iso(today.start)).toBe('2026-10-24T22:00:00.000Z');
    expect(iso(today.end)).toBe('2026-10-25T23:00:00.000Z');
    expect(today.buckets).toBe(300);
    expect(today.updatesIn).toBe(240_000);
  });

  it('weeks start on Monday at local midnight and may last 167 or 169 hours', () => {
    // Sunday 2026-03-29 is the last day of the week of Monday 2026-03-23.
    const w = resolveRange('thisWeek', Date.parse('2026-03-29T12:00:00Z'), AMS);
    expect(iso(w.start)).toBe('2026-03-22T23:00:00.000Z');
    expect(iso(w.end)).toBe('2026-03-29T22:00:00.000Z');
    expect(w.buckets).toBe(167);
    const last = resolveRange('lastWeek', Date.parse('2026-10-26T09:00:00Z'), AMS);
    expect(iso(last.start)).toBe('2026-10-18T22:00:00.000Z');
    expect(iso(last.end)).toBe('2026-10-25T23:00:00.000Z');
    expect(last.buckets).toBe(169);
  });

  it('months and years are calendar ones in the zone', () => {
    const t = Date.parse('2026-03-05T10:00:00Z');
    const m = resolveRange('thisMonth', t, AMS);
    expect(iso(m.start)).toBe('2026-02-28T23:00:00.000Z');
    expect(iso(m.end)).toBe('2026-03-31T22:00:00.000Z');
    expect(m.step).toBe(3 * H);
    expect(m.buckets).toBe(Math.ceil((31 * 24 - 1) / 3));
    const lm = resolveRange('lastMonth', t, AMS);
    expect(iso(lm.start)).toBe('2026-01-31T23:00:00.000Z');
    expect(iso(lm.end)).toBe('2026-02-28T23:00:00.000Z');
    const y = resolveRange('thisYear', t, AMS);
    expect(iso(y.start)).toBe('2025-12-31T23:00:00.000Z');
    expect(iso(y.end)).toBe('2026-12-31T23:00:00.000Z');
    expect(y.buckets).toBe(183);
    const ly = resolveRange('lastYear', Date.parse('2026-01-01T00:30:00Z'), AMS);
    // 00:30 UTC on Jan 1 is already 2026 in Amsterdam.
    expect(iso(ly.start)).toBe('2024-12-31T23:00:00.000Z');
    expect(iso(ly.end)).toBe('2025-12-31T23:00:00.000Z');
    const lyUtc = resolveRange('lastYear', Date.parse('2026-01-01T00:30:00Z'), 'UTC');
    expect(iso(lyUtc.start)).toBe('2025-01-01T00:00:00.000Z');
  });

  it('reads the coarsest rollup that tiles the buckets and still holds the range', () => {
    const level = (res: Resolution, zone = AMS): string => {
      const r = resolveRange(res, now, zone);
      return pickLevel(r.start, r.step, now)?.name ?? 'raw';
    };
    expect(level('lastHour')).toBe('raw');
    expect(level('last6Hours')).toBe('1m');
    expect(level('last24Hours')).toBe('5m');
    expect(level('last3Days')).toBe('5m');
    expect(level('today')).toBe('5m');
    expect(level('last7Days')).toBe('1h');
    expect(level('thisMonth')).toBe('1h');
    expect(level('last31Days')).toBe('1h');
    expect(level('last3Months')).toBe('1h');
    expect(level('last6Months')).toBe('1d');
    expect(level('last2Years')).toBe('1d');
    // Local midnight in Amsterdam is not a UTC day boundary: hours tile it, days do not.
    expect(level('thisYear')).toBe('1h');
    expect(level('thisYear', 'UTC')).toBe('1d');
    // Kolkata (+05:30): no hour grid fits and 5-minute rollups are gone: days, approximately.
    expect(level('lastYear', 'Asia/Kolkata')).toBe('1d');
  });
});
