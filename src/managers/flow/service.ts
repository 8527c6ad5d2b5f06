/**
 * The home's flows and their folders, kept in the data file (`flows`, `flow-folders`; each
 * change written at once, part of every backup). A flow is checked when it is saved: its cards
 * exist and their arguments fit. A flow whose card, device or variable went away later is kept,
 * marked broken with the reason, and does not run until it is mended or what it needs is back.
 */
import { randomUUID } from 'node:crypto';
import { type CardKind, deviceOf } from '../../apps/manifest/flow-cards.js';
import { KiB, MiB } from '../../core/byte-bounds.js';
import { diff } from '../../core/diff.js';
import { conflict, invalid, notFound } from '../../core/errors.js';
import { nullRecord } from '../../core/null-prototype.js';
import type { RecordSection, Store } from '../../core/store.js';
import type { HubBus } from '../bus.js';
import type { FlowTokens } from '../flowtoken/registry.js';
import { argsProblem, tokensIn } from './arg-values.js';
import type { CardRegistry } from './cards.js';
import { TriggerFlows } from './trigger-flows.js';
import { FLOW_LIMITS, type FlowCreate, FlowRecord, type FlowUpdate, type FlowView, FolderRecord } from './views.js';

/** What the service asks of the rest of the hub: whether a device and an app exist. */
/** What a flow's cards name outside the flows: whether each still exists, and who hears of card changes. */
export interface FlowWorld {
  hasDevice(id: string): boolean;
  hasApp(appId: string): boolean;
  /** Told which apps' cards a flow change touched (the apps' cards emit `update`). */
  cardsChanged(cards: Array<{ appId: string; kind: CardKind; cardId: string }>): void;
}

type CardRef = { id: string; args: Record<string, unknown> };

/** Each card of a flow (or of the parts of one a change gives) with its kind, trigger first. */
export function refsOf(f: {
  trigger?: CardRef | undefined;
  conditions?: readonly CardRef[] | undefined;
  actions?: readonly CardRef[] | undefined;
}): Array<[CardKind, CardRef]> {
  return [
    ...(f.trigger ? [['trigger', f.trigger] as [CardKind, CardRef]] : []),
    ...(f.conditions ?? []).map((c) => ['condition', c] as [CardKind, CardRef]),
    ...(f.actions ?? []).map((a) => ['action', a] as [CardKind, CardRef]),
  ];
}

export class FlowsService {
  private flows!: RecordSection<FlowRecord>;
  private folders!: RecordSection<FolderRecord>;

  /** The app cards of the flows given (before and after a change), each once. */
  private touched(...flows: FlowRecord[]): void {
    const out = new Map<string, { appId: string; kind: CardKind; cardId: string }>();
    for (const f of flows) {
      const refs = refsOf(f);
      for (const [kind, ref] of refs) {
        if (!ref.id.startsWith('homey:app:')) continue;
        const [, , appId, ...rest] = ref.id.split(':');
        out.set(`${kind} ${ref.id}`, { appId: appId!, kind, cardId: rest.join(':') });
      }
    }
    if (out.size > 0) this.world.cardsChanged([...out.values()]);
    this.indexSoon();
  }

  constructor(
    private readonly store: Store,
    private readonly bus: HubBus,
    private readonly cards: CardRegistry,
    private readonly tokens: FlowTokens,
    private readonly world: FlowWorld,
  ) {}

  start(): void {
    this.flows = this.store.records('flows', FlowRecord(), { record: 64 * KiB, item: 'a flow', section: 8 * MiB, items: 'flows' });
    this.folders = this.store.records('flow-folders', FolderRecord(), { record: 4 * KiB, item: 'a flow folder', section: 512 * KiB, items: 'flow folders' });
  }

  // ---- flows ----------------------------------------------------------------------------------

  record(id: string): FlowRecord {
    const f = this.flows.value[id];
    if (!f) throw notFound(`flow '${id}' does not exist`);
    return f;
  }

  records(): FlowRecord[] {
    return Object.values(this.flows.value);
  }

