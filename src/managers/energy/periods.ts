/**
 * The periods of Homey's energy reports in the hub's time zone: a day ('2026-11-28', by hour), an
 * ISO week ('2026-W48', by day), a month ('2026-11', by day) and a year ('2026', by month). Each
 * is its edges from local midnight to local midnight (a day has 23, 24 or 25 hours) and the key
 * of each part, as the report's `subReports` are keyed.
 */
import { invalid } from '../../core/errors.js';
import { localParts, zonedTimeToUtc } from '../../core/zone.js';

export type PeriodKind = 'day' | 'week' | 'month' | 'year';

export interface Period {
  readonly kind: PeriodKind;
  readonly key: string;
  readonly start: number;
  readonly end: number;
  /** Its parts in order: each part's key and start; a part ends where the next starts (the last at `end`). */
  readonly parts: ReadonlyArray<{ key: string; start: number }>;
}

const HOUR = 3_600_000;
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const dayKey = (y: number, m: number, d: number): string => `${y}-${pad(m)}-${pad(d)}`;
const FORMATS: Record<PeriodKind, { re: RegExp; example: string }> = {
  day: { re: /^(\d{4})-(\d{2})-(\d{2})$/, example: '2026-11-28' },
  week: { re: /^(\d{4})-W(\d{2})$/, example: '2026-W48' },
  month: { re: /^(\d{4})-(\d{2})$/, example: '2026-11' },
  year: { re: /^(\d{4})$/, example: '2026' },
};

function parse(kind: PeriodKind, key: string): number[] {
  const { re, example } = FORMATS[kind];
  const m = re.exec(key);
  const nums = m ? m.slice(1).map(Number) : [];
  const [y = 0, a = 1, b = 1] = nums;
  const ok = m !== null && y >= 2000 && y <= 2100 && (kind !== 'month' || (a >= 1 && a <= 12)) && (kind !== 'week' || (a >= 1 && a <= weeksIn(y)));
  if (ok && kind === 'day' && a >= 1 && a <= 12 && b >= 1 && b <= new Date(Date.UTC(y, a, 0)).getUTCDate()) return nums;
  if (ok && kind !== 'day') return nums;
  throw invalid(`'${key}' is not a ${kind} of 2000-2100; write it as ${example}`);
}

/** ISO weeks in year `y`: 53 when 1 January is a Thursday, or a Wednesday in a leap year. */
function weeksIn(y: number): number {
  const jan1 = new Date(Date.UTC(y, 0, 1)).getUTCDay();
  const leap = new Date(Date.UTC(y, 1, 29)).getUTCMonth() === 1;
  return jan1 === 4 || (leap && jan1 === 3) ? 53 : 52;
}

/** The Monday (as a UTC calendar date) of ISO week `w` of year `y`. */
function mondayOf(y: number, w: number): Date {
  const jan4 = new Date(Date.UTC(y, 0, 4));
  const monday1 = Date.UTC(y, 0, 4 - ((jan4.getUTCDay() + 6) % 7));
  return new Date(monday1 + (w - 1) * 7 * 86_400_000);
}

/** Local days from the calendar date (y, m, d), `count` of them. */
function days(zone: string, y: number, m: number, d: number, count: number): Array<{ key: string; start: number }> {
  const out: Array<{ key: string; start: number }> = [];
  for (let i = 0; i < count; i++) {
    const date = new Date(Date.UTC(y, m - 1, d + i));
    out.push({ key: dayKey(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()), start: zonedTimeToUtc(zone, y, m, d + i) });
  }
  return out;
}

/** The period `key` of `kind` in `zone`; a sentence (400) for a key that is none. */
export function periodOf(kind: PeriodKind, key: string, zone: string): Period {
  const [y = 0, a = 1, b = 1] = parse(kind, key);
  if (kind === 'day') {
    const start = zonedTimeToUtc(zone, y, a, b);
    const end = zonedTimeToUtc(zone, y, a, b + 1);
    const parts: Array<{ key: string; start: number }> = [];
    // Hours from local midnight: where the offset is whole hours, the insights hours exactly.
    for (let t = start; t < end; t += HOUR) parts.push({ key: new Date(t).toISOString(), start: t });
    return { kind, key, start, end, parts };
  }
  if (kind === 'week') {
    const monday = mondayOf(y, a);
    const [my, mm, md] = [monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate()];
    return { kind, key, start: zonedTimeToUtc(zone, my, mm, md), end: zonedTimeToUtc(zone, my, mm, md + 7), parts: days(zone, my, mm, md, 7) };
  }
  if (kind === 'month') {
    const count = new Date(Date.UTC(y, a, 0)).getUTCDate();
    return { kind, key, start: zonedTimeToUtc(zone, y, a, 1), end: zonedTimeToUtc(zone, y, a + 1, 1), parts: days(zone, y, a, 1, count) };
  }
  const parts = Array.from({ length: 12 }, (_, i) => ({ key: `${y}-${pad(i + 1)}`, start: zonedTimeToUtc(zone, y, i + 1, 1) }));
  return { kind, key, start: parts[0]!.start, end: zonedTimeToUtc(zone, y + 1, 1, 1), parts };
}

/** The key of the period of `kind` holding instant `t` in `zone` (today's date, this month, ...). */
export function periodKeyAt(kind: PeriodKind, t: number, zone: string): string {
  const p = localParts(zone, t);
  if (kind === 'day') return dayKey(p.year, p.month, p.day);
  if (kind === 'month') return `${p.year}-${pad(p.month)}`;
  if (kind === 'year') return String(p.year);
  // The ISO week's year is the year of its Thursday.
  const thursday = new Date(Date.UTC(p.year, p.month - 1, p.day + 4 - p.weekday));
  const y = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(y, 0, 1)) / (7 * 86_400_000)) + 1;
  return `${y}-W${pad(week)}`;
}
