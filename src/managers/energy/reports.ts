/**
 * An energy report of a period (periods.ts) from the cumulative kWh logs in insights: each log's
 * hourly readings, each rise counted in the part of the period that holds its hour. A fall is a
 * meter that was reset (or replaced): it counts nothing, as on Homey. What the home used is what
 * its meter says when it has one (taken from the grid, less what went back, plus what it made);
 * else the sum of its devices. Whatever the meter saw beyond the devices is `unaccountedPeriod`.
 */
import type { EnergyReport, EnergyTotals } from './contract.js';
import type { Period } from './periods.js';

export type Column = 'consumed' | 'generated' | 'imported' | 'exported';

/** One cumulative log a report reads: whose, which column it counts in, and its insights key. */
export interface Series {
  readonly deviceId: string;
  readonly column: Column;
  readonly key: string;
  /** The log counts from 0 (the hub's own count): its first hour's rise is from 0, not from its first reading. */
  readonly fromZero?: boolean;
}

export interface ReportSources {
  readonly series: readonly Series[];
  readings(key: string, start: number, end: number): { before: number | null; hours: ReadonlyArray<readonly [number, number, number]> } | null;
  /** A device's name and zone (null zone: gone since). */
  device(id: string): { name: string; zone: string | null };
  /** The zone and the zones it is in, innermost first. */
  zonesOf(zone: string): readonly string[];
  readonly pricePerKWh: number | null;
  readonly currency: string;
}

/** kWh in each part of `period` of one cumulative series. */
export function rises(
  period: Period,
  readings: { before: number | null; hours: ReadonlyArray<readonly [number, number, number]> },
  fromZero = false,
): number[] {
  const out = new Array<number>(period.parts.length).fill(0);
  let prev = readings.before ?? (fromZero ? 0 : null);
  let part = 0;
  for (const [t, value, lowest] of readings.hours) {
    if (t < period.start || t >= period.end) continue;
    while (part + 1 < period.parts.length && period.parts[part + 1]!.start <= t) part++;
    // A meter's first hour: counted from its first reading in that hour.
    prev ??= lowest;
    if (value > prev) out[part]! += value - prev;
    prev = value;
  }
  return out;
}

const round = (kWh: number): number => Math.round(kWh * 1_000_000) / 1_000_000;

type Sums = Record<Column, number>;
const zero = (): Sums => ({ consumed: 0, generated: 0, imported: 0, exported: 0 });

function totals(s: Sums, devicesConsumed: number, metered: boolean, price: number | null): EnergyTotals {
  const consumed = metered ? Math.max(0, s.imported - s.exported + s.generated) : devicesConsumed;
  return {
    consumedPeriod: round(consumed),
    generatedPeriod: round(s.generated),
    importedPeriod: metered ? round(s.imported) : null,
    exportedPeriod: metered ? round(s.exported) : null,
    unaccountedPeriod: metered ? round(consumed - devicesConsumed) : null,
    costPeriod: price === null ? null : Math.round((metered ? s.imported : consumed) * price * 100) / 100,
  };
}

/** The report of `period` from `src`. */
export function buildReport(period: Period, src: ReportSources): EnergyReport {
  const parts = period.parts.map(() => ({ sums: zero(), devices: 0 }));
  const whole = { sums: zero(), devices: 0 };
  const metered = src.series.some((s) => s.column === 'imported');
  const devices: EnergyReport['electricity']['devices'] = {};
  const zones: EnergyReport['electricity']['zones'] = {};
  for (const s of src.series) {
    const readings = src.readings(s.key, period.start, period.end);
    if (!readings) continue;
    const kWh = rises(period, readings, s.fromZero);
    const sum = kWh.reduce((a, b) => a + b, 0);
    const { name, zone } = src.device(s.deviceId);
    const entry = (devices[s.deviceId] ??= { name, zone });
    entry[`${s.column}Period`] = round((entry[`${s.column}Period`] ?? 0) + sum);
    kWh.forEach((v, i) => {
      parts[i]!.sums[s.column] += v;
      if (s.column === 'consumed') parts[i]!.devices += v;
    });
    whole.sums[s.column] += sum;
    if (s.column === 'consumed') whole.devices += sum;
    if (zone !== null && (s.column === 'consumed' || s.column === 'generated')) {
      for (const z of src.zonesOf(zone)) {
        const t = (zones[z] ??= { consumedPeriod: 0, generatedPeriod: 0 });
        t[`${s.column}Period`] = round(t[`${s.column}Period`] + sum);
      }
    }
  }
  const subReports: EnergyReport['subReports'] = {};
  period.parts.forEach((p, i) => {
    subReports[p.key] = { electricity: totals(parts[i]!.sums, parts[i]!.devices, metered, src.pricePerKWh) };
  });
  return {
    period: period.key,
    start: new Date(period.start).toISOString(),
    end: new Date(period.end).toISOString(),
    currency: src.currency,
    electricity: { ...totals(whole.sums, whole.devices, metered, src.pricePerKWh), devices, zones },
    gas: { importedPeriod: null },
    water: { importedPeriod: null },
    subReports,
  };
}