  /**
   * A flow as it will be once the writes queued are on disk: what a change builds on and checks
   * against, so that two changes at once do not lose one (folders: `pendingFolder`).
   */
  private pending(id: string): FlowRecord {
    const f = this.flows.next[id];
    if (!f) throw notFound(`flow '${id}' does not exist`);
    return f;
  }

  private pendingFolder(id: string): FolderRecord {
    const f = this.folders.next[id];
    if (!f) throw notFound(`flow folder '${id}' does not exist`);
    return f;
  }

  /**
   * Enabled flows by trigger card, grouped again when the flows change. A card whose flows are
   * the same records as before keeps its TriggerFlows (and the lists made of it): a flow
   * saved costs the next trigger of another card nothing but the grouping.
   */
  private byTrigger: { revision: number; index: Map<string, TriggerFlows> } | null = null;

  /** The enabled flows whose trigger is the card `id` (the engine asks whether one that goes on is broken). */
  onTrigger(id: string): TriggerFlows {
    if (this.byTrigger?.revision !== this.flows.revision) this.regroup();
    return this.byTrigger!.index.get(id) ?? NO_FLOWS;
  }

  /** Groups the enabled flows by trigger card again; returns the cards' TriggerFlows made anew. */
  private regroup(): TriggerFlows[] {
    const revision = this.flows.revision;
    const on = new Map<string, FlowRecord[]>();
    for (const f of Object.values(this.flows.value)) {
      if (!f.enabled) continue;
      const list = on.get(f.trigger.id);
      if (list) list.push(f);
      else on.set(f.trigger.id, [f]);
    }
    const before = this.byTrigger?.index;
    const index = new Map<string, TriggerFlows>();
    const made: TriggerFlows[] = [];
    for (const [card, flows] of on) {
      const was = before?.get(card);
      const kept = was && sameRecords(was.flows, flows) ? was : new TriggerFlows(card, flows);
      if (kept !== was) made.push(kept);
      index.set(card, kept);
    }
    this.byTrigger = { revision, index };
    return made;
  }

  /** Set while a regroup waits for its turn (indexSoon). */
  private indexing: NodeJS.Immediate | null = null;

  /**
   * After a flow is written: the flows grouped by card again, with the lists of the cards whose
   * flows changed, in a turn of their own rather than in the path of the next trigger, which
   * waited for them (in the home bench's 402 flows, ~0.5 ms to group them and ~0.3 ms to list the
   * 202 on the card it saves a flow of, before each trigger).
   */
  private indexSoon(): void {
    this.indexing ??= setImmediate(() => {
      this.indexing = null;
      if (this.byTrigger?.revision === this.flows.revision) return;
      for (const t of this.regroup()) {
        // A card with a device argument is listed per device, as its triggers come.
        const card = this.cards.find('trigger', t.cardId);
        if (card && !card.deviceArg) t.list(card, null);
      }
    });
  }

  /** Why a flow cannot run now, or null: the first card, device or variable it names that is gone. */
  brokenReason(f: FlowRecord): string | null {
    const refs = refsOf(f);
    for (const [kind, ref] of refs) {
      const card = this.cards.find(kind, ref.id);
      if (!card) {
        const deviceId = ref.id.startsWith('homey:device:') ? ref.id.split(':')[2]! : null;
        if (deviceId && !this.world.hasDevice(deviceId)) return `the device of its ${kind} card ${ref.id} was deleted`;
        const appId = ref.id.startsWith('homey:app:') ? ref.id.split(':')[2]! : null;
        return appId && !this.world.hasApp(appId)
          ? `its ${kind} card ${ref.id} is gone: app '${appId}' is not installed`
          : `its ${kind} card ${ref.id} no longer exists`;
      }
      const device = deviceOf(card, ref.args);
      if (device !== null && !this.world.hasDevice(device)) return `the device of its ${kind} card ${ref.id} was deleted`;
      const gone = card.system?.broken?.(ref.args);
      if (gone) return `its ${kind} card ${ref.id}: ${gone}`;
      for (const token of tokensIn(ref.args)) {
        const bar = token.indexOf('|');
        if (bar < 0) continue;
        const uri = token.slice(0, bar);
        if (uri === 'homey:manager:logic' && !this.tokens.find(uri, token.slice(bar + 1))) return `the variable its ${kind} card ${ref.id} uses was deleted`;
        if (uri.startsWith('homey:app:') && !this.world.hasApp(uri.slice('homey:app:'.length)))
          return `the token [[${token}]] is gone: its app is not installed`;
      }
    }
    return null;
  }

