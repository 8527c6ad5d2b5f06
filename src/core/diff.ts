/**
 * The one diff behind every `info` object of update events: which top-level keys changed,
 * with only their old and new values.
 */
import { isDeepStrictEqual } from 'node:util';
import type { UpdateInfo } from './events.js';
import { nullRecord } from './null-prototype.js';

/**
 * @example diff({a: 1, b: 2}, {a: 1, b: 3, c: 4})
 *   // {changedKeys: ['b', 'c'], oldValues: {b: 2, c: undefined}, newValues: {b: 3, c: 4}}
 */
export function diff(before: object, after: object): UpdateInfo {
  const oldObj = before as Record<string, unknown>;
  const newObj = after as Record<string, unknown>;
  const info: UpdateInfo = { newValues: nullRecord(), oldValues: nullRecord(), changedKeys: [] };
  const keys = new Set([...Object.keys(oldObj), ...Object.keys(newObj)]);
  for (const key of keys) {
    // Own values only: a key such as `__proto__` present on one side must not read the prototype.
    const was = Object.hasOwn(oldObj, key) ? oldObj[key] : undefined;
    const now = Object.hasOwn(newObj, key) ? newObj[key] : undefined;
    if (isDeepStrictEqual(was, now)) continue;
    info.changedKeys.push(key);
    info.oldValues[key] = was;
    info.newValues[key] = now;
  }
  return info;
}
