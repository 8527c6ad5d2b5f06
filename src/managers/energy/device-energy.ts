/**
 * What a device means to the home's energy, read from its capabilities and its driver's `energy`
 * object as Homey's SDK defines them (docs/energy.md): a consumer (a lamp, a plug), a generator
 * (solar panels), the home's own meter (`cumulative`: a P1 meter, what the whole house draws,
 * negative while exporting), a home battery, or nothing (a door sensor). Its power now in W, and
 * the insights log that holds its kWh: its own cumulative `meter_power`, or the one the hub works
 * out from its power (meters.ts).
 */
import type { DeviceRecord } from '../devices/device-record.js';

export type EnergyRole = 'consumer' | 'generator' | 'cumulative' | 'battery';

export interface DeviceEnergy {
  readonly role: EnergyRole;
  /**
   * Its power now in W: drawn by a consumer (negative: it gives some back), made by a generator,
   * taken from the grid by the home's meter (negative: exporting), charging a battery (negative:
   * discharging); null when not known.
   */
  readonly W: number | null;
  /** The power is the driver's estimate (`energy.approximation`), not a measurement. */
  readonly approximated: boolean;
  /** It could be estimated (it switches on and off) though its driver gives no estimate. */
  readonly canApproximate: boolean;
  readonly isHomeBattery: boolean;
  readonly isElectricCar: boolean;
  /**
   * The capability whose log holds its own cumulative kWh (consumed, or for a generator made), or
   * null when the hub works it out from the power (`energy.calculated`).
   */
  readonly meter: string | null;
  /** For the home's meter and a battery: the cumulative kWh taken from and given to the grid (or the house). */
  readonly imported: string | null;
  readonly exported: string | null;
}

/** The log the hub keeps of a device's kWh when the device counts none itself. */
export const CALCULATED_LOG = 'energy.calculated';

type Values = (capabilityId: string) => unknown;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A capability the device has, of the `meter_power` kind (Homey refuses any other as an energy capability). */
function meterCapability(record: DeviceRecord, named: unknown): string | null {
  const id = str(named);
  return id !== null && (id === 'meter_power' || id.startsWith('meter_power.')) && record.capabilities.includes(id) ? id : null;
}

/** The driver's estimate of its power now, from `energy.approximation` and whether it is on. */
function approximation(energy: Record<string, unknown>, on: unknown): number | null {
  const a = energy.approximation;
  if (!isObject(a)) return null;
  const constant = num(a.usageConstant);
  if (constant !== null) return constant;
  const usageOn = num(a.usageOn);
  const usageOff = num(a.usageOff);
  if (usageOn === null && usageOff === null) return null;
  return on === true ? (usageOn ?? 0) : (usageOff ?? 0);
}

/** What `record` means to the home's energy, with its values as `value` reads them; null: nothing. */
export function deviceEnergy(record: DeviceRecord, value: Values): DeviceEnergy | null {
  const energy = isObject(record.energy) ? record.energy : {};
  const caps = record.capabilities;
  const has = (id: string): boolean => caps.includes(id);
  const measured = has('measure_power') ? num(value('measure_power')) : null;
  const base = { isHomeBattery: false, isElectricCar: energy.electricCar === true, approximated: false, canApproximate: false };
  if (energy.cumulative === true) {
    const imported =
      meterCapability(record, energy.cumulativeImportedCapability) ??
      (has('meter_power.imported') ? 'meter_power.imported' : has('meter_power') ? 'meter_power' : null);
    const exported = meterCapability(record, energy.cumulativeExportedCapability) ?? (has('meter_power.exported') ? 'meter_power.exported' : null);
    return { ...base, role: 'cumulative', W: measured, meter: null, imported, exported };
  }
  if (energy.homeBattery === true) {
    return {
      ...base,
      role: 'battery',
      isHomeBattery: true,
      W: measured,
      meter: null,
      imported: meterCapability(record, energy.meterPowerImportedCapability),
      exported: meterCapability(record, energy.meterPowerExportedCapability),
    };
  }
  const ownMeter = energy.evCharger === true ? meterCapability(record, energy.meterPowerImportedCapability) : null;
  const meter = ownMeter ?? (has('meter_power') ? 'meter_power' : null);
  // Solar panels: Homey's `solarpanel` class makes power (either sign accepted). The role is the
  // class's, never the sign of one reading: a flip would move its kWh between columns.
  if (record.class === 'solarpanel' || record.virtualClass === 'solarpanel') {
    return { ...base, role: 'generator', W: measured === null ? null : Math.abs(measured), meter, imported: null, exported: null };
  }
  if (measured !== null || has('measure_power') || meter !== null) {
    return { ...base, role: 'consumer', W: measured, meter, imported: null, exported: null };
  }
  const estimate = approximation(energy, value('onoff'));
  if (estimate !== null) return { ...base, role: 'consumer', W: estimate, approximated: true, meter: null, imported: null, exported: null };
  if (has('onoff')) return { ...base, role: 'consumer', W: null, canApproximate: true, meter: null, imported: null, exported: null };
  return null;
}