  view(f: FlowRecord): FlowView {
    const reason = this.brokenReason(f);
    const uri = (id: string) => id.split(':', 3).join(':');
    const trigger = this.cards.find('trigger', f.trigger.id);
    return {
      id: f.id,
      name: f.name,
      folder: f.folder,
      enabled: f.enabled,
      triggerable: !trigger || trigger.tokens.length === 0,
      broken: reason !== null,
      brokenReason: reason,
      trigger: { ...f.trigger, uri: uri(f.trigger.id) },
      conditions: f.conditions.map((c) => ({ ...c, uri: uri(c.id) })),
      actions: f.actions.map((a) => ({ ...a, uri: uri(a.id) })),
    };
  }

  list(): Record<string, FlowView> {
    const out = nullRecord<FlowView>();
    for (const f of this.records()) out[f.id] = this.view(f);
    return out;
  }

  get(id: string): FlowView {
    return this.view(this.record(id));
  }

  /** Checks each card of a flow being saved: it exists, and its arguments fit. */
  private check(refs: Array<[CardKind, CardRef]>): void {
    for (const [kind, ref] of refs) {
      const card = this.cards.find(kind, ref.id);
      if (!card) throw invalid(`there is no ${kind} card '${ref.id}'`);
      const problem = argsProblem(card, ref.args);
      if (problem) throw invalid(problem);
      const device = deviceOf(card, ref.args);
      if (device !== null && !this.world.hasDevice(device)) throw invalid(`the device '${device}' of card '${card.title}' does not exist`);
    }
  }

  private checkFolder(folder: string | null | undefined): void {
    if (folder && !Object.hasOwn(this.folders.next, folder)) throw invalid(`flow folder '${folder}' does not exist`);
  }

  /** A flow that is not saved, checked as a saved one is (testFlow runs it). */
  unsaved(body: Pick<FlowCreate, 'trigger' | 'conditions' | 'actions'>): FlowRecord {
    this.check(refsOf(body));
    return {
      id: 'test',
      name: 'test',
      folder: null,
      enabled: true,
      trigger: body.trigger,
      conditions: body.conditions,
      actions: body.actions,
      created: new Date().toISOString(),
    };
  }

  async create(body: FlowCreate): Promise<FlowView> {
    if (Object.keys(this.flows.next).length >= FLOW_LIMITS.flows) throw conflict(`a home has at most ${FLOW_LIMITS.flows} flows`);
    this.checkFolder(body.folder);
    this.check(refsOf(body));
    const flow: FlowRecord = {
      id: randomUUID(),
      name: body.name,
      folder: body.folder ?? null,
      enabled: body.enabled,
      trigger: body.trigger,
      conditions: body.conditions,
      actions: body.actions,
      created: new Date().toISOString(),
    };
    await this.flows.updateSome([flow.id], (d) => {
      d[flow.id] = flow;
    });
    const view = this.view(flow);
    this.bus.publish('flow', 'flow.create', view);
    this.touched(flow);
    return view;
  }

  async update(id: string, patch: FlowUpdate): Promise<FlowView> {
    const before = this.pending(id);
    this.checkFolder(patch.folder);
    // Only the cards given are checked: a flow broken elsewhere can still be renamed or disabled.
    this.check(refsOf(patch));
    const next: FlowRecord = {
      ...before,
      name: patch.name ?? before.name,
      folder: patch.folder === undefined ? before.folder : patch.folder,
      enabled: patch.enabled ?? before.enabled,
      trigger: patch.trigger ?? before.trigger,
      conditions: patch.conditions ?? before.conditions,
      actions: patch.actions ?? before.actions,
    };
    await this.flows.updateSome([id], (d) => {
      d[id] = next;
    });
    const oldView = this.view(before);
    const view = this.view(next);
    this.bus.publish('flow', 'flow.update', view, diff(oldView, view));
    this.touched(before, next);
    return view;
  }

