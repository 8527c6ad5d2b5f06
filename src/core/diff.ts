/**
 * The one diff behind every `info` object of update events: which top-level keys changed,
 * with only their old and new values.
 */
import { isDeepStrictEqual } from 'node:util';
import type { UpdateInfo } from './events.js';

/**
 * @example diff({a: 1, b: 2}, {a: 1, b: 3, c: 4})
 *   // {changedKeys: ['b', 'c'], oldValues: {b: 2, c: undefined}, newValues: {b: 3, c: 4}}
 */
export function diff(before: object, after: object): UpdateInfo {
  const oldObj = before as Record<string, unknown>;
  const newObj = after as Record<string, unknown>;
  const info: UpdateInfo = { newValues: {}, oldValues: {}, changedKeys: [] };
  const keys = new Set([...Object.keys(oldObj), ...Object.keys(newObj)]);
  for (const key of keys) {
    if (isDeepStrictEqual(oldObj[key], newObj[key])) continue;
    info.changedKeys.push(key);
    info.oldValues[key] = oldObj[key];
    info.newValues[key] = newObj[key];
  }
  return info;
}
