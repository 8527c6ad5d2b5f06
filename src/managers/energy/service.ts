/**
 * The home's energy: what each device means to it (device-energy.ts), the kWh the hub works out
 * for devices that count none (meters.ts), the live report (live.ts), the period reports from
 * insights (reports.ts, closed periods kept in a small cache), the prices (options), and the
 * `live.update` event: the home's totals, at most every 2 s while they change.
 */
import type { Logger } from 'pino';
import { KeptMap } from '../../core/kept.js';
import type { OptionService } from '../../core/options.js';
import { deviceOwnerUri } from '../../core/owners.js';
import type { HubBus } from '../bus.js';
import type { DeviceRecord } from '../devices/device-record.js';
import type { DevicesService } from '../devices/service.js';
import type { InsightsService } from '../insights/service.js';
import type { ZonesService } from '../zones/service.js';
import type { EnergyReport, LiveReport } from './contract.js';
import { type DeviceEnergy, deviceEnergy } from './device-energy.js';
import { homePower } from './home-power.js';
import { HomeTotals, type Totals } from './home-totals.js';
import { liveReport } from './live.js';
import { calculatedKey, EnergyMeters } from './meters.js';
import { type PeriodKind, periodKeyAt, periodOf } from './periods.js';
import { buildReport, fromDays, type Series } from './reports.js';

const MINUTE = 60_000;
/** Reports of closed periods kept (the days of this month and the last among them): a month's with 1,000 devices is ~100 KB. */
const CACHED_REPORTS = 64;
const LIVE_EVERY_MS = 2_000;

export interface EnergyDeps {
  readonly bus: HubBus;
  readonly options: OptionService;
  readonly devices: DevicesService;
  readonly zones: ZonesService;
  readonly insights: InsightsService;
  /** The hub's time zone (reports run from local midnight). */
  readonly zone: string;
  readonly log: Logger;
  readonly now?: () => number;
}

type Price = { costs: Record<string, { value: number }> } | null;

export class EnergyService {
  private readonly now: () => number;
  readonly meters: EnergyMeters;
  private readonly cache = new KeptMap<string, EnergyReport>(CACHED_REPORTS);
  private readonly stops: Array<() => void> = [];
  private tick: NodeJS.Timeout | undefined;
  private liveTimer: NodeJS.Timeout | undefined;
  private lastLive = '';
  private power: number | null = null;
  private today: { day: string; kWh: number } | null = null;
  /**
   * Each device's energy as last worked out, by its record (a changed device is a new record: the
   * store never edits one), with the two values it read (measure_power, onoff: each new value is a
   * new object), so it holds until one of them is another. The home's power every 2 s worked out
   * every device's afresh: 10-15 ms of the hub's loop in a 1,000-device home, which every change
   * arriving meanwhile waited for.
   */
  private readonly energies = new WeakMap<DeviceRecord, { readonly e: DeviceEnergy | null; readonly power: unknown; readonly onoff: unknown }>();
  /** The home's totals, kept per device from settle() on (home-totals.ts); null before. */
  private home: HomeTotals | null = null;
  private readonly powerListeners = new Set<(before: number, now: number) => void>();
  private readonly todayListeners = new Set<{ told: (before: number, now: number) => void; wanted: () => boolean }>();

  constructor(private readonly deps: EnergyDeps) {
    this.now = deps.now ?? Date.now;
    this.meters = new EnergyMeters(deps.insights, this.now, deps.log);
  }

  start(): void {
    this.stops.push(
      this.deps.bus.on('devices', (e) => {
        if (e.event === 'capability.update') {
          const { deviceId, capabilityId } = e.args[0];
          if (capabilityId !== 'measure_power' && capabilityId !== 'onoff') return;
          if (this.deps.devices.has(deviceId)) this.track(this.deps.devices.record(deviceId));
          this.liveSoon();
        } else if (e.event === 'device.delete') {
          this.meters.forget(e.args[0].id);
          this.home?.delete(e.args[0].id);
          this.cache.clear();
        } else {
          if (this.deps.devices.has(e.args[0].id)) this.track(this.deps.devices.record(e.args[0].id));
          this.cache.clear();
        }
      }),
      this.deps.options.onChange('energy', () => this.cache.clear()),
    );
    this.tick = setInterval(() => this.minute(), MINUTE);
    this.tick.unref();
  }

  /**
   * Every device's power counted from now, and the home's power a crossing is measured from (no
   * trigger at start): once the hub answers (a thousand devices' energy worked out twice was a
   * tenth of a big home's start). A device that reported meanwhile is counted from its report.
   */
  settle(): void {
    this.home = new HomeTotals();
    for (const r of this.deps.devices.records()) this.track(r);
    this.power ??= homePower(this.live());
  }

