/**
 * The home's totals (drawn, made, what its meters say), kept as each device's energy changes
 * rather than summed over every device when asked: the energy manager's report every 2 s summed a
 * 1,000-device home's, 4-6 ms of the hub's loop each time, which every change arriving meanwhile
 * waited for. Each device's share is in µW (live.ts, shareOf), so taking one away and adding its
 * next is exact: the totals are the numbers a live report of the whole home sums to.
 */
import type { DeviceEnergy } from './device-energy.js';
import { type Share, shareOf, sumW } from './live.js';

export interface Totals {
  readonly consumed: number;
  readonly generated: number;
  /** null while no meter has a reading. */
  readonly cumulative: number | null;
}

export class HomeTotals {
  private readonly shares = new Map<string, Share>();
  private consumed = 0;
  private generated = 0;
  private cumulative = 0;
  /** Meters with a reading: the cumulative total is null without one. */
  private meters = 0;

  /** Device `id`'s energy is now `e` (null: it counts for nothing). */
  set(id: string, e: DeviceEnergy | null): void {
    this.delete(id);
    if (!e) return;
    const s = shareOf(e);
    this.shares.set(id, s);
    this.consumed += s.consumed;
    this.generated += s.generated;
    if (s.cumulative !== null) {
      this.cumulative += s.cumulative;
      this.meters += 1;
    }
  }

  delete(id: string): void {
    const s = this.shares.get(id);
    if (!s) return;
    this.shares.delete(id);
    this.consumed -= s.consumed;
    this.generated -= s.generated;
    if (s.cumulative !== null) {
      this.cumulative -= s.cumulative;
      this.meters -= 1;
    }
  }

  /** The totals in W, to the hundredth (as a live report shows them). */
  totals(): Totals {
    return { consumed: sumW(this.consumed), generated: sumW(this.generated), cumulative: this.meters === 0 ? null : sumW(this.cumulative) };
  }
}
