/**
 * Cron expressions and their next runs on a wall clock. Five fields (minute hour day-of-month
 * month day-of-week), or six with seconds first; each field `*`, a value, a range `a-b`, a step
 * `*\/n`, `a-b/n` or `a/n`, or a list of those; months and weekdays also by English name
 * (`jan`, `mon`); weekday 0 and 7 are Sunday. When both day fields are restricted a day matches
 * either of them, as in every cron since Vixie's.
 *
 * Why not node-cron: it reads the wall clock of every instant it checks through
 * Intl.DateTimeFormat, and the first Intl formatter in a process maps some 5 MiB of ICU's locale
 * data into it for good (docs/performance.md). The hub's own clock (localClock) reads Date's
 * local fields, which use only ICU's zone rules; the process runs in the hub's zone (main.ts).
 */
import { localParts, zonedTimeToUtc } from './zone.js';

/** A wall clock: the fields at an instant, and the instant of a wall time (null in a DST gap). */
export interface WallClock {
  parts(ms: number): { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number };
  instant(year: number, month: number, day: number, hour: number, minute: number, second: number): number | null;
}

/** The process's own local time (TZ). `weekday` is 0 for Sunday, as in cron. */
export const localClock: WallClock = {
  parts(ms) {
    const d = new Date(ms);
    return {
      year: d.getFullYear(),
      month: d.getMonth() + 1,
      day: d.getDate(),
      hour: d.getHours(),
      minute: d.getMinutes(),
      second: d.getSeconds(),
      weekday: d.getDay(),
    };
  },
  instant(year, month, day, hour, minute, second) {
    const d = new Date(year, month - 1, day, hour, minute, second);
    // A wall time in a spring gap comes back moved: it does not occur that day.
    return d.getHours() === hour && d.getMinutes() === minute && d.getDate() === day ? d.getTime() : null;
  },
};

/** Any IANA zone, through Intl (for a zone other than the process's own; costs ICU's locale data). */
export function zoneClock(zone: string): WallClock {
  return {
    parts(ms) {
      const p = localParts(zone, ms);
      return { ...p, weekday: p.weekday % 7 };
    },
    instant(year, month, day, hour, minute, second) {
      const t = zonedTimeToUtc(zone, year, month, day, hour, minute) + second * 1000;
      const p = localParts(zone, t);
      return p.hour === hour && p.minute === minute && p.day === day ? t : null;
    },
  };
}

interface Field {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: readonly Field[] = [
  { name: 'second', min: 0, max: 59 },
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  { name: 'day of week', min: 0, max: 7, names: DAYS },
];

export interface CronSchedule {
  readonly seconds: readonly number[];
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly days: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  /** 0..6, Sunday 0. */
  readonly weekdays: ReadonlySet<number>;
  readonly anyDay: boolean;
  readonly anyWeekday: boolean;
}

export class CronError extends Error {}

function value(text: string, field: Field): number {
  const named = field.names?.indexOf(text.toLowerCase()) ?? -1;
  const n = named >= 0 ? named + (field.min === 1 ? 1 : 0) : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= field.min && n <= field.max)) throw new CronError(`'${text}' is not a ${field.name} (${field.min}-${field.max})`);
  return n;
}

function parseField(text: string, field: Field): number[] {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const [range, stepText, extra] = item.split('/');
    if (extra !== undefined || range === undefined || range === '') throw new CronError(`'${item}' is not a ${field.name}`);
    const step = stepText === undefined ? 1 : /^\d+$/.test(stepText) && Number(stepText) > 0 ? Number(stepText) : Number.NaN;
    if (Number.isNaN(step)) throw new CronError(`'${stepText}' is not a step`);
    let from: number;
    let to: number;
    if (range === '*') [from, to] = [field.min, field.max];
    else if (range.includes('-')) {
      const [a = '', b = ''] = range.split('-');
      [from, to] = [value(a, field), value(b, field)];
      if (from > to) throw new CronError(`'${range}' runs backwards`);
    } else {
      from = value(range, field);
      to = stepText === undefined ? from : field.max;
    }
    for (let n = from; n <= to; n += step) out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

/** Parses an expression; throws CronError with the reason. */
export function parseCron(expression: string): CronSchedule {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6) throw new CronError(`it has ${parts.length} fields; cron has 5 (or 6 with seconds first)`);
  const texts = parts.length === 5 ? ['0', ...parts] : parts;
  const [seconds, minutes, hours, days, months, weekdays] = FIELDS.map((f, i) => parseField(texts[i]!, f)) as [
    number[],
    number[],
    number[],
    number[],
    number[],
    number[],
  ];
  return {
    seconds,
    minutes,
    hours,
    days: new Set(days),
    months: new Set(months),
    weekdays: new Set(weekdays.map((d) => d % 7)),
    anyDay: texts[3]!.startsWith('*'),
    anyWeekday: texts[5]!.startsWith('*'),
  };
}

export function isCron(expression: string): boolean {
  try {
    parseCron(expression);
    return true;
  } catch {
    return false;
  }
}

function dayMatches(s: CronSchedule, day: number, weekday: number): boolean {
  if (s.anyDay && s.anyWeekday) return true;
  if (s.anyDay) return s.weekdays.has(weekday);
  if (s.anyWeekday) return s.days.has(day);
  return s.days.has(day) || s.weekdays.has(weekday);
}

/** Days looked at before giving up: Feb 29 on a Monday comes round within 28 years. */
const MAX_DAYS = 366 * 29;

/** The first run strictly after `afterMs` on `clock`, or null when the expression never runs. */
export function nextRun(s: CronSchedule, afterMs: number, clock: WallClock = localClock): number | null {
  const start = clock.parts(afterMs);
  for (let i = 0; i < MAX_DAYS; i++) {
    // The i-th calendar day from the start's date (UTC here is only date arithmetic).
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + i));
    const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    if (!s.months.has(month) || !dayMatches(s, day, date.getUTCDay())) continue;
    const first = i === 0;
    for (const hour of s.hours) {
      if (first && hour < start.hour) continue;
      for (const minute of s.minutes) {
        if (first && hour === start.hour && minute < start.minute) continue;
        for (const second of s.seconds) {
          const t = clock.instant(year, month, day, hour, minute, second);
          if (t !== null && t > afterMs) return t;
        }
      }
    }
  }
  return null;
}
