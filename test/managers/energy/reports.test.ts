/**
 * Energy reports from a real insights file: a meter read every minute for three days, the day
 * reports of a 25-hour day (Amsterdam's autumn change) and its neighbours match the readings
 * themselves; a meter that falls (reset) counts nothing for the fall; the hub's own count of a
 * lamp's estimate counts only while it is on; the periods' keys, parts and refusals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/core/events.js';
import { type DeviceEnergy, deviceEnergy } from '../../../src/managers/energy/device-energy.js';
import { calculatedKey, EnergyMeters } from '../../../src/managers/energy/meters.js';
import { periodKeyAt, periodOf } from '../../../src/managers/energy/periods.js';
import { buildReport, fromDays } from '../../../src/managers/energy/reports.js';
import { InsightsService } from '../../../src/managers/insights/service.js';

const ZONE = 'Europe/Amsterdam';
const MINUTE = 60_000;
const log = pino({ level: 'silent' });
let dir: string;
let clock: number;
let insights: InsightsService;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-energy-'));
  clock = Date.parse('2026-10-27T12:00:00Z');
  insights = new InsightsService({ dataDir: dir, zone: ZONE, bus: new EventBus(), log, now: () => clock });
  insights.start();
});
afterEach(() => {
  insights.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A cumulative meter of device `id`, read every minute from `from` to `to`, rising by `rate(t)` kWh a minute. */
function meter(id: string, from: number, to: number, rate: (t: number) => number): Array<[number, number]> {
  insights.createLog(`homey:device:${id}`, 'meter_power', { title: 'Energy', units: 'kWh' });
  const points: Array<[number, number]> = [];
  let kWh = 1000;
  for (let t = from; t < to; t += MINUTE) {
    kWh += rate(t);
    points.push([t, kWh]);
    insights.createEntry(`homey:device:${id}:meter_power`, kWh, t);
  }
  insights.flush();
  return points;
}

/** What the readings themselves say a period used: the last reading in it less the last before it. */
function used(points: Array<[number, number]>, start: number, end: number): number {
  const last = (t: number) => points.filter(([pt]) => pt < t).at(-1)?.[1] ?? points[0]![1];
  return last(end) - last(start);
}

const sources = (series: Array<{ deviceId: string; column: 'consumed' | 'generated' | 'imported' | 'exported'; key: string }>) => ({
  series,
  readings: (k: string, s: number, e: number) => insights.hourReadings(k, s, e),
  device: (id: string) => ({ name: id, zone: 'home' }),
  zonesOf: () => ['home'],
  pricePerKWh: 0.3,
  currency: 'EUR',
});