  stop(): void {
    for (const s of this.stops.splice(0)) s();
    clearInterval(this.tick);
    clearTimeout(this.liveTimer);
    this.meters.flush();
  }

  /** The home's power going from `before` to `now` W (at most every 2 s, when it changed): the flows' trigger. */
  onPower(listener: (before: number, now: number) => void): () => void {
    this.powerListeners.add(listener);
    return () => this.powerListeners.delete(listener);
  }

  /**
   * Today's kWh going from `before` to `now` (each minute; from 0 at midnight), worked out only
   * while some listener `wanted` it (a flow on the card): a day's report each minute is not free.
   */
  onToday(told: (before: number, now: number) => void, wanted: () => boolean): () => void {
    const listener = { told, wanted };
    this.todayListeners.add(listener);
    return () => this.todayListeners.delete(listener);
  }

  /** The minute tick: the counted kWh written, then today's use told when it grew. */
  private minute(): void {
    this.meters.flush();
    const listeners = [...this.todayListeners].filter((l) => l.wanted());
    if (listeners.length === 0) {
      // Nobody waits: a flow made later measures from where today is then, as one at start does.
      this.today = null;
      return;
    }
    try {
      const day = periodKeyAt('day', this.now(), this.deps.zone);
      const kWh = this.report('day', day).electricity.consumedPeriod;
      const first = this.today === null;
      const before = this.today?.day === day ? this.today.kWh : 0;
      this.today = { day, kWh };
      if (first) return;
      if (kWh > before) for (const l of listeners) l.told(before, kWh);
    } catch (err) {
      this.deps.log.warn({ err }, "could not work out today's energy");
    }
  }

  /** The home's power now (W): the global flow token. */
  homePowerNow(): number {
    return totalsPower(this.totals());
  }

  /** What device `r` means to the home's energy now (deviceEnergy, kept until it changes: `energies`). */
  energyOf(r: DeviceRecord): DeviceEnergy | null {
    const values = this.deps.devices.values.of(r.id);
    const [power, onoff] = [values?.measure_power, values?.onoff];
    const kept = this.energies.get(r);
    if (kept && kept.power === power && kept.onoff === onoff) return kept.e;
    const e = deviceEnergy(r, (cap) => (r.capabilities.includes(cap) ? (values?.[cap]?.value ?? null) : null));
    this.energies.set(r, { e, power, onoff });
    return e;
  }

  /** Counts a device's power into its calculated kWh when it counts none itself. */
  private track(r: DeviceRecord): void {
    const e = this.energyOf(r);
    this.home?.set(r.id, e);
    const counted = e !== null && (e.role === 'consumer' || e.role === 'generator') && e.meter === null;
    if (!counted) {
      if (this.meters.has(r.id)) this.meters.forget(r.id);
      return;
    }
    if (e.W !== null || this.meters.has(r.id)) this.meters.power(r.id, e.W);
  }

  private get price(): number | null {
    const p = this.deps.options.get<Price>('energy', 'electricityPriceFixed');
    return p ? Object.values(p.costs).reduce((a, c) => a + c.value, 0) : null;
  }

  get currency(): string {
    return this.deps.options.get<string>('energy', 'currency');
  }

  symbol(): string {
    const parts = new Intl.NumberFormat('en', { style: 'currency', currency: this.currency, currencyDisplay: 'narrowSymbol' }).formatToParts(0);
    return parts.find((p) => p.type === 'currency')?.value ?? this.currency;
  }

  live(zoneId?: string): LiveReport {
    const z = this.deps.zones.get(zoneId ?? this.deps.zones.root);
    const zones = Object.values(this.deps.zones.list());
    return liveReport({
      devices: this.deps.devices.records(),
      energyOf: (r) => this.energyOf(r),
      zone: { id: z.id, name: z.name },
      children: zones.filter((c) => c.parent === z.id).map((c) => ({ id: c.id, name: c.name })),
      inside: (id) => this.deps.zones.inside([id]),
      pricePerKWh: this.price,
      currency: this.currency,
    });
  }

  /** The home's totals now: kept as devices change, or summed over every device before settle(). */
  private totals(): Totals {
    if (this.home) return this.home.totals();
    const r = this.live();
    return { consumed: r.totalConsumed.W ?? 0, generated: r.totalGenerated.W ?? 0, cumulative: r.totalCumulative.W };
  }

  /** The home's totals on the energy channel, at most every 2 s, when they changed. */
  private liveSoon(): void {
    if (this.liveTimer) return;
    this.liveTimer = setTimeout(() => {
      this.liveTimer = undefined;
      const totals = this.totals();
      const text = JSON.stringify(totals);
      if (text === this.lastLive) return;
      this.lastLive = text;
      this.deps.bus.publish('energy', 'live.update', totals);
      const now = totalsPower(totals);
      const before = this.power ?? 0;
      this.power = now;
      if (now !== before) for (const l of this.powerListeners) l(before, now);
    }, LIVE_EVERY_MS);
    this.liveTimer.unref();
  }