/** `a + b` of two kWh figures where null is "not measured" (a home without a meter). */
const plus = (a: number | null, b: number | null): number | null => (a === null && b === null ? null : round((a ?? 0) + (b ?? 0)));

function addTotals(into: EnergyTotals, t: EnergyTotals): EnergyTotals {
  return {
    consumedPeriod: round(into.consumedPeriod + t.consumedPeriod),
    generatedPeriod: round(into.generatedPeriod + t.generatedPeriod),
    importedPeriod: plus(into.importedPeriod, t.importedPeriod),
    exportedPeriod: plus(into.exportedPeriod, t.exportedPeriod),
    unaccountedPeriod: plus(into.unaccountedPeriod, t.unaccountedPeriod),
    costPeriod: into.costPeriod === null && t.costPeriod === null ? null : Math.round(((into.costPeriod ?? 0) + (t.costPeriod ?? 0)) * 100) / 100,
  };
}

/**
 * A week's or month's report from the reports of its days (null: a day still to come): what the
 * days add up to, each day a part. Closed days are kept, so this month's report costs today's.
 */
export function fromDays(period: Period, days: ReadonlyArray<EnergyReport | null>, currency: string): EnergyReport {
  const shape = days.find((d) => d !== null)?.electricity;
  const none: EnergyTotals = {
    consumedPeriod: 0,
    generatedPeriod: 0,
    importedPeriod: shape?.importedPeriod === null || !shape ? null : 0,
    exportedPeriod: shape?.exportedPeriod === null || !shape ? null : 0,
    unaccountedPeriod: shape?.unaccountedPeriod === null || !shape ? null : 0,
    costPeriod: shape?.costPeriod === null || !shape ? null : 0,
  };
  let total = none;
  const devices: EnergyReport['electricity']['devices'] = {};
  const zones: EnergyReport['electricity']['zones'] = {};
  const subReports: EnergyReport['subReports'] = {};
  period.parts.forEach((part, i) => {
    const day = days[i];
    if (!day) {
      subReports[part.key] = { electricity: none };
      return;
    }
    const { devices: dd, zones: dz, ...totals } = day.electricity;
    subReports[part.key] = { electricity: totals };
    total = addTotals(total, totals);
    for (const [id, d] of Object.entries(dd)) {
      const into = (devices[id] ??= { name: d.name, zone: d.zone });
      for (const k of ['consumedPeriod', 'generatedPeriod', 'importedPeriod', 'exportedPeriod'] as const) {
        if (d[k] !== undefined) into[k] = plus(into[k] ?? null, d[k] ?? null);
      }
    }
    for (const [id, z] of Object.entries(dz)) {
      const into = (zones[id] ??= { consumedPeriod: 0, generatedPeriod: 0 });
      into.consumedPeriod = round(into.consumedPeriod + z.consumedPeriod);
      into.generatedPeriod = round(into.generatedPeriod + z.generatedPeriod);
    }
  });
  return {
    period: period.key,
    start: new Date(period.start).toISOString(),
    end: new Date(period.end).toISOString(),
    currency,
    electricity: { ...total, devices, zones },
    gas: { importedPeriod: null },
    water: { importedPeriod: null },
    subReports,
  };
}
