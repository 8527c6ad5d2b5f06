import { describe, expect, it } from 'vitest';
import { localParts, zonedTimeToUtc, zoneOffsetMs } from '../../../src/core/zone.js';

const AMS = 'Europe/Amsterdam';
const H = 3_600_000;

describe('zone arithmetic', () => {
  it('knows the Amsterdam offset on both sides of the spring change (2026-03-29 01:00 UTC)', () => {
    expect(zoneOffsetMs(AMS, Date.parse('2026-03-29T00:59:59Z'))).toBe(H);
    expect(zoneOffsetMs(AMS, Date.parse('2026-03-29T01:00:00Z'))).toBe(2 * H);
  });

  it('knows the Amsterdam offset on both sides of the autumn change (2026-10-25 01:00 UTC)', () => {
    expect(zoneOffsetMs(AMS, Date.parse('2026-10-25T00:59:59Z'))).toBe(2 * H);
    expect(zoneOffsetMs(AMS, Date.parse('2026-10-25T01:00:00Z'))).toBe(H);
  });

  it('maps local midnights to instants', () => {
    expect(zonedTimeToUtc(AMS, 2026, 3, 29)).toBe(Date.parse('2026-03-28T23:00:00Z'));
    expect(zonedTimeToUtc(AMS, 2026, 3, 30)).toBe(Date.parse('2026-03-29T22:00:00Z'));
    expect(zonedTimeToUtc(AMS, 2026, 10, 25)).toBe(Date.parse('2026-10-24T22:00:00Z'));
    expect(zonedTimeToUtc(AMS, 2026, 10, 26)).toBe(Date.parse('2026-10-25T23:00:00Z'));
    expect(zonedTimeToUtc('UTC', 2026, 1, 1)).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(zonedTimeToUtc('Asia/Kolkata', 2026, 1, 1)).toBe(Date.parse('2025-12-31T18:30:00Z'));
  });

  it('lets day and month overflow like Date.UTC', () => {
    expect(zonedTimeToUtc(AMS, 2026, 3, 32)).toBe(zonedTimeToUtc(AMS, 2026, 4, 1));
    expect(zonedTimeToUtc(AMS, 2026, 13, 1)).toBe(zonedTimeToUtc(AMS, 2027, 1, 1));
    expect(zonedTimeToUtc(AMS, 2026, 1, 0)).toBe(zonedTimeToUtc(AMS, 2025, 12, 31));
  });

  it('takes the first of two equal wall times and skips the spring gap', () => {
    // 02:30 happens twice on 2026-10-25: first in CEST (00:30 UTC).
    expect(zonedTimeToUtc(AMS, 2026, 10, 25, 2, 30)).toBe(Date.parse('2026-10-25T00:30:00Z'));
    // 02:30 does not happen on 2026-03-29: moved forward by the hour to 03:30 CEST.
    expect(zonedTimeToUtc(AMS, 2026, 3, 29, 2, 30)).toBe(Date.parse('2026-03-29T01:30:00Z'));
  });

  it('gives a midnight that does not exist as the first instant of the day', () => {
    // Chile springs forward at 00:00 on 2026-09-06: the day starts at 01:00 -03.
    const t = zonedTimeToUtc('America/Santiago', 2026, 9, 6);
    expect(t).toBe(Date.parse('2026-09-06T04:00:00Z'));
    expect(localParts('America/Santiago', t)).toMatchObject({ year: 2026, month: 9, day: 6, hour: 1 });
  });

  it('reads local parts with the ISO weekday', () => {
    expect(localParts(AMS, Date.parse('2026-03-29T22:30:00Z'))).toEqual({
      year: 2026,
      month: 3,
      day: 30,
      hour: 0,
      minute: 30,
      second: 0,
      weekday: 1,
    });
  });
});
