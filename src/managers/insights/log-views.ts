/**
 * How a log's row shows in the API and its events: the Log resource, the info of the update a
 * commit makes, and the LogEntryBoolean resource of boolean entries' events.
 */
import type { UpdateInfo } from '../../core/events.js';
import { nullRecord } from '../../core/null-prototype.js';
import { logKey, typed } from './query.js';
import type { LogRow } from './storage.js';
import type { LogView } from './views.js';

/** The LogEntryBoolean resource carried by logentryboolean.* events. */
export interface LogEntryBoolean {
  /** `<log key>@<ISO time>`, or `<log key>@*` when all entries of the log went. */
  id: string;
  log: string;
  uri: string;
  t: string | null;
  v: boolean | null;
}

/** A time in ms as the API shows it: ISO text, or null. */
export const isoOf = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A log's row as the Log resource shows it. */
export const toLog = (r: LogRow): LogView => ({
  id: logKey(r),
  ownerId: r.id,
  uri: r.uri,
  title: r.title,
  type: r.type,
  units: r.units,
  decimals: r.decimals,
  titleTrue: r.titleTrue,
  titleFalse: r.titleFalse,
  lastValue: typed(r, r.lastValue),
  lastUpdated: isoOf(r.lastUpdated),
  ownerUri: r.ownerUri,
});

/** A log's row as the service holds it: its last point is moved in place by each commit. */
export type HeldRow = LogRow & { lastValue: number | null; lastUpdated: number | null };

/**
 * The info of the log.update a commit makes when it moves `row`'s last point to `v` at `t`: what
 * diff() makes of the log's views before and after (only `lastValue` and `lastUpdated` can differ,
 * as the API shows them: a value rounded to the log's decimals, a time as ISO text).
 */
export function lastPointMoved(row: LogRow, v: number, t: number): UpdateInfo {
  const info: UpdateInfo = { newValues: nullRecord(), oldValues: nullRecord(), changedKeys: [] };
  const [was, now] = [typed(row, row.lastValue), typed(row, v)];
  if (!Object.is(was, now)) {
    info.changedKeys.push('lastValue');
    info.oldValues.lastValue = was;
    info.newValues.lastValue = now;
  }
  if (row.lastUpdated !== t) {
    info.changedKeys.push('lastUpdated');
    info.oldValues.lastUpdated = isoOf(row.lastUpdated);
    info.newValues.lastUpdated = isoOf(t);
  }
  return info;
}

export function entry(row: LogRow, t: number, v: number): LogEntryBoolean {
  const iso = new Date(t).toISOString();
  return { id: `${logKey(row)}@${iso}`, log: logKey(row), uri: row.uri, t: iso, v: v !== 0 };
}

export function allEntries(row: LogRow): LogEntryBoolean {
  return { id: `${logKey(row)}@*`, log: logKey(row), uri: row.uri, t: null, v: null };
}
