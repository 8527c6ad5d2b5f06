/**
 * How devices are kept in the data file: each device's record in the `devices` section (written
 * at once: a paired device, a changed setting or store value survives a power cut), and the last
 * value of each capability in `device-values` (written at most every few seconds: a sensor may
 * report every second, and a value lost in a power cut is reported again by its device).
 */
import { z } from 'zod';
import { isNullRecord, safeRecord } from '../../core/null-prototype.js';
import { withShortcut } from '../../core/schema-shortcut.js';

const JsonObject = safeRecord(z.string(), z.unknown());

export const DeviceRecord = z.object({
  id: z.string(),
  appId: z.string(),
  /** The driver's id in its app's app.json. */
  driverId: z.string(),
  name: z.string(),
  zone: z.string(),
  class: z.string(),
  virtualClass: z.string().nullable(),
  data: JsonObject,
  store: JsonObject,
  settings: JsonObject,
  capabilities: z.array(z.string()),
  capabilitiesOptions: safeRecord(z.string(), JsonObject),
  /** What the app said (setAvailable/setUnavailable); a device whose app is not running is unavailable too. */
  available: z.boolean(),
  unavailableMessage: z.string().nullable(),
  warningMessage: z.string().nullable(),
  energy: JsonObject.nullable(),
  icon: z.string().nullable(),
  note: z.string().nullable(),
  hidden: z.boolean(),
  created: z.string(),
});
export type DeviceRecord = z.infer<typeof DeviceRecord>;

export const DEVICES_SECTION = 'devices';

export const StoredValue = z.object({ value: z.union([z.boolean(), z.number(), z.string(), z.null()]), lastUpdated: z.string().nullable() });
export type StoredValue = z.infer<typeof StoredValue>;
export const VALUES_SECTION = 'device-values';
/** A device's values, by capability id; the values' flush (values.ts) hands it records it takes as they are. */
export const DeviceValues = withShortcut(safeRecord(z.string(), StoredValue), isDeviceValues);

/**
 * Whether `v` is a device's values exactly as DeviceValues makes them: a null-prototype map of
 * plain `{ value, lastUpdated }` objects (those keys, in that order), each value a boolean, a
 * finite number, a string or null, each time a string or null.
 */
export function isDeviceValues(v: unknown): boolean {
  // Every own key listed (no symbol, nothing hidden): what JSON writes is all it holds.
  if (!isNullRecord(v) || Reflect.ownKeys(v as object).length !== Object.keys(v as object).length) return false;
  for (const s of Object.values(v as object)) {
    if (typeof s !== 'object' || s === null || Object.getPrototypeOf(s) !== Object.prototype) return false;
    // Own keys and enumerable keys both exactly these: no hidden field JSON would leave out.
    const keys = Reflect.ownKeys(s);
    const listed = Object.keys(s);
    if (keys.length !== 2 || listed.length !== 2 || listed[0] !== 'value' || listed[1] !== 'lastUpdated') return false;
    const { value, lastUpdated } = s as Record<string, unknown>;
    const kind = typeof value;
    if (!(value === null || kind === 'boolean' || kind === 'string' || (kind === 'number' && Number.isFinite(value)))) return false;
    if (!(lastUpdated === null || typeof lastUpdated === 'string')) return false;
  }
  return true;
}

/** Devices a hub keeps at most, and the size of what an app may keep per device. */
export const LIMITS = {
  devices: 1000,
  /** JSON of one device's data, store or settings. */
  objectBytes: 256 * 1024,
  capabilities: 256,
};