describe('energy reports from insights', () => {
  it('a day of 25 hours and its neighbours add up to what the meter read, hour by hour', () => {
    const from = Date.parse('2026-10-23T22:00:00Z');
    // Busier by day: 0.01 kWh a minute from 07:00 to 23:00 UTC, 0.002 at night.
    const points = meter('plug', from, Date.parse('2026-10-27T00:00:00Z'), (t) => (new Date(t).getUTCHours() >= 7 ? 0.01 : 0.002));
    const series = [{ deviceId: 'plug', column: 'consumed' as const, key: 'homey:device:plug:meter_power' }];
    for (const day of ['2026-10-24', '2026-10-25', '2026-10-26']) {
      const period = periodOf('day', day, ZONE);
      const report = buildReport(period, sources(series));
      expect(report.electricity.consumedPeriod, day).toBeCloseTo(used(points, period.start, period.end), 3);
      expect(report.electricity.devices.plug?.consumedPeriod).toBe(report.electricity.consumedPeriod);
      expect(report.electricity.zones.home?.consumedPeriod).toBe(report.electricity.consumedPeriod);
      expect(report.electricity.costPeriod).toBeCloseTo(report.electricity.consumedPeriod * 0.3, 1);
      // No meter of the whole home: nothing imported, nothing unaccounted.
      expect([report.electricity.importedPeriod, report.electricity.unaccountedPeriod]).toEqual([null, null]);
      const parts = Object.entries(report.subReports);
      expect(parts).toHaveLength(day === '2026-10-25' ? 25 : 24);
      const sum = parts.reduce((a, [, p]) => a + p.electricity.consumedPeriod, 0);
      expect(sum).toBeCloseTo(report.electricity.consumedPeriod, 3);
      // Each hour: what the meter read in that hour.
      for (const [key, part] of parts) {
        const t = Date.parse(key);
        expect(part.electricity.consumedPeriod, key).toBeCloseTo(used(points, t, t + 3_600_000), 3);
      }
    }
    // The week holding them, by day: the days' sums.
    const week = buildReport(periodOf('week', '2026-W43', ZONE), sources(series));
    expect(Object.keys(week.subReports)).toEqual(['2026-10-19', '2026-10-20', '2026-10-21', '2026-10-22', '2026-10-23', '2026-10-24', '2026-10-25']);
    expect(week.subReports['2026-10-25']!.electricity.consumedPeriod).toBeCloseTo(
      buildReport(periodOf('day', '2026-10-25', ZONE), sources(series)).electricity.consumedPeriod,
      4,
    );
  });

  it("this month's report from its days' reports is the month's report worked out at once", () => {
    const from = Date.parse('2026-10-23T22:00:00Z');
    meter('plug', from, Date.parse('2026-10-27T00:00:00Z'), (t) => (new Date(t).getUTCHours() >= 7 ? 0.01 : 0.002));
    meter('p1-in', from, Date.parse('2026-10-27T00:00:00Z'), () => 0.02);
    const k = (id: string) => `homey:device:${id}:meter_power`;
    const src = sources([
      { deviceId: 'plug', column: 'consumed', key: k('plug') },
      { deviceId: 'p1', column: 'imported', key: k('p1-in') },
    ]);
    for (const [kind, key] of [
      ['month', '2026-10'],
      ['week', '2026-W44'],
    ] as const) {
      const period = periodOf(kind, key, ZONE);
      const whole = buildReport(period, src);
      const days = period.parts.map((p) => (p.start < clock ? buildReport(periodOf('day', p.key, ZONE), src) : null));
      const composed = fromDays(period, days, 'EUR');
      const e = composed.electricity;
      expect(e.consumedPeriod, key).toBeCloseTo(whole.electricity.consumedPeriod, 4);
      expect(e.importedPeriod).toBeCloseTo(whole.electricity.importedPeriod!, 4);
      expect(e.unaccountedPeriod).toBeCloseTo(whole.electricity.unaccountedPeriod!, 4);
      expect(e.costPeriod).toBeCloseTo(whole.electricity.costPeriod!, 1);
      expect(e.devices.plug?.consumedPeriod).toBeCloseTo(whole.electricity.devices.plug!.consumedPeriod!, 4);
      expect(e.zones.home?.consumedPeriod).toBeCloseTo(whole.electricity.zones.home!.consumedPeriod, 4);
      expect(Object.keys(composed.subReports)).toEqual(Object.keys(whole.subReports));
      for (const [day, part] of Object.entries(whole.subReports)) {
        expect(composed.subReports[day]!.electricity.consumedPeriod, day).toBeCloseTo(part.electricity.consumedPeriod, 4);
      }
    }
  });

  it("with the home's meter: used is taken - given back + made, and what no device accounts for is said", () => {
    const from = Date.parse('2026-10-26T00:00:00Z');
    const to = Date.parse('2026-10-27T00:00:00Z');
    meter('p1-in', from, to, () => 0.01);
    meter('p1-out', from, to, (t) => (new Date(t).getUTCHours() === 12 ? 0.005 : 0));
    meter('sun', from, to, (t) => (new Date(t).getUTCHours() === 12 ? 0.02 : 0));
    meter('plug', from, to, () => 0.004);
    const k = (id: string) => `homey:device:${id}:meter_power`;
    const report = buildReport(
      periodOf('day', '2026-10-26', 'UTC'),
      sources([
        { deviceId: 'p1', column: 'imported', key: k('p1-in') },
        { deviceId: 'p1', column: 'exported', key: k('p1-out') },
        { deviceId: 'sun', column: 'generated', key: k('sun') },
        { deviceId: 'plug', column: 'consumed', key: k('plug') },
      ]),
    );
    const e = report.electricity;
    // The first reading of the day is the base: 1,439 minutes counted.
    expect(e.importedPeriod).toBeCloseTo(14.39, 2);
    expect(e.exportedPeriod).toBeCloseTo(0.3, 2);
    expect(e.generatedPeriod).toBeCloseTo(1.2, 2);
    expect(e.consumedPeriod).toBeCloseTo(14.39 - 0.3 + 1.2, 2);
    expect(e.unaccountedPeriod).toBeCloseTo(e.consumedPeriod - 0.004 * 1439, 2);
    expect(e.devices.p1).toMatchObject({ importedPeriod: e.importedPeriod, exportedPeriod: e.exportedPeriod });
    // Cost: of what was taken from the grid.
    expect(e.costPeriod).toBeCloseTo(14.39 * 0.3, 1);
  });

  it('a meter that falls (reset, replaced) counts nothing for the fall, and goes on counting', () => {
    const from = Date.parse('2026-10-26T00:00:00Z');
    insights.createLog('homey:device:m', 'meter_power', { title: 'Energy', units: 'kWh' });
    const readings = [100, 101, 102, 0.5, 1.5, 2.5];
    for (const [i, v] of readings.entries()) insights.createEntry('homey:device:m:meter_power', v, from + i * 3_600_000 + MINUTE);
    insights.flush();
    const report = buildReport(periodOf('day', '2026-10-26', 'UTC'), sources([{ deviceId: 'm', column: 'consumed', key: 'homey:device:m:meter_power' }]));
    expect(report.electricity.consumedPeriod).toBe(4);
  });

  it("the hub's count of a lamp's estimate: only while it is on, carried on after a restart", () => {
    const record = {
      id: 'lamp',
      capabilities: ['onoff'],
      energy: { approximation: { usageOn: 60 } },
      class: 'light',
      virtualClass: null,
    } as unknown as Parameters<typeof deviceEnergy>[0];
    const energy = (on: boolean): DeviceEnergy => deviceEnergy(record, (cap) => (cap === 'onoff' ? on : null))!;
    expect(energy(true)).toMatchObject({ role: 'consumer', W: 60, approximated: true, meter: null });
    expect(energy(false).W).toBe(0);
    let meters = new EnergyMeters(insights, () => clock, log);
    meters.power('lamp', energy(true).W);
    clock += 30 * MINUTE;
    meters.power('lamp', energy(false).W);
    clock += 5 * 60 * MINUTE;
    meters.flush();
    // The writer holds the slot still open back a moment.
    clock += 1000;
    insights.flush();
    expect(insights.lastOf(calculatedKey('lamp'))?.value).toBeCloseTo(0.03, 6);
    // A new run carries on from the log.
    meters = new EnergyMeters(insights, () => clock, log);
    meters.power('lamp', energy(true).W);
    clock += 60 * MINUTE;
    meters.flush();
    clock += 1000;
    insights.flush();
    expect(insights.lastOf(calculatedKey('lamp'))?.value).toBeCloseTo(0.09, 6);
  });
});

