/**
 * A device's data as a key: Homey tells one device from another of its driver by its data, by
 * value (whatever the order of its keys), so pairing the same device twice adds it once.
 */
import type { DeviceRecord } from './device-record.js';

/**
 * Each record's dataKey, kept by the record: a record changed is a new object (the store replaces
 * records, never edits them). Pairing into a home of 1,000 devices made each one's key again for
 * every device added (two of the 2.5 s that adding 1,000 lamps took the hub).
 */
const dataKeys = new WeakMap<DeviceRecord, string>();

export function recordDataKey(d: DeviceRecord): string {
  let key = dataKeys.get(d);
  if (key === undefined) {
    key = dataKey(d.data);
    dataKeys.set(d, key);
  }
  return key;
}

/** A device's data as text with every object's keys in order: equal data, equal text. */
export function dataKey(data: unknown): string {
  return (
    JSON.stringify(data, (_key, value: unknown) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, (value as Record<string, unknown>)[k]]),
          )
        : value,
    ) ?? 'null'
  );
}
