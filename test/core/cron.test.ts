/**
 * Cron expressions and wall clocks (src/core/cron.ts), and the zone helpers beside them. The
 * local clock is checked against Intl's for a whole year of Amsterdam, DST days included, by
 * running this process in that zone for the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCron, localClock, nextRun, parseCron, zoneClock } from '../../src/core/cron.js';
import { clockFor, isZone, processZone } from '../../src/core/system-zone.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

describe('parseCron', () => {
  it('reads values, ranges, steps, lists and names; weekday 7 is Sunday', () => {
    const s = parseCron('*/15 9-17/4 1,15 jan-mar,dec sun,7');
    expect(s.seconds).toEqual([0]);
    expect(s.minutes).toEqual([0, 15, 30, 45]);
    expect(s.hours).toEqual([9, 13, 17]);
    expect([...s.days]).toEqual([1, 15]);
    expect([...s.months]).toEqual([1, 2, 3, 12]);
    expect([...s.weekdays]).toEqual([0]);
    expect(parseCron('*/2 * * * * *').seconds).toHaveLength(30);
    expect(parseCron('5/20 * * * *').minutes).toEqual([5, 25, 45]);
  });

  it('refuses what is not cron, saying why', () => {
    expect(() => parseCron('every night')).toThrow('it has 2 fields; cron has 5 (or 6 with seconds first)');
    expect(() => parseCron('61 * * * *')).toThrow("'61' is not a minute (0-59)");
    expect(() => parseCron('* * * foo *')).toThrow("'foo' is not a month (1-12)");
    expect(() => parseCron('* 5-2 * * *')).toThrow("'5-2' runs backwards");
    expect(() => parseCron('*/0 * * * *')).toThrow("'0' is not a step");
    expect(() => parseCron('1,,2 * * * *')).toThrow("'' is not a minute");
    expect(isCron('30 3 * * *')).toBe(true);
    expect(isCron('30 3 * *')).toBe(false);
  });
});

describe('nextRun', () => {
  const utc = zoneClock('UTC');

  it('finds the next run strictly after the instant', () => {
    const s = parseCron('30 3 * * *');
    expect(iso(nextRun(s, at('2026-11-21T12:00:00Z'), utc))).toBe('2026-11-22T03:30:00.000Z');
    expect(iso(nextRun(s, at('2026-11-22T03:30:00Z'), utc))).toBe('2026-11-23T03:30:00.000Z');
    expect(iso(nextRun(s, at('2026-11-22T03:29:59Z'), utc))).toBe('2026-11-22T03:30:00.000Z');
    expect(iso(nextRun(parseCron('*/2 * * * * *'), at('2026-11-22T03:29:59.500Z'), utc))).toBe('2026-11-22T03:30:00.000Z');
  });

  it('matches either day field when both are restricted, and finds Feb 29', () => {
    // The 13th, or any Friday: after Sunday 1 Nov 2026 comes Friday 6 Nov.
    expect(iso(nextRun(parseCron('0 0 13 * fri'), at('2026-11-01T00:00:00Z'), utc))).toBe('2026-11-06T00:00:00.000Z');
    expect(iso(nextRun(parseCron('0 0 13 * *'), at('2026-11-01T00:00:00Z'), utc))).toBe('2026-11-13T00:00:00.000Z');
    expect(iso(nextRun(parseCron('0 0 29 2 *'), at('2026-11-01T00:00:00Z'), utc))).toBe('2028-02-29T00:00:00.000Z');
    expect(nextRun(parseCron('0 0 31 2 *'), at('2026-11-01T00:00:00Z'), utc)).toBeNull();
  });

  describe('in a zone with summer time', () => {
    const before = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = 'Europe/Amsterdam';
    });
    afterAll(() => {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    });

    it("skips a wall time the spring gap removes, runs an autumn overlap's once", () => {
      const clock = localClock;
      // 02:30 does not occur on 29 March 2026 in Amsterdam.
      expect(iso(nextRun(parseCron('30 2 * * *'), at('2026-03-28T12:00:00Z'), clock))).toBe('2026-03-30T00:30:00.000Z');
      // 02:30 occurs twice on 25 October 2026: the first, then the next day's.
      const first = nextRun(parseCron('30 2 * * *'), at('2026-10-24T12:00:00Z'), clock)!;
      expect(iso(first)).toBe('2026-10-25T00:30:00.000Z');
      expect(iso(nextRun(parseCron('30 2 * * *'), first, clock))).toBe('2026-10-26T01:30:00.000Z');
    });

    it('the local clock agrees with Intl over a year of hourly and daily runs', () => {
      const amsterdam = zoneClock('Europe/Amsterdam');
      for (const expression of ['0 * * * *', '30 3 * * *', '15 2 * * sun', '0 0 1 * *']) {
        const s = parseCron(expression);
        let a: number | null = at('2026-01-01T00:00:00Z');
        let b: number | null = a;
        for (let i = 0; i < (expression === '0 * * * *' ? 24 * 365 : 60) && a !== null; i++) {
          a = nextRun(s, a, localClock);
          b = nextRun(s, b!, amsterdam);
          expect(iso(a), `${expression}, run ${i}`).toBe(iso(b));
        }
      }
    });

    it('the process zone follows TZ, and picks the local clock for it', () => {
      expect(processZone()).toBe('Europe/Amsterdam');
      expect(clockFor('Europe/Amsterdam')).toBe(localClock);
      expect(clockFor('Asia/Tokyo')).not.toBe(localClock);
    });
  });
});

describe('isZone', () => {
  it("knows the tz database's zones and refuses names that are not, or that leave it", () => {
    expect(isZone('Europe/Amsterdam')).toBe(true);
    expect(isZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isZone('UTC')).toBe(true);
    expect(isZone('Mars/Olympus_Mons')).toBe(false);
    expect(isZone('../../etc/passwd')).toBe(false);
    expect(isZone('Europe')).toBe(false); // a folder, not a zone
    expect(isZone('')).toBe(false);
  });
});
