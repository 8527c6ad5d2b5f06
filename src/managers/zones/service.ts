/**
 * The zones of the home, kept in the data file's `zones` section: a tree with one root, made on
 * the first start ("Home"). Devices name their zone; `hasDevices` asks the devices manager
 * whether a zone still holds any before it is deleted.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { KiB } from '../../core/byte-bounds.js';
import { diff } from '../../core/diff.js';
import { conflict, HearthError, notFound } from '../../core/errors.js';
import { nullRecord, safeRecord } from '../../core/null-prototype.js';
import type { Section, Store } from '../../core/store.js';
import type { HubBus } from '../bus.js';
import type { ZoneView } from './contract.js';

const ZoneRecord = z.object({ id: z.string(), name: z.string(), parent: z.string().nullable(), icon: z.string() });
type ZoneRecord = z.infer<typeof ZoneRecord>;
const ZonesSection = z.object({ root: z.string(), zones: safeRecord(z.string(), ZoneRecord) });
type ZonesSection = z.infer<typeof ZonesSection>;

/** Zones a home may have: far more than any house has rooms. */
const MAX_ZONES = 500;

function initial(): ZonesSection {
  const root = randomUUID();
  const zones = nullRecord<ZoneRecord>();
  zones[root] = { id: root, name: 'Home', parent: null, icon: 'home' };
  return { root, zones };
}

export class ZonesService {
  private section!: Section<ZonesSection>;
  /** Set by the devices manager: whether any device is in the zone, once the writes queued are on disk. */
  hasDevices: (zoneId: string) => boolean = () => false;

  constructor(
    private readonly store: Store,
    private readonly bus: HubBus,
  ) {}

  async start(): Promise<void> {
    const first = !this.store.holds('zones');
    this.section = this.store.section('zones', ZonesSection, initial, { bytes: { section: 512 * KiB, items: 'zones' }, records: [['zones', '*']] });
    // The root made on the first start is written then, so it keeps its id from then on.
    if (first) await this.section.update(() => undefined);
    await this.mendSetAside();
  }

  /**
   * A zone set aside at open (its record did not parse) leaves its children without a parent:
   * they move to the home, and a home set aside is made again under its id, so every zone and
   * every device in one stays on the Devices page.
   */
  private async mendSetAside(): Promise<void> {
    const { root, zones } = this.section.value;
    const orphans = Object.values(zones).filter((z) => z.id !== root && (z.parent === null || !Object.hasOwn(zones, z.parent)));
    if (orphans.length === 0 && Object.hasOwn(zones, root)) return;
    await this.section.update((d) => {
      if (!Object.hasOwn(d.zones, d.root)) d.zones[d.root] = { id: d.root, name: 'Home', parent: null, icon: 'home' };
      for (const o of orphans) d.zones[o.id] = { ...o, parent: d.root };
    });
  }

  get root(): string {
    return this.section.value.root;
  }

  private view(z: ZoneRecord): ZoneView {
    return { ...z, active: false, activeLastUpdated: null };
  }

  list(): Record<string, ZoneView> {
    const out = nullRecord<ZoneView>();
    for (const z of Object.values(this.section.value.zones)) out[z.id] = this.view(z);
    return out;
  }

  has(id: string): boolean {
    return Object.hasOwn(this.section.value.zones, id);
  }

  /** Moves with every change of the tree: what is derived from it is made again when it does. */
  get revision(): number {
    return this.section.revision;
  }

  /** `ids` (those that exist) and every zone inside them. */
  inside(ids: readonly string[]): Set<string> {
    const zones = Object.values(this.section.value.zones);
    const out = new Set(ids.filter((id) => this.has(id)));
    // Breadth first over the tree: a zone joins once its parent has.
    for (let grew = true; grew; ) {
      grew = false;
      for (const z of zones) {
        if (z.parent !== null && out.has(z.parent) && !out.has(z.id)) {
          out.add(z.id);
          grew = true;
        }
      }
    }
    return out;
  }

  /**
   * Whether zone `id` exists once the writes queued are on disk: what a check before a write asks
   * (a device moved into a zone being deleted is refused, whichever request came first).
   */
  exists(id: string): boolean {
    return Object.hasOwn(this.section.next.zones, id);
  }

  /** A zone as it will be once the writes queued are on disk, for a change to build on. */
  private pending(id: string): ZoneRecord {
    const zone = this.section.next.zones[id];
    if (!zone) throw notFound(`zone '${id}' does not exist`);
    return zone;
  }

  get(id: string): ZoneView {
    if (!this.has(id)) throw notFound(`zone '${id}' does not exist`);
    return this.view(this.section.value.zones[id]!);
  }

  /** Whether `id` is `ancestor` or inside it. */
  private within(id: string, ancestor: string): boolean {
    const zones = this.section.next.zones;
    for (let at: string | null = id, hops = 0; at !== null && hops <= MAX_ZONES; at = zones[at]?.parent ?? null, hops++) {
      if (at === ancestor) return true;
    }
    return false;
  }

  async create(body: { name: string; parent: string; icon?: string | undefined }): Promise<ZoneView> {
    if (!this.exists(body.parent)) throw new HearthError('invalid_parameter', `parent zone '${body.parent}' does not exist`);
    if (Object.keys(this.section.next.zones).length >= MAX_ZONES) throw conflict(`a home has at most ${MAX_ZONES} zones`);
    const zone: ZoneRecord = { id: randomUUID(), name: body.name, parent: body.parent, icon: body.icon ?? 'other' };
    await this.section.update((d) => {
      d.zones = { ...d.zones, [zone.id]: zone };
    });
    const view = this.view(zone);
    this.bus.publish('zones', 'zone.create', view);
    return view;
  }

  async update(id: string, patch: { name?: string | undefined; parent?: string | undefined; icon?: string | undefined }): Promise<ZoneView> {
    const before = this.view(this.pending(id));
    if (patch.parent !== undefined) {
      if (id === this.root) throw conflict('the root zone cannot be moved');
      if (!this.exists(patch.parent)) throw new HearthError('invalid_parameter', `parent zone '${patch.parent}' does not exist`);
      if (this.within(patch.parent, id)) throw conflict('a zone cannot be moved into itself or a zone inside it');
    }
    const next: ZoneRecord = {
      id,
      name: patch.name ?? before.name,
      parent: patch.parent ?? before.parent,
      icon: patch.icon ?? before.icon,
    };
    await this.section.update((d) => {
      d.zones = { ...d.zones, [id]: next };
    });
    const view = this.view(next);
    this.bus.publish('zones', 'zone.update', view, diff(before, view));
    return view;
  }

  async remove(id: string): Promise<void> {
    const zone = this.view(this.pending(id));
    if (id === this.root) throw conflict('the root zone cannot be deleted');
    if (Object.values(this.section.next.zones).some((z) => z.parent === id)) throw conflict(`zone '${zone.name}' has zones in it; move or delete them first`);
    if (this.hasDevices(id)) throw conflict(`zone '${zone.name}' has devices in it; move or delete them first`);
    await this.section.update((d) => {
      const zones = { ...d.zones };
      delete zones[id];
      d.zones = zones;
    });
    this.bus.publish('zones', 'zone.delete', zone);
  }
}