describe("a device's role", () => {
  const device = (over: Record<string, unknown>) =>
    ({ id: 'd', class: 'other', virtualClass: null, capabilities: [], energy: null, ...over }) as unknown as Parameters<typeof deviceEnergy>[0];
  const values =
    (v: Record<string, unknown>) =>
    (cap: string): unknown =>
      v[cap] ?? null;
  it("from its class, its capabilities and its driver's energy object, never from one reading's sign", () => {
    // A P1 meter naming its own capabilities, and one that names none.
    expect(
      deviceEnergy(
        device({
          capabilities: ['measure_power', 'meter_power', 'meter_power.returned'],
          energy: { cumulative: true, cumulativeImportedCapability: 'meter_power', cumulativeExportedCapability: 'meter_power.returned' },
        }),
        values({ measure_power: -300 }),
      ),
    ).toMatchObject({ role: 'cumulative', W: -300, imported: 'meter_power', exported: 'meter_power.returned' });
    expect(
      deviceEnergy(device({ capabilities: ['measure_power', 'meter_power.imported', 'meter_power.exported'], energy: { cumulative: true } }), values({})),
    ).toMatchObject({ role: 'cumulative', imported: 'meter_power.imported', exported: 'meter_power.exported' });
    // A capability it does not have, or not a meter, is not taken.
    expect(
      deviceEnergy(device({ capabilities: ['measure_power'], energy: { cumulative: true, cumulativeImportedCapability: 'measure_power' } }), values({})),
    ).toMatchObject({
      imported: null,
    });
    expect(
      deviceEnergy(
        device({
          capabilities: ['measure_power', 'meter_power.charged', 'meter_power.discharged'],
          energy: { homeBattery: true, meterPowerImportedCapability: 'meter_power.charged', meterPowerExportedCapability: 'meter_power.discharged' },
        }),
        values({ measure_power: -500 }),
      ),
    ).toMatchObject({ role: 'battery', isHomeBattery: true, W: -500, imported: 'meter_power.charged', exported: 'meter_power.discharged' });
    expect(
      deviceEnergy(
        device({
          capabilities: ['measure_power', 'meter_power.session', 'meter_power'],
          energy: { evCharger: true, meterPowerImportedCapability: 'meter_power.session' },
        }),
        values({ measure_power: 7400 }),
      ),
    ).toMatchObject({ role: 'consumer', W: 7400, meter: 'meter_power.session' });
    expect(deviceEnergy(device({ class: 'solarpanel', capabilities: ['measure_power'] }), values({ measure_power: -2000 }))).toMatchObject({
      role: 'generator',
      W: 2000,
      meter: null,
    });
    // A plug giving a negative reading stays a consumer.
    expect(deviceEnergy(device({ class: 'socket', capabilities: ['measure_power', 'meter_power'] }), values({ measure_power: -3 }))).toMatchObject({
      role: 'consumer',
      W: -3,
      meter: 'meter_power',
    });
    expect(deviceEnergy(device({ capabilities: ['onoff'], energy: { approximation: { usageConstant: 12 } } }), values({ onoff: false }))).toMatchObject({
      W: 12,
      approximated: true,
    });
    expect(deviceEnergy(device({ capabilities: ['onoff'] }), values({ onoff: true }))).toMatchObject({ W: null, canApproximate: true });
    expect(deviceEnergy(device({ capabilities: ['alarm_contact'] }), values({}))).toBeNull();
  });
});

