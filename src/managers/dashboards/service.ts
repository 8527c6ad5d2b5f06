/**
 * The dashboards service: dashboards (create/update/delete with validation), the widget stores
 * that follow their widget instances, widget store state for clients and apps, and the events
 * of all three. App widgets come from the catalog; autocomplete lives in autocomplete.ts.
 */
import { randomUUID } from 'node:crypto';
import { MiB } from '../../core/byte-bounds.js';
import { diff } from '../../core/diff.js';
import { conflict, invalid, notFound } from '../../core/errors.js';
import { JsonBytes } from '../../core/operation.js';
import type { Section, Store } from '../../core/store.js';
import type { ChoosableDevice } from '../../home/device-choice.js';
import type { HubBus } from '../bus.js';
import { type AppWidgetCatalog, isBuiltIn, type WidgetChange } from './app-widgets.js';
import { buildColumns } from './columns.js';
import { type ColumnsInput, type Dashboard, DashboardsSection, type DashboardsState, type DashboardView, LIMITS, SECTION, type WidgetStore } from './views.js';
import { type StoreChanges, syncStores } from './widget-stores.js';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export class DashboardsService {
  private section!: Section<DashboardsSection>;
  /** getDashboards answered as bytes until something it shows changes (the hot read). */
  /**
   * getDashboards' answer, for the section revision it was built from: a list built while a
   * change is being written (from the value before it) is not reused once the change is visible.
   */
  private listCache: { revision: number; bytes: Uint8Array } | null = null;

  constructor(
    private readonly store: Store,
    private readonly bus: HubBus,
    readonly catalog: AppWidgetCatalog,
    /** The home's devices, to check what a widget is given (null: the hub has no devices manager). */
    private readonly devices: ((id: string) => ChoosableDevice | null) | null = null,
  ) {}

  start(): void {
    this.section = this.store.section(SECTION, DashboardsSection(), () => ({ dashboards: {}, widgetStores: {} }), {
      bytes: { section: 8 * MiB, items: 'dashboards and widget stores' },
      records: [
        ['dashboards', '*'],
        ['widgetStores', '*'],
      ],
    });
  }

  // --- dashboards ---

  private view(d: Dashboard, installed: ReadonlySet<string> = this.installed()): DashboardView {
    const exists = (id: string): boolean => installed.has(id) || isBuiltIn(id);
    return {
      id: d.id,
      name: d.name,
      columns: d.columns.map((c) => ({
        id: c.id,
        widgets: c.widgets.map((w) => (exists(w.appWidgetId) ? { ...w } : { ...w, missing: true as const })),
      })),
    };
  }

  private installed(): Set<string> {
    return new Set(Object.keys(this.catalog.list()));
  }

  list(): JsonBytes<Record<string, DashboardView>> {
    if (this.listCache?.revision !== this.section.revision) {
      const installed = this.installed();
      const all = Object.fromEntries(Object.values(this.section.value.dashboards).map((d) => [d.id, this.view(d, installed)]));
      this.listCache = { revision: this.section.revision, bytes: Buffer.from(JSON.stringify(all)) };
    }
    return new JsonBytes(this.listCache.bytes);
  }

  get(id: string): DashboardView {
    return this.view(this.mustGet(id));
  }

  private mustGet(id: string): Dashboard {
    const d = this.section.value.dashboards[id];
    if (!d) throw notFound(`dashboard '${id}' does not exist`);
    return d;
  }

  /** Widget instance id -> dashboard id, for every dashboard of `all` but `except`. */
  private instancesElsewhere(all: DashboardsSection['dashboards'], except: string | null): Map<string, string> {
    const used = new Map<string, string>();
    for (const d of Object.values(all)) {
      if (d.id === except) continue;
      for (const c of d.columns) for (const w of c.widgets) used.set(w.id, d.id);
    }
    return used;
  }

  private columns(all: DashboardsSection['dashboards'], input: ColumnsInput, previous: Dashboard | null): Dashboard['columns'] {
    return buildColumns(input, {
      previous,
      usedElsewhere: this.instancesElsewhere(all, previous?.id ?? null),
      appWidgetExists: (id) => this.catalog.placeable(id),
      settingDefinitions: (id) => this.catalog.settingDefinitions(id),
      deviceChoice: (id) => this.catalog.deviceChoice(id),
      device: (id) => this.devices?.(id) ?? null,
    });
  }

  // Each change reads what it checks inside `update`: the store's `value` is what is on disk,
  // while `update` sees every change queued before it, so a check outside could pass for two
  // racing requests (two creates of one id, two claims of one widget id).
  async create(body: { id?: string | undefined; name: string; columns: ColumnsInput }): Promise<DashboardView> {
    const id = body.id ?? randomUUID();
    const { stores, view } = await this.section.update((d) => {
      if (d.dashboards[id]) throw conflict(`dashboard '${id}' exists already; update it with PUT instead`);
      const dashboard: Dashboard = { id, name: body.name, columns: this.columns(d.dashboards, body.columns, null) };
      d.dashboards[id] = dashboard;
      return { stores: syncStores(d), view: this.view(dashboard) };
    });
    this.bus.publish('dashboards', 'dashboard.create', view);
    this.publishStores(stores);
    return view;
  }

  async update(id: string, body: { id?: string | undefined; name?: string | undefined; columns?: ColumnsInput | undefined }): Promise<DashboardView> {
    if (body.id !== undefined && body.id !== id) throw invalid(`body field 'id' is '${body.id}' but the path names dashboard '${id}'; ids cannot change`);
    const { stores, view, before } = await this.section.update((d) => {
      const current = d.dashboards[id];
      if (!current) throw notFound(`dashboard '${id}' does not exist`);
      const next: Dashboard = {
        id,
        name: body.name ?? current.name,
        columns: body.columns ? this.columns(d.dashboards, body.columns, current) : current.columns,
      };
      const before = this.view(current);
      d.dashboards[id] = next;
      return { stores: syncStores(d), view: this.view(next), before };
    });
    const info = diff(before, view);
    if (info.changedKeys.length) this.bus.publish('dashboards', 'dashboard.update', view, info);
    this.publishStores(stores);
    return view;
  }

  async remove(id: string): Promise<void> {
    const { stores, view } = await this.section.update((d) => {
      const current = d.dashboards[id];
      if (!current) throw notFound(`dashboard '${id}' does not exist`);
      const view = this.view(current);
      delete d.dashboards[id];
      return { stores: syncStores(d), view };
    });
    this.bus.publish('dashboards', 'dashboard.delete', view);
    this.publishStores(stores);
  }

  private publishStores(changes: StoreChanges): void {
    for (const s of changes.deleted) this.bus.publish('dashboards', 'widgetstore.delete', s);
    for (const s of changes.created) this.bus.publish('dashboards', 'widgetstore.create', s);
  }

  // --- widget stores ---

  listStores(): Record<string, WidgetStore> {
    return clone(this.section.value.widgetStores);
  }

  getStore(id: string): WidgetStore {
    return clone(findStore(this.section.value.widgetStores, id));
  }

  /**
   * Merges `state` into the store's state (top-level keys), or replaces it with `replace`.
   * Resolves with the new state once it is on disk; 400 beyond 64 KiB of JSON. Merged inside
   * `update`, so racing merges build on each other and lose no key.
   */
  async setState(id: string, state: Record<string, unknown>, replace: boolean): Promise<Record<string, unknown>> {
    const { before, after } = await this.section.update((d) => {
      const store = findStore(d.widgetStores, id);
      const before = clone(store);
      const next = replace ? clone(state) : { ...store.state, ...clone(state) };
      const bytes = Buffer.byteLength(JSON.stringify(next));
      if (bytes > LIMITS.stateBytes) {
        throw invalid(`widget store state would be ${bytes} bytes as JSON; the limit is ${LIMITS.stateBytes} (64 KiB)`);
      }
      store.state = next;
      return { before, after: clone(store) };
    });
    const info = diff(before, after);
    if (info.changedKeys.length) this.bus.publish('dashboards', 'widgetstore.update', after, info);
    return after.state;
  }

  // --- app widgets, state ---

  /** Publishes what the catalog found changed; shown dashboards may gain or lose `missing`. */
  appWidgetsChanged(changes: readonly WidgetChange[]): void {
    if (changes.length) this.listCache = null;
    for (const c of changes) {
      if (c.kind === 'update') this.bus.publish('dashboards', 'appwidget.update', c.widget, c.info);
      else this.bus.publish('dashboards', `appwidget.${c.kind}`, c.widget);
    }
  }

  /** The catalog changed without events (seeded at start-up). */
  invalidate(): void {
    this.listCache = null;
  }

  state(): DashboardsState {
    const { dashboards, widgetStores } = this.section.value;
    const appWidgets = Object.values(this.catalog.list());
    const installed = new Set(appWidgets.map((w) => w.id));
    let widgets = 0;
    let missing = 0;
    for (const d of Object.values(dashboards)) {
      for (const c of d.columns) {
        widgets += c.widgets.length;
        for (const w of c.widgets) if (!installed.has(w.appWidgetId)) missing++;
      }
    }
    return {
      dashboards: Object.keys(dashboards).length,
      widgets,
      widgetStores: Object.keys(widgetStores).length,
      appWidgets: appWidgets.length,
      appWidgetsNotRunning: appWidgets.filter((w) => !this.catalog.running(w.ownerId)).length,
      missingWidgets: missing,
    };
  }
}

/** A widget store of `all`, or 404. */
function findStore(all: DashboardsSection['widgetStores'], id: string): WidgetStore {
  const s = all[id];
  if (!s) throw notFound(`widget store '${id}' does not exist; a store exists while its widget is on a dashboard`);
  return s;
}
