/**
 * The hub's time cards under a fake clock: the minute ticker fires "at a time" at the wall time
 * of the hub's zone, "every so many minutes", and sunset at the minute the sun sets at the hub's
 * location (and nothing for a place it is not set for); the time conditions read the same clock.
 * The sun's times themselves against the almanac.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { zoneClock } from '../../../src/core/cron.js';
import { sunTimes } from '../../../src/home/sun.js';
import { systemCards } from '../../../src/managers/flow/system-cards.js';
import { TimeTriggers } from '../../../src/managers/flow/time-triggers.js';
import type { LogicService } from '../../../src/managers/logic/service.js';

const AMSTERDAM = { latitude: 52.37, longitude: 4.9 };
const clock = zoneClock('Europe/Amsterdam');
const minuteOf = (iso: string) => new Date(iso).toISOString().slice(11, 16);

afterEach(() => {
  vi.useRealTimers();
});

describe('the sun', () => {
  it('rises and sets within two minutes of the almanac, and not at all in polar night or midnight sun', () => {
    const near = (ms: number | null, iso: string) => expect(Math.abs((ms ?? 0) - Date.parse(iso))).toBeLessThan(120_000);
    // Amsterdam, midsummer and midwinter (CEST/CET); Sydney in its winter.
    const summer = sunTimes(2026, 6, 21, AMSTERDAM.latitude, AMSTERDAM.longitude);
    near(summer.sunrise, '2026-06-21T03:18:00Z');
    near(summer.sunset, '2026-06-21T20:06:00Z');
    const winter = sunTimes(2026, 12, 21, AMSTERDAM.latitude, AMSTERDAM.longitude);
    near(winter.sunrise, '2026-12-21T07:48:00Z');
    near(winter.sunset, '2026-12-21T15:29:00Z');
    const sydney = sunTimes(2026, 6, 21, -33.87, 151.21);
    near(sydney.sunrise, '2026-06-20T21:00:00Z');
    near(sydney.sunset, '2026-06-21T06:54:00Z');
    expect(sunTimes(2026, 12, 21, 78.2, 15.6)).toEqual({ sunrise: null, sunset: null, alwaysUp: false });
    expect(sunTimes(2026, 6, 21, 78.2, 15.6)).toEqual({ sunrise: null, sunset: null, alwaysUp: true });
  });
});

describe('the time triggers', () => {
  it('fire at each minute in the hub zone, and sunset at its minute', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2026-06-21T20:01:30Z'));
    const fired: Array<[string, Record<string, unknown>, string]> = [];
    const time = new TimeTriggers({
      clock,
      now: Date.now,
      location: () => AMSTERDAM,
      fire: (id, state) => fired.push([id, state, minuteOf(new Date().toISOString())]),
    });
    time.start();
    vi.advanceTimersByTime(10 * 60_000);
    time.stop();
    const at = fired.filter(([id]) => id.endsWith('time_exactly')).map(([, s]) => s.time);
    expect(at).toEqual(['22:02', '22:03', '22:04', '22:05', '22:06', '22:07', '22:08', '22:09', '22:10', '22:11']);
    const sunset = fired.filter(([id]) => id.endsWith(':sunset'));
    expect(sunset).toHaveLength(1);
    // The minute it fired in is the minute the sun sets (UTC shown).
    const expected = sunTimes(2026, 6, 21, AMSTERDAM.latitude, AMSTERDAM.longitude).sunset!;
    expect(sunset[0]![2]).toBe(minuteOf(new Date(Math.floor(expected / 60_000) * 60_000).toISOString()));
    expect(fired.filter(([id]) => id.endsWith('sunrise'))).toEqual([]);
    expect(fired.filter(([id]) => id.endsWith('every_minutes')).map(([, s]) => s.minuteOfDay)).toContain(22 * 60 + 5);
  });

  it('fire no sun triggers where the location is not set, and skip the minutes the hub did not see', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2026-06-21T20:04:59Z'));
    const fired: string[] = [];
    const time = new TimeTriggers({
      clock,
      now: Date.now,
      location: () => null,
      fire: (id, state) => fired.push(`${id.split(':').pop()} ${state.time ?? ''}`),
    });
    time.start();
    vi.advanceTimersByTime(2_000);
    // The machine sleeps for an hour: its clock jumps; the timer fires once, late.
    vi.setSystemTime(new Date('2026-06-21T21:05:30Z'));
    vi.advanceTimersByTime(120_000);
    time.stop();
    // 22:06 came an hour late and is dropped; the ticker goes on from the time it is now.
    expect(fired.filter((f) => f.startsWith('time_exactly'))).toEqual(['time_exactly 22:05', 'time_exactly 23:07']);
    expect(fired.some((f) => f.startsWith('sunset'))).toBe(false);
  });
});

describe('the time conditions', () => {
  const at = (iso: string) =>
    systemCards({
      logic: {} as LogicService,
      say: async () => undefined,
      notify: async () => undefined,
      variableCauses: new Map(),
      flows: () => [],
      startFlow: async () => undefined,
      location: () => AMSTERDAM,
      clock,
      now: () => Date.parse(iso),
    });
  const run = (iso: string, id: string, args: Record<string, unknown> = {}) => at(iso).find((c) => c.cardId === id)!.system!.run!(args, 'run');

  it('read the wall time of the hub zone, across midnight too', () => {
    expect(run('2026-06-21T21:30:00Z', 'time_between', { from: '23:00', to: '23:45' })).toBe(true);
    expect(run('2026-06-21T21:50:00Z', 'time_between', { from: '23:00', to: '23:45' })).toBe(false);
    expect(run('2026-06-21T22:30:00Z', 'time_between', { from: '22:00', to: '06:00' })).toBe(true);
    expect(run('2026-06-21T10:00:00Z', 'time_between', { from: '22:00', to: '06:00' })).toBe(false);
    // 2026-06-21 is a Sunday; 23:30 UTC is already Monday in Amsterdam.
    expect(run('2026-06-21T12:00:00Z', 'weekday', { day: 'sunday' })).toBe(true);
    expect(run('2026-06-21T23:30:00Z', 'weekday', { day: 'monday' })).toBe(true);
    expect(run('2026-06-21T12:00:00Z', 'sun_up')).toBe(true);
    expect(run('2026-06-21T21:00:00Z', 'sun_up')).toBe(false);
  });
});
