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

interface Sums {
  consumed: number;
  generated: number;
  cumulative: number | null;
}

/** Adds a device's power to `s` by its role. */
function add(s: Sums, e: DeviceEnergy): void {
  const W = e.W ?? 0;
  if (e.role === 'cumulative') {
    if (e.W !== null) s.cumulative = (s.cumulative ?? 0) + W;
  } else if (e.role === 'generator') s.generated += W;
  else if (W >= 0) s.consumed += W;
  // A consumer giving power back (a battery discharging, a device reporting negative): made.
  else s.generated -= W;
}

const round = (W: number): number => Math.round(W * 100) / 100;

export function liveReport(src: LiveSources): LiveReport {
  const cost = (W: number | null): number | null =>
    W === null || src.pricePerKWh === null ? null : Math.round((W / 1000) * src.pricePerKWh * 10_000) / 10_000;
  const watts = (W: number | null) => ({ W: W === null ? null : round(W), cost: cost(W) });
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
      values: watts(c.sums.consumed),
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
    totalConsumed: watts(total.consumed),
    totalGenerated: watts(total.generated),
    totalCumulative: watts(total.cumulative),
    totalUnaccounted: watts(unaccounted),
    items,
  };
}
