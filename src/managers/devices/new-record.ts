/**
 * A paired device's record, made from its driver's defaults (class, capabilities and their
 * options, settings, energy) with what the pairing gave overriding them; and the bound on what
 * an app keeps per device, checked when a record is made and whenever it changes.
 */
import { randomUUID } from 'node:crypto';
import type { DriverDefinition } from '../../apps/manifest/drivers.js';
import type { PairDevice } from '../../apps/wire/device-calls.js';
import { HearthError } from '../../core/errors.js';
import { nullRecord } from '../../core/null-prototype.js';
import { type DeviceRecord, LIMITS } from './device-record.js';

const bytes = (v: unknown): number => JSON.stringify(v ?? null).length;

/** Throws a 413 when the device's data, store or settings is larger than an app may keep. */
export function checkPartBytes(record: DeviceRecord): void {
  for (const part of [record.data, record.store, record.settings]) {
    if (bytes(part) > LIMITS.objectBytes)
      throw new HearthError('payload_too_large', `a device's data, store and settings hold ${LIMITS.objectBytes / 1024} KiB each at most`);
  }
}

/** The record of a device `driver` of `appId` paired as `given`, in `zone`; its bounds checked. */
export function newDeviceRecord(appId: string, driver: DriverDefinition, given: PairDevice, zone: string): DeviceRecord {
  const settings = nullRecord<unknown>();
  for (const s of driver.deviceSettings) settings[s.id] = s.default;
  Object.assign(settings, given.settings ?? {});
  const record: DeviceRecord = {
    id: randomUUID(),
    appId,
    driverId: driver.id,
    name: given.name,
    zone,
    class: given.class ?? driver.class,
    virtualClass: null,
    data: given.data,
    store: given.store ?? nullRecord(),
    settings,
    capabilities: [...new Set(given.capabilities ?? driver.capabilities)].slice(0, LIMITS.capabilities),
    capabilitiesOptions: { ...(driver.capabilitiesOptions as DeviceRecord['capabilitiesOptions']), ...(given.capabilitiesOptions ?? {}) },
    available: true,
    unavailableMessage: null,
    warningMessage: null,
    energy: given.energy ?? (driver.energy as DeviceRecord['energy']) ?? null,
    icon: given.icon ?? null,
    note: null,
    hidden: false,
    created: new Date().toISOString(),
  };
  checkPartBytes(record);
  return record;
}
