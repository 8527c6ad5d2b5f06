/**
 * Wall-clock arithmetic in an IANA time zone with nothing but Intl.DateTimeFormat: the zone's
 * offset at an instant, the local date at an instant, and the instant of a local wall time
 * (DST gaps and overlaps resolved the way people expect).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

export interface LocalParts {
  readonly year: number;
  /** 1..12 */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** ISO weekday: 1 = Monday .. 7 = Sunday. */
  readonly weekday: number;
}

const WEEKDAYS: Readonly<Record<string, number>> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** The wall clock in `zone` at instant `utcMs`. */
export function localParts(zone: string, utcMs: number): LocalParts {
  const out: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(utcMs))) {
    if (p.type === 'weekday') out.weekday = WEEKDAYS[p.value] ?? 0;
    else if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return {
    year: out.year ?? 1970,
    month: out.month ?? 1,
    day: out.day ?? 1,
    // Some ICU versions print midnight as 24 even with h23.
    hour: (out.hour ?? 0) % 24,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
    weekday: out.weekday ?? 1,
  };
}

/** Milliseconds to add to UTC to get the wall clock of `zone` at `utcMs` (+3600000 for CET). */
export function zoneOffsetMs(zone: string, utcMs: number): number {
  const p = localParts(zone, utcMs);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(utcMs / 1000) * 1000;
}

/**
 * The instant at which the wall clock of `zone` shows the given local time. Month and day may
 * overflow (day 32 is the 1st of the next month), as with Date.UTC. A wall time that occurs twice
 * (autumn overlap) gives the first occurrence; one that does not occur (spring gap) is moved
 * forward by the gap, e.g. 02:30 on 2026-03-29 in Amsterdam is 03:30 CEST (Temporal's
 * 'compatible'); a midnight that does not exist thus becomes the first instant of that day.
 *
 * @example zonedTimeToUtc('Europe/Amsterdam', 2026, 3, 29) // Date.parse('2026-03-28T23:00:00Z')
 */
export function zonedTimeToUtc(zone: string, year: number, month: number, day: number, hour = 0, minute = 0): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // At most one transition happens within a day of any wall time, so the offsets a day
  // before and after are the two candidates.
  const before = zoneOffsetMs(zone, wall - 86_400_000);
  const after = zoneOffsetMs(zone, wall + 86_400_000);
  const candidates = [wall - before, wall - after].sort((a, b) => a - b);
  for (const t of candidates) {
    if (t + zoneOffsetMs(zone, t) === wall) return t;
  }
  // In a gap: reading the wall time with the offset from before the gap lands after the jump.
  return wall - before;
}
