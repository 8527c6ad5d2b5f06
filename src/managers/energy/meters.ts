/**
 * The kWh of devices that count none themselves (a lamp with an estimate, a plug with only
 * `measure_power`): the hub adds up their power over time (each reading held until the next, as
 * Homey does) into a cumulative log of the device's own (`homey:device:<id>:energy.calculated`),
 * written once a minute for the devices whose power was not zero. A device whose power is not
 * known (its app is down, no reading yet) counts nothing until it is; the hub counts nothing
 * while it is not running. A restart carries on from the log's last value.
 */
import type { Logger } from 'pino';
import { deviceOwnerUri } from '../../core/owners.js';
import { SLOT_MS } from '../insights/levels.js';
import type { InsightsService } from '../insights/service.js';
import { CALCULATED_LOG } from './device-energy.js';

interface Counter {
  /** The power held since `since` (W), or null: not known. */
  W: number | null;
  since: number;
  kWh: number;
  written: number;
}

/** The insights key of a device's calculated kWh. */
export const calculatedKey = (deviceId: string): string => `${deviceOwnerUri(deviceId)}:${CALCULATED_LOG}`;

export class EnergyMeters {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly insights: InsightsService,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  /** Devices counted. */
  get size(): number {
    return this.counters.size;
  }

  has(deviceId: string): boolean {
    return this.counters.has(deviceId);
  }

  /** The device's power from now on (null: not known); makes its log on first sight. */
  power(deviceId: string, W: number | null): void {
    const t = this.now();
    let c = this.counters.get(deviceId);
    if (!c) {
      const kWh = this.open(deviceId);
      if (kWh === null) return;
      c = { W: null, since: t, kWh, written: kWh };
      this.counters.set(deviceId, c);
    }
    this.advance(c, t);
    c.W = W === null ? null : Math.abs(W);
  }

  /** Stops counting a device (deleted, or it has a meter of its own now); its log stays with the device. */
  forget(deviceId: string): void {
    const c = this.counters.get(deviceId);
    if (c) this.write(deviceId, c);
    this.counters.delete(deviceId);
  }

  /** Brings every counter up to now and writes those that moved: the minute tick, and at stop. */
  flush(): void {
    const t = this.now();
    for (const [id, c] of this.counters) {
      this.advance(c, t);
      this.write(id, c);
    }
  }

  private advance(c: Counter, t: number): void {
    if (c.W !== null && t > c.since) c.kWh += (c.W * (t - c.since)) / 3_600_000_000;
    c.since = t;
  }

  private write(deviceId: string, c: Counter): void {
    const kWh = Math.round(c.kWh * 1_000_000) / 1_000_000;
    if (kWh === c.written) return;
    try {
      // Dated in the slot just closed: insights holds the open one back a moment, and a report
      // asked now should read what was counted up to now.
      this.insights.createEntry(calculatedKey(deviceId), kWh, this.now() - SLOT_MS);
      c.written = kWh;
    } catch (err) {
      this.log.warn({ err, device: deviceId }, 'could not log the energy worked out for a device');
    }
  }

  /** The device's log (made when missing) and its last value; null when insights refused it. */
  private open(deviceId: string): number | null {
    try {
      const known = this.insights.lastOf(calculatedKey(deviceId));
      if (known) return known.value ?? 0;
      this.insights.createLog(deviceOwnerUri(deviceId), CALCULATED_LOG, { title: 'Energy (from power)', type: 'number', units: 'kWh', decimals: 3 });
      return 0;
    } catch (err) {
      this.log.warn({ err, device: deviceId }, 'could not make the energy log of a device');
      return null;
    }
  }
}