  /** The cumulative logs a report reads, each device's by its role. */
  private series(): Series[] {
    const out: Series[] = [];
    const key = (id: string, cap: string): string => `${deviceOwnerUri(id)}:${cap}`;
    for (const r of this.deps.devices.records()) {
      const e = this.energyOf(r);
      if (!e) continue;
      if (e.role === 'cumulative' || e.role === 'battery') {
        const [into, outOf] = e.role === 'cumulative' ? (['imported', 'exported'] as const) : (['consumed', 'generated'] as const);
        if (e.imported) out.push({ deviceId: r.id, column: into, key: key(r.id, e.imported) });
        if (e.exported) out.push({ deviceId: r.id, column: outOf, key: key(r.id, e.exported) });
        continue;
      }
      const column = e.role === 'generator' ? 'generated' : 'consumed';
      out.push(e.meter ? { deviceId: r.id, column, key: key(r.id, e.meter) } : { deviceId: r.id, column, key: calculatedKey(r.id), fromZero: true });
    }
    return out;
  }

  report(kind: PeriodKind, key: string): EnergyReport {
    const period = periodOf(kind, key, this.deps.zone);
    const cacheKey = `${kind}:${key}`;
    const closed = period.end <= this.now() - MINUTE;
    const cached = closed ? this.cache.get(cacheKey) : undefined;
    if (cached) return cached;
    // This week or month: its days (the closed ones kept), so asking again costs only today.
    if (!closed && (kind === 'week' || kind === 'month')) {
      const now = this.now();
      return fromDays(
        period,
        period.parts.map((p) => (p.start <= now ? this.report('day', p.key) : null)),
        this.currency,
      );
    }
    this.meters.flush();
    this.deps.insights.flush();
    const records = new Map(this.deps.devices.records().map((r) => [r.id, r]));
    const report = buildReport(period, {
      series: this.series(),
      readings: (k, start, end) => this.deps.insights.hourReadings(k, start, end),
      device: (id) => ({ name: records.get(id)?.name ?? id, zone: records.get(id)?.zone ?? null }),
      zonesOf: (zone) => this.ancestors(zone),
      pricePerKWh: this.price,
      currency: this.currency,
    });
    if (closed) this.cache.set(cacheKey, report);
    return report;
  }

  private ancestors(zone: string): string[] {
    const zones = this.deps.zones.list();
    const out: string[] = [];
    for (let z: string | null = zone; z !== null && out.length < 64 && Object.hasOwn(zones, z); z = zones[z]!.parent) out.push(z);
    return out;
  }

  /** The first and last day there can be history for: the oldest energy device's day, and today. */
  available(): { first: string | null; last: string | null } {
    const created = this.deps.devices
      .records()
      .filter((r) => this.energyOf(r) !== null)
      .map((r) => Date.parse(r.created))
      .filter(Number.isFinite);
    if (created.length === 0) return { first: null, last: null };
    return { first: periodKeyAt('day', Math.min(...created), this.deps.zone), last: periodKeyAt('day', this.now(), this.deps.zone) };
  }

  priceType(): 'fixed' | 'disabled' {
    return this.price === null ? 'disabled' : 'fixed';
  }

  /** Forgets the kWh the hub worked out (the devices' own meters are their insights: not touched). */
  deleteReports(): void {
    for (const r of this.deps.devices.records()) {
      if (this.deps.insights.lastOf(calculatedKey(r.id)) === null) continue;
      this.meters.forget(r.id);
      this.deps.insights.deleteEntries(calculatedKey(r.id));
      this.track(r);
    }
    this.cache.clear();
  }

  state(): { consumers: number; generators: number; batteries: number; meters: string[]; calculated: number } {
    const s = { consumers: 0, generators: 0, batteries: 0, meters: [] as string[], calculated: this.meters.size };
    for (const r of this.deps.devices.records()) {
      const e = this.energyOf(r);
      if (e?.role === 'consumer') s.consumers++;
      else if (e?.role === 'generator') s.generators++;
      else if (e?.role === 'battery') s.batteries++;
      else if (e?.role === 'cumulative') s.meters.push(r.id);
    }
    return s;
  }
}

/** The home's power from its totals, as homePower reads a live report's. */
const totalsPower = (t: Totals): number =>
  homePower({ totalConsumed: { W: t.consumed }, totalGenerated: { W: t.generated }, totalCumulative: { W: t.cumulative } });
