/**
 * The home's alarms, kept in the `alarms` record section, and the minute clock that rings them:
 * at the start of each minute, every alarm that is on, set to that wall time in the hub's zone
 * and due that weekday (or set once) rings, at most once a day (the hour the clocks go back has
 * each minute twice: it rings at the first), and one set once turns itself off. A minute the hub
 * did not see (it was stopped, the machine slept) is not caught up: a wake-up alarm an hour late
 * is not one. A time the clocks skip that day (the hour they go forward) does not ring that day.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { KiB } from '../../core/byte-bounds.js';
import type { WallClock } from '../../core/cron.js';
import { diff } from '../../core/diff.js';
import { conflict, notFound } from '../../core/errors.js';
import type { RecordSection, Store } from '../../core/store.js';
import type { HubBus } from '../bus.js';
import { type AlarmView, DAYS, MAX_ALARMS, type Repetition } from './contract.js';

const MINUTE = 60_000;

const AlarmRecord = z.object({
  id: z.string(),
  name: z.string(),
  time: z.string(),
  enabled: z.boolean(),
  repetition: z.record(z.enum(DAYS), z.boolean()),
  /** The local date (YYYY-MM-DD) it last rang: once a day at most. */
  lastRang: z.string().nullable(),
});
type AlarmRecord = z.infer<typeof AlarmRecord>;

const NONE: Repetition = { monday: false, tuesday: false, wednesday: false, thursday: false, friday: false, saturday: false, sunday: false };
const pad = (n: number) => String(n).padStart(2, '0');
const dayName = (weekday: number) => DAYS[(weekday + 6) % 7]!;
const repeats = (r: Record<string, boolean>) => Object.values(r).some(Boolean);

export class AlarmsService {
  private section!: RecordSection<AlarmRecord>;
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<(alarm: AlarmView) => void>();

  constructor(
    private readonly store: Store,
    private readonly bus: HubBus,
    private readonly clock: WallClock,
    private readonly now: () => number = Date.now,
  ) {}

  /** Opens the alarms (without the clock: `start` runs it). */
  open(): void {
    this.section = this.store.records('alarms', AlarmRecord, { record: 2 * KiB, item: 'an alarm', section: MAX_ALARMS * 2 * KiB, items: 'alarms' });
  }

  start(): void {
    this.open();
    this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Hears each alarm that goes off (the flow trigger). */
  onRing(listener: (alarm: AlarmView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** When `a` goes off next, or null (off). */
  private next(a: AlarmRecord): string | null {
    if (!a.enabled) return null;
    const [hour, minute] = a.time.split(':').map(Number) as [number, number];
    const now = this.now();
    const today = this.clock.parts(now);
    for (let d = 0; d < 9; d++) {
      // Noon of the day d days on, in the zone: its date, whatever the clocks do that day.
      const noon = this.clock.instant(today.year, today.month, today.day, 12, 0, 0);
      if (noon === null) return null;
      const p = this.clock.parts(noon + d * 24 * 3_600_000);
      if (repeats(a.repetition) && !a.repetition[dayName(p.weekday)]) continue;
      const at = this.clock.instant(p.year, p.month, p.day, hour, minute, 0);
      if (at === null || at <= now || a.lastRang === `${p.year}-${pad(p.month)}-${pad(p.day)}`) continue;
      return new Date(at).toISOString();
    }
    return null;
  }

  private view(a: AlarmRecord): AlarmView {
    return { id: a.id, name: a.name, time: a.time, enabled: a.enabled, repetition: { ...NONE, ...a.repetition }, nextOccurrence: this.next(a) };
  }

  list(): Record<string, AlarmView> {
    return Object.fromEntries(Object.values(this.section.value).map((a) => [a.id, this.view(a)]));
  }

  get(id: string): AlarmView {
    const a = Object.hasOwn(this.section.value, id) ? this.section.value[id] : undefined;
    if (!a) throw notFound(`alarm '${id}' does not exist`);
    return this.view(a);
  }

  async create(body: { name: string; time: string; enabled: boolean; repetition?: Repetition | undefined }): Promise<AlarmView> {
    if (Object.keys(this.section.next).length >= MAX_ALARMS) throw conflict(`the home keeps at most ${MAX_ALARMS} alarms; delete one first`);
    const a: AlarmRecord = {
      id: randomUUID(),
      name: body.name,
      time: body.time,
      enabled: body.enabled,
      repetition: { ...(body.repetition ?? NONE) },
      lastRang: null,
    };
    await this.section.updateSome([a.id], (d) => void (d[a.id] = a));
    const view = this.view(a);
    this.bus.publish('alarms', 'alarm.create', view);
    return view;
  }

  async update(
    id: string,
    patch: { name?: string | undefined; time?: string | undefined; enabled?: boolean | undefined; repetition?: Repetition | undefined },
  ): Promise<AlarmView> {
    const before = this.get(id);
    let after: AlarmRecord | undefined;
    await this.section.updateSome([id], (d) => {
      const a = d[id];
      if (!a) throw notFound(`alarm '${id}' does not exist`);
      if (patch.name !== undefined) a.name = patch.name;
      if (patch.time !== undefined) a.time = patch.time;
      if (patch.enabled !== undefined) a.enabled = patch.enabled;
      if (patch.repetition !== undefined) a.repetition = { ...patch.repetition };
      // Set again: it may ring again today.
      if (patch.time !== undefined || patch.enabled === true) a.lastRang = null;
      after = a;
    });
    const view = this.view(after!);
    this.bus.publish('alarms', 'alarm.update', view, diff(before, view));
    return view;
  }

  async remove(id: string): Promise<void> {
    const view = this.get(id);
    await this.section.updateSome([id], (d) => void delete d[id]);
    this.bus.publish('alarms', 'alarm.delete', view);
  }

  private schedule(): void {
    const now = this.now();
    const next = Math.floor(now / MINUTE) * MINUTE + MINUTE;
    this.timer = setTimeout(() => {
      this.schedule();
      void this.tick(next);
    }, next - now);
    this.timer.unref();
  }

  /** The minute starting at `minute` (ms) has begun: the alarms due ring (none when it came a minute or more late). */
  async tick(minute: number): Promise<void> {
    if (this.now() - minute >= MINUTE) return;
    const p = this.clock.parts(minute);
    const time = `${pad(p.hour)}:${pad(p.minute)}`;
    const date = `${p.year}-${pad(p.month)}-${pad(p.day)}`;
    const day = dayName(p.weekday);
    const due = Object.values(this.section.value).filter(
      (a) => a.enabled && a.time === time && a.lastRang !== date && (!repeats(a.repetition) || a.repetition[day] === true),
    );
    for (const a of due) {
      const before = this.view(a);
      let rang: AlarmRecord | undefined;
      await this.section.updateSome([a.id], (d) => {
        const r = d[a.id];
        if (!r) return;
        r.lastRang = date;
        // Set once: rung, it is off.
        if (!repeats(r.repetition)) r.enabled = false;
        rang = r;
      });
      if (!rang) continue;
      const view = this.view(rang);
      this.bus.publish('alarms', 'alarm.update', view, diff(before, view));
      for (const l of this.listeners) l(view);
    }
  }
}