describe('report periods', () => {
  it('keys, parts and edges in the hub zone; keys that are no period are refused with the form to use', () => {
    const spring = periodOf('day', '2026-03-29', ZONE);
    expect(spring.parts).toHaveLength(23);
    expect(new Date(spring.start).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    const month = periodOf('month', '2026-02', ZONE);
    expect(month.parts.map((p) => p.key)).toHaveLength(28);
    expect(periodOf('year', '2026', ZONE).parts.map((p) => p.key)).toEqual(Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`));
    expect(periodOf('week', '2026-W53', 'UTC').parts[0]!.key).toBe('2026-12-28');
    expect(periodKeyAt('week', Date.parse('2027-01-01T12:00:00Z'), 'UTC')).toBe('2026-W53');
    expect(periodKeyAt('week', Date.parse('2026-11-28T12:00:00Z'), 'UTC')).toBe('2026-W48');
    expect(periodKeyAt('day', Date.parse('2026-11-28T23:30:00Z'), ZONE)).toBe('2026-11-29');
    for (const [kind, key] of [
      ['day', '2026-02-30'],
      ['day', '28-11-2026'],
      ['week', '2025-W53'],
      ['month', '2026-13'],
      ['year', '1999'],
    ] as const) {
      expect(() => periodOf(kind, key, ZONE), key).toThrow(/write it as/);
    }
  });
});
