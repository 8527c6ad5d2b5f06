/**
 * The live report of a zone: the power now of the zones directly inside it (each the sum of the
 * devices anywhere inside), of its own devices and meters, and the totals of everything inside
 * it: drawn, made, what its meters say comes from the grid, and what no device accounts for
 * (meter + made - drawn). Built from the devices' values on each ask: no state of its own.
 */
import type { DeviceRecord } from '../devices/device-record.js';
import type { LiveItem, LiveReport } from './contract.js';
import type { DeviceEnergy } from './device-energy.js';

export interface LiveSources {
  readonly devices: readonly DeviceRecord[];
  energyOf(record: DeviceRecord): DeviceEnergy | null;
  readonly zone: { id: string; name: string };
  /** The zones directly inside the asked one. */
  readonly children: ReadonlyArray<{ id: string; name: string }>;
  /** A zone and every zone inside it. */
  inside(zone: string): ReadonlySet<string>;
  readonly pricePerKWh: number | null;
  readonly currency: string;
}

/**
 * What one device adds to its zone's totals, in µW. Integers, so the home's totals kept as devices
 * change (home-totals.ts) are the same numbers as a report's sum over every device, in any order.
 */
export interface Share {
  readonly consumed: number;
  readonly generated: number;
  /** What a meter says comes from the grid; null when the device is no meter or has no reading. */
  readonly cumulative: number | null;
}

const toMicroW = (W: number): number => Math.round(W * 1e6);

/** A device's share by its role. */
export function shareOf(e: DeviceEnergy): Share {
  const uW = toMicroW(e.W ?? 0);
  if (e.role === 'cumulative') return { consumed: 0, generated: 0, cumulative: e.W === null ? null : uW };
  if (e.role === 'generator') return { consumed: 0, generated: uW, cumulative: null };
  // A consumer giving power back (a battery discharging, a device reporting negative): made.
  return uW >= 0 ? { consumed: uW, generated: 0, cumulative: null } : { consumed: 0, generated: -uW, cumulative: null };
}

interface Sums {
  consumed: number;
  generated: number;
  cumulative: number | null;
}

/** Adds a device's share to `s` (µW). */
function add(s: Sums, e: DeviceEnergy): void {
  const share = shareOf(e);
  s.consumed += share.consumed;
  s.generated += share.generated;
  if (share.cumulative !== null) s.cumulative = (s.cumulative ?? 0) + share.cumulative;
}

const round = (W: number): number => Math.round(W * 100) / 100;
/** Sums of µW as W, to the hundredth as a report shows them. */
export const sumW = (uW: number): number => round(uW / 1e6);

export function liveReport(src: LiveSources): LiveReport {
  const cost = (W: number | null): number | null =>
    W === null || src.pricePerKWh === null ? null : Math.round((W / 1000) * src.pricePerKWh * 10_000) / 10_000;
  const watts = (W: number | null) => ({ W: W === null ? null : round(W), cost: cost(W) });
  const summed = (uW: number | null) => watts(uW === null ? null : uW / 1e6);
  const inside = src.inside(src.zone.id);
  const children = src.children.map((z) => ({ zone: z, inside: src.inside(z.id), sums: { consumed: 0, generated: 0, cumulative: null } as Sums, any: false }));
  const total: Sums = { consumed: 0, generated: 0, cumulative: null };
  const items: LiveItem[] = [];
  for (const r of src.devices) {
    if (!inside.has(r.zone)) continue;
    const e = src.energyOf(r);
    if (!e) continue;
    add(total, e);
    if (r.zone === src.zone.id) {
      items.push({
        type: e.role === 'cumulative' ? 'cumulative' : 'device',
        id: r.id,
        name: r.name,
        zoneId: r.zone,
        values: watts(e.W),
        approximated: e.approximated,
        canApproximate: e.canApproximate,
        isHomeBattery: e.isHomeBattery,
        isElectricCar: e.isElectricCar,
        isGenerator: e.role === 'generator',
        includedInTotal: e.role === 'consumer' || e.role === 'battery',
      });
      continue;
    }
    const child = children.find((c) => c.inside.has(r.zone));
    if (child) {
      add(child.sums, e);
      child.any = true;
    }
  }
  for (const c of children) {
    if (!c.any) continue;
    items.push({
      type: 'zone',
      id: c.zone.id,
      name: c.zone.name,
      zoneId: src.zone.id,
      values: summed(c.sums.consumed),
      approximated: false,
      canApproximate: false,
      isHomeBattery: false,
      isElectricCar: false,
      isGenerator: false,
      includedInTotal: true,
    });
  }
  const unaccounted = total.cumulative === null ? null : total.cumulative + total.generated - total.consumed;
  return {
    zoneId: src.zone.id,
    zoneName: src.zone.name,
    currency: src.currency,
    totalConsumed: summed(total.consumed),
    totalGenerated: summed(total.generated),
    totalCumulative: summed(total.cumulative),
    totalUnaccounted: summed(unaccounted),
    items,
  };
}
