/**
 * The home's moods, kept in the `moods` record section: each a name, a zone and the values its
 * devices take. Made from the values given, or from how the zone's devices are now (the
 * capabilities a mood is about: switched, dimmed, coloured, shutters, thermostats). Applying one
 * sets every device through its app at once, each device's values in order (on or off first),
 * and says which did not follow and why: one app stopped does not stop the others.
 */
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../core/actor.js';
import { KiB } from '../../core/byte-bounds.js';
import { diff } from '../../core/diff.js';
import { conflict, invalid, notFound } from '../../core/errors.js';
import { nullRecord } from '../../core/null-prototype.js';
import type { RecordSection, Store } from '../../core/store.js';
import { valueProblem } from '../../home/capability.js';
import type { HubBus } from '../bus.js';
import type { DevicesService } from '../devices/service.js';
import type { ZonesService } from '../zones/service.js';
import { MAX_MOODS, type MoodResult, MoodView } from './contract.js';

/** What a mood is about, in the order they are set (on or off first, then the rest). */
export const MOOD_CAPABILITIES = [
  'onoff',
  'light_mode',
  'light_temperature',
  'light_hue',
  'light_saturation',
  'dim',
  'windowcoverings_set',
  'thermostat_mode',
  'target_temperature',
] as const;

type Devices = MoodView['devices'];

export class MoodsService {
  private section!: RecordSection<MoodView>;

  constructor(
    private readonly store: Store,
    private readonly bus: HubBus,
    private readonly devices: DevicesService,
    private readonly zones: ZonesService,
  ) {}

  start(): void {
    this.section = this.store.records('moods', MoodView(), { record: 16 * KiB, item: 'a mood', section: MAX_MOODS * 16 * KiB, items: 'moods' });
  }

  list(): Record<string, MoodView> {
    return Object.assign(nullRecord<MoodView>(), this.section.value);
  }

  get(id: string): MoodView {
    const mood = Object.hasOwn(this.section.value, id) ? this.section.value[id] : undefined;
    if (!mood) throw notFound(`mood '${id}' does not exist`);
    return mood;
  }

  /** How the zone's devices (and those of the zones inside it) are now, in what a mood is about. */
  now(zone: string): Devices {
    const zones = this.zones.inside([zone]);
    const out: Devices = {};
    for (const r of this.devices.records()) {
      if (!zones.has(r.zone)) continue;
      const state: Record<string, string | boolean | number> = {};
      for (const cap of MOOD_CAPABILITIES) {
        if (!r.capabilities.includes(cap)) continue;
        const value = this.devices.getCapabilityValue(r.id, cap);
        if (value !== null) state[cap] = value;
      }
      if (Object.keys(state).length > 0) out[r.id] = { state };
    }
    return out;
  }

  /** Each device exists and each value is one its capability takes; else a sentence naming it. */
  private check(devices: Devices): void {
    for (const [id, { state }] of Object.entries(devices)) {
      if (!this.devices.has(id)) throw invalid(`device '${id}' does not exist`);
      const record = this.devices.record(id);
      for (const [cap, value] of Object.entries(state)) {
        const facts = this.devices.facts(record, cap);
        if (!facts.setable) throw invalid(`${facts.title} of '${record.name}' cannot be set, so no mood can set it`);
        const problem = valueProblem(facts, value);
        if (problem) throw invalid(`${facts.title} of '${record.name}': ${problem}`);
      }
    }
  }

  async create(body: { name: string; zone: string; devices?: Devices | undefined; preset?: string | null | undefined }): Promise<MoodView> {
    if (!this.zones.exists(body.zone)) throw invalid(`zone '${body.zone}' does not exist`);
    if (Object.keys(this.section.next).length >= MAX_MOODS) throw conflict(`the home keeps at most ${MAX_MOODS} moods; delete one first`);
    const devices = body.devices ?? this.now(body.zone);
    // A mood that sets nothing would do nothing when tapped: say so rather than keep it.
    if (Object.keys(devices).length === 0)
      throw invalid(body.devices ? 'a mood sets at least one device' : 'this room has no device a mood can set (lights, blinds, thermostats): add one first');
    this.check(devices);
    const mood: MoodView = { id: randomUUID(), name: body.name, preset: body.preset ?? null, zone: body.zone, devices };
    await this.section.updateSome([mood.id], (d) => {
      d[mood.id] = mood;
    });
    this.bus.publish('moods', 'mood.create', mood);
    return mood;
  }

  async update(id: string, patch: { name?: string | undefined; devices?: Devices | undefined; preset?: string | null | undefined }): Promise<MoodView> {
    const before = this.get(id);
    if (patch.devices) this.check(patch.devices);
    const after: MoodView = {
      ...before,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.devices !== undefined ? { devices: patch.devices } : {}),
      ...(patch.preset !== undefined ? { preset: patch.preset } : {}),
    };
    await this.section.updateSome([id], (d) => {
      if (!d[id]) throw notFound(`mood '${id}' does not exist`);
      d[id] = after;
    });
    this.bus.publish('moods', 'mood.update', after, diff(before, after));
    return after;
  }

  async remove(id: string): Promise<void> {
    const mood = this.get(id);
    await this.section.updateSome([id], (d) => void delete d[id]);
    this.bus.publish('moods', 'mood.delete', mood);
  }

  /** Applies mood `id` (as `by`): every device at once; those that did not follow, with why. */
  async apply(id: string, by: Actor | null): Promise<MoodResult> {
    const mood = this.get(id);
    const results = await Promise.all(
      Object.entries(mood.devices).map(async ([deviceId, { state }]) => {
        const name = this.devices.has(deviceId) ? this.devices.record(deviceId).name : deviceId;
        try {
          if (!this.devices.has(deviceId)) throw new Error('it was removed from the home');
          // Off is off: the rest of a switched-off lamp's values are not sent to wake it.
          const caps = state.onoff === false ? ['onoff'] : MOOD_CAPABILITIES.filter((c) => c in state);
          for (const cap of caps) await this.devices.setCapabilityValue(deviceId, cap, state[cap], {}, undefined, by);
          return { ok: true as const, id: deviceId };
        } catch (err) {
          return { ok: false as const, id: deviceId, name, reason: err instanceof Error ? err.message : String(err) };
        }
      }),
    );
    return {
      mood: mood.id,
      followed: results.filter((r) => r.ok).map((r) => r.id),
      failed: results.flatMap((r) => (r.ok ? [] : [{ id: r.id, name: r.name, reason: r.reason }])),
    };
  }
}