  async remove(id: string): Promise<void> {
    const before = this.pending(id);
    const view = this.view(before);
    await this.flows.updateSome([id], (d) => {
      delete d[id];
    });
    this.bus.publish('flow', 'flow.delete', view);
    this.touched(before);
  }

  // ---- folders --------------------------------------------------------------------------------

  folderList(): Record<string, FolderRecord> {
    return Object.assign(nullRecord<FolderRecord>(), this.folders.value);
  }

  folder(id: string): FolderRecord {
    const f = this.folders.value[id];
    if (!f) throw notFound(`flow folder '${id}' does not exist`);
    return f;
  }

  /** Whether `id` is `ancestor` or inside it. */
  private within(id: string, ancestor: string): boolean {
    const all = this.folders.next;
    for (let at: string | null = id, hops = 0; at !== null && hops <= FLOW_LIMITS.folders; at = all[at]?.parent ?? null, hops++) {
      if (at === ancestor) return true;
    }
    return false;
  }

  async createFolder(body: { name: string; parent?: string | null | undefined }): Promise<FolderRecord> {
    if (Object.keys(this.folders.next).length >= FLOW_LIMITS.folders) throw conflict(`a home has at most ${FLOW_LIMITS.folders} flow folders`);
    this.checkFolder(body.parent);
    const folder: FolderRecord = { id: randomUUID(), name: body.name, parent: body.parent ?? null };
    await this.folders.updateSome([folder.id], (d) => {
      d[folder.id] = folder;
    });
    this.bus.publish('flow', 'flowfolder.create', folder);
    return folder;
  }

  async updateFolder(id: string, patch: { name?: string | undefined; parent?: string | null | undefined }): Promise<FolderRecord> {
    const before = this.pendingFolder(id);
    if (patch.parent) {
      this.checkFolder(patch.parent);
      if (this.within(patch.parent, id)) throw conflict('a folder cannot be moved into itself or a folder inside it');
    }
    const next: FolderRecord = { ...before, name: patch.name ?? before.name, parent: patch.parent === undefined ? before.parent : patch.parent };
    await this.folders.updateSome([id], (d) => {
      d[id] = next;
    });
    this.bus.publish('flow', 'flowfolder.update', next, diff(before, next));
    return next;
  }

  /** Deletes a folder; what was in it moves to its parent (nothing is deleted with it). */
  async removeFolder(id: string): Promise<void> {
    const folder = this.pendingFolder(id);
    const children = Object.values(this.folders.next).filter((f) => f.parent === id);
    await this.folders.updateSome([id, ...children.map((c) => c.id)], (d) => {
      delete d[id];
      for (const c of children) d[c.id] = { ...c, parent: folder.parent };
    });
    for (const c of children) this.bus.publish('flow', 'flowfolder.update', { ...c, parent: folder.parent }, diff(c, { ...c, parent: folder.parent }));
    // The flows in it as they are once the folder's write is done (one may have moved meanwhile).
    const flows = Object.values(this.flows.next).filter((f) => f.folder === id);
    if (flows.length) {
      await this.flows.updateSome(
        flows.map((f) => f.id),
        (d) => {
          for (const f of flows) d[f.id] = { ...f, folder: folder.parent };
        },
      );
      for (const f of flows)
        this.bus.publish('flow', 'flow.update', this.view({ ...f, folder: folder.parent }), diff(this.view(f), this.view({ ...f, folder: folder.parent })));
      this.indexSoon();
    }
    this.bus.publish('flow', 'flowfolder.delete', folder);
  }
}

/** A card no enabled flow is on (most cards a capability change fires): one object for all of them. */
const NO_FLOWS = new TriggerFlows('none', []);

/** The same flow records in the same order (a record changed is a new object: the store's records are replaced, never edited). */
function sameRecords(a: readonly FlowRecord[], b: readonly FlowRecord[]): boolean {
  return a.length === b.length && a.every((f, i) => f === b[i]);
}
