import { join } from 'node:path';
import { MiB } from '../../core/byte-bounds.js';
import { notFound } from '../../core/errors.js';
import { makeDirs } from '../../core/files.js';
import { appOwnerUri } from '../../core/owners.js';
import type { RecordSection } from '../../core/store.js';
import { systemZone } from '../../core/system-zone.js';
import { type AppFolder, type Locales, loadAppFolder } from '../manifest/compose.js';
import { APP_ID, type AppManifest } from '../manifest/manifest.js';
import { AppCalls } from './app-calls.js';
import { AppRecord, networkGranted, newRecord, STORE_SECTION } from './app-record.js';
import { type AppLimitDefaults, childSpec, DEFAULT_LIMITS, type SpecContext } from './app-spec.js';
import { type HubState, type Locale, localeEvent, locationEvent } from './app-state.js';
import { type App, viewOf } from './app-view.js';
import { type AppLog, type CrashLog, crashLogOf, recordCrash, withReport } from './crash-log.js';
import { OwnerDecisions } from './decisions.js';
import { appFolderNames, FolderWatch, newAppFolders } from './folder-watch.js';
import { beginSandboxProbe, type PreparedHost, prepareHost } from './host-prep.js';
import { countHubDeaths, forgiveHubDeaths, RunningApps } from './hub-deaths.js';
import { killRecorded } from './leftovers.js';
import { AppPushes } from './pushes.js';
import { type CallerApp, SdkRouter } from './router.js';
import type { AppEventKind, RuntimeHooks, RuntimeOptions } from './runtime-options.js';
import type { Sandbox } from './sandbox.js';
import { AppSettings } from './settings.js';
import { StartGate } from './start-gate.js';
import { AppSupervisor, DEFAULT_SUPERVISOR_OPTIONS, type SupervisorOptions } from './supervisor.js';

export { type AppLimitDefaults, DEFAULT_LIMITS } from './app-spec.js';
export type { Locale } from './app-state.js';
export type { App } from './app-view.js';
export type { CrashLog } from './crash-log.js';
export type { AppEventKind, RuntimeHooks, RuntimeOptions };

/** A hub up this long has broken any row of deaths: its next death counts as the first. */
const STABLE_AFTER_MS = 10 * 60_000;

interface Entry {
  id: string;
  dir: string;
  folder: AppFolder | null;
  /** Why the app cannot start: its folder is unusable, or it needs what hearth has not. */
  problem: string | null;
  supervisor: AppSupervisor;
}

export class AppRuntime {
  readonly router = new SdkRouter();
  private readonly entries = new Map<string, Entry>();
  /** What apps push to the home's pages and people, within their budgets (pushes.ts). */
  private readonly pushes = new AppPushes({
    realtime: (e) => this.opts.hooks?.realtime?.(e),
    notification: (appId, excerpt) => this.opts.hooks?.notification?.(appId, excerpt),
    log: (appId, line) => this.entries.get(appId)?.supervisor.stdout.push(line),
  });
  /** Ids an install or uninstall is working on: a rescan leaves their folders alone. */
  private readonly claimed = new Set<string>();
  private section!: RecordSection<AppRecord>;
  private readonly supervisorOptions: SupervisorOptions;
  /** Every app's start waits its turn here: one start a core (start-gate.ts). */
  private readonly startGate: StartGate;
  private unregister: Array<() => void> = [];
  private sdk: PreparedHost['sdk'] = { link: '', modules: '', lent: [] };
  private sandbox: Sandbox = { containment: 'permission-model-only', reason: 'not started yet', nestedUserns: 'not-forbidden', note: null, hold: null };
  private readonly limitDefaults: AppLimitDefaults;
  private readonly watch: FolderWatch;
  private readonly hub: HubState;
  private readonly running: RunningApps;
  private stableTimer: NodeJS.Timeout | undefined;
  private probing: Promise<Sandbox> | undefined;
  /** The owner's decisions of an app (enable, restart, network). */
  readonly decisions = new OwnerDecisions({
    supervisor: (id) => this.mustGet(id).supervisor,
    record: (id) => this.record(id),
    update: (id, change) => this.section.updateSome([id], change),
    reread: async (id) => {
      await this.add(id, this.record(id).origin, this.record(id).channel, false);
    },
    unstartable: (id) => this.unstartable(this.mustGet(id)),
    app: (id) => this.get(id),
    announce: (app) => this.onEvent('update', app),
  });
  /** The hub's calls into a running app (gc, autocomplete, its Web API). */
  readonly calls = new AppCalls((id) => this.mustGet(id).supervisor);
  readonly settings = new AppSettings({
    section: () => this.section,
    app: (id) => {
      const e = this.mustGet(id);
      return {
        manifest: e.folder?.manifest ?? null,
        changed: (event, fromApp, by) => {
          if (!fromApp) e.supervisor.notify(event);
          this.opts.hooks?.realtime?.({ appId: id, event: event.name, data: event.key, by });
        },
      };
    },
  });

  private onEvent(kind: AppEventKind, app: App): void {
    this.opts.hooks?.event?.(kind, app);
  }

  constructor(private readonly opts: RuntimeOptions) {
    this.probing = opts.sandboxProbe;
    this.supervisorOptions = { ...DEFAULT_SUPERVISOR_OPTIONS, ...opts.supervisor, heapMb: opts.heapMb };
    this.startGate = new StartGate(this.supervisorOptions.startsAtOnce);
    this.limitDefaults = { ...DEFAULT_LIMITS, ...opts.limits };
    this.watch = new FolderWatch(opts.appsDir, () => this.rescan(), opts.log);
    this.running = new RunningApps(join(opts.dataDir, 'apps'));
    this.hub = {
      locale: () => this.locale(),
      location: () => opts.location?.() ?? null,
      timeZone: opts.timeZone ?? systemZone(),
      hubId: opts.hubId ?? '000000000000000000000000',
    };
  }

  get appsDir(): string {
    return this.opts.appsDir;
  }

  get dataDir(): string {
    return this.opts.dataDir;
  }

  locale(): Locale {
    return this.opts.locale?.() ?? { language: 'en', units: 'metric' };
  }

  /** `<data-dir>/apps/<id>`: the runtime's own area for an app (logs + userdata). */
  dataDirOf(id: string): string {
    return join(this.opts.dataDir, 'apps', id);
  }

  async start(): Promise<void> {
    // An app's record holds its settings (1 MiB at most) and crash reports.
    // A record per app: an app's setting written is that app's record, not every app's.
    this.section = this.opts.store.records(STORE_SECTION, AppRecord, { record: 4 * MiB, item: "an app's record", section: 32 * MiB, items: 'apps records' });
    this.unregister.push(...this.settings.register(this.router), ...this.pushes.register(this.router));
    const probed = this.probing ?? beginSandboxProbe(this.opts.sandbox ?? 'auto');
    this.probing = undefined;
    ({ sdk: this.sdk, sandbox: this.sandbox } = await prepareHost({ ...this.opts, probed }));
    const previous = await this.running.open();
    const ended = killRecorded(previous.processes);
    if (ended.length > 0) this.opts.log.warn({ pids: ended }, 'ended app processes left behind by a previous hub');
    await countHubDeaths(this.section, previous.suspects, this.opts.log);
    this.stableTimer = setTimeout(() => void forgiveHubDeaths(this.section, this.opts.log), this.opts.stableAfterMs ?? STABLE_AFTER_MS);
    this.stableTimer.unref();
    for (const id of await appFolderNames(this.opts.appsDir)) await this.add(id, 'local', null, false);
    // Apps start side by side, and the hub does not wait for them: an onInit that hangs for its
    // whole start timeout must not delay the hub's own API. `initialStart` settles when all did.
    // An app that crashed lately waits out its backoff, as if the hub had not restarted.
    this.initialStart = Promise.all(
      [...this.entries.values()].map((e) => (this.unstartable(e) || !this.record(e.id).enabled ? undefined : e.supervisor.resume(this.record(e.id).crashes))),
    ).then(
      () => undefined,
      () => undefined,
    );
    this.watch.start();
    for (const listener of this.loadedListeners) listener();
  }

  private readonly loadedListeners = new Set<() => void>();

  /** Calls `listener` at the end of each start(), once every installed app has been read (not yet started). */
  onLoaded(listener: () => void): () => void {
    this.loadedListeners.add(listener);
    return () => this.loadedListeners.delete(listener);
  }

  /** Settles once every app enabled at start() has started or failed to. */
  initialStart: Promise<void> = Promise.resolve();

  /** Stops every app in parallel, with short deadlines: the hub's own stop must stay quick. */
  async stop(): Promise<void> {
    this.watch.stop();
    await Promise.all([...this.entries.values()].map((e) => e.supervisor.stop({ uninitMs: 2_000, graceMs: 500 })));
    for (const u of this.unregister) u();
    this.unregister = [];
    clearTimeout(this.stableTimer);
    await forgiveHubDeaths(this.section, this.opts.log);
    await this.running.close().catch(() => undefined);
  }

  /**
   * Picks up app folders placed by hand since the last look, and starts them. A folder still
   * being copied (no app.json or .homeycompose/ yet) is left for the next look.
   */
  async rescan(): Promise<void> {
    for (const id of await newAppFolders(this.opts.appsDir, (id) => this.entries.has(id) || this.claimed.has(id))) {
      if (this.entries.has(id) || this.claimed.has(id)) continue; // added meanwhile
      const entry = await this.add(id, this.section.value[id]?.origin ?? 'local', null, true);
      this.opts.log.info({ app: id }, 'found a new app in the apps folder');
      this.startIfEnabled(entry).catch(() => undefined);
    }
  }

  /** Creates (or refreshes after an install) the entry of the app in folder `<appsDir>/<id>`. */
  async add(id: string, origin: AppRecord['origin'], channel: string | null, announce: boolean, network?: boolean): Promise<Entry> {
    const dir = join(this.opts.appsDir, id);
    const loaded = APP_ID.test(id) ? await loadAppFolder(dir) : { ok: false as const, message: `folder name '${id}' is not a reverse-domain app id` };
    const existing = this.entries.get(id);
    if (!this.section.value[id] || announce) {
      await this.section.updateSome([id], (d) => {
        const prev = d[id];
        d[id] = prev ? { ...prev, origin, channel: channel ?? prev.channel } : newRecord(origin, channel);
        if (network !== undefined) d[id].network = network;
      });
    }
    const entry: Entry = existing ?? { id, dir, folder: null, problem: null, supervisor: await this.newSupervisor(id) };
    entry.folder = loaded.ok ? loaded.folder : null;
    entry.problem = loaded.ok ? null : loaded.message;
    this.entries.set(id, entry);
    for (const warning of loaded.ok ? loaded.folder.manifest.warnings : []) {
      this.opts.log.warn({ app: id, warning }, 'app.json has what Homey would warn about');
      entry.supervisor.stdout.push(`${new Date().toISOString()} [hearth] app.json: ${warning}\n`);
    }
    const record = this.record(id);
    if (entry.problem) {
      this.opts.log.warn({ app: id, problem: entry.problem }, 'app has an unusable manifest');
      entry.supervisor.hold(entry.problem);
    } else if (!record.enabled && record.disabledReason) {
      entry.supervisor.hold(record.disabledReason);
    } else if (this.sandbox.hold && !entry.folder?.manifest.incompatible) {
      entry.supervisor.hold(this.sandbox.hold);
    } else if (entry.folder?.manifest.incompatible) {
      this.opts.log.info({ app: id, reason: entry.folder.manifest.incompatible }, 'app is not compatible with hearth; not starting it');
    }
    if (announce) this.onEvent(existing ? 'update' : 'create', this.view(entry));
    return entry;
  }

  private async newSupervisor(id: string): Promise<AppSupervisor> {
    const base = this.dataDirOf(id);
    await makeDirs(join(base, 'userdata'), 0o700);
    const sup = new AppSupervisor(id, base, this.supervisorOptions, {
      gate: this.startGate,
      spawned: (pid) => this.running.spawned(id, pid),
      onChange: (state) => {
        this.running.set(id, state.state === 'running' || state.state === 'starting');
        const e = this.entries.get(id);
        if (e) this.onEvent('update', this.view(e));
      },
      onCrash: (report, crashes) => recordCrash(this.section, this.opts.log, id, report, crashes),
      dispatch: (method, args) => this.dispatch(id, method, args),
      spec: () => {
        const e = this.mustGet(id);
        const network = networkGranted(this.record(id), e.folder!.manifest.permissions);
        return childSpec(this.specContext(), {
          id,
          dir: e.dir,
          folder: e.folder!,
          userdata: join(base, 'userdata'),
          saved: () => this.record(id).settings,
          network,
        });
      },
    });
    await sup.load();
    return sup;
  }

  private specContext(): SpecContext {
    return {
      appsDir: this.opts.appsDir,
      runDir: join(this.opts.dataDir, 'run'),
      sdk: this.sdk,
      sandbox: this.sandbox,
      limits: this.limitDefaults,
      hub: this.hub,
    };
  }

  /** How apps are contained on this hub (for the apps manager's state). */
  get containment(): Sandbox {
    return this.sandbox;
  }

  /** The limits apps get: the defaults, and the most an app.json may ask for. */
  get limits(): Readonly<AppLimitDefaults> {
    return this.limitDefaults;
  }

  private dispatch(id: string, method: string, args: unknown): Promise<unknown> {
    const e = this.mustGet(id);
    const m = e.folder?.manifest;
    const caller: CallerApp = { id, uri: appOwnerUri(id), version: m?.version ?? '0.0.0', permissions: m?.permissions ?? [] };
    return this.router.dispatch(caller, method, args);
  }

  /** Why the app cannot start now (a broken folder, or it needs what hearth has not), or null. */
  private unstartable(e: Entry): string | null {
    return e.problem ?? e.folder?.manifest.incompatible ?? this.sandbox.hold;
  }

  private async startIfEnabled(e: Entry): Promise<void> {
    if (this.unstartable(e) || !this.record(e.id).enabled) return;
    await e.supervisor.start();
  }

  private mustGet(id: string): Entry {
    const e = this.entries.get(id);
    if (!e) throw notFound(`app '${id}' is not installed`);
    return e;
  }

  private record(id: string): AppRecord {
    const r = this.section.value[id];
    if (!r) throw notFound(`app '${id}' is not installed`);
    return r;
  }

  private view(e: Entry): App {
    return viewOf(e, this.section.value[e.id] ?? newRecord('local'), this.locale().language);
  }

  list(): Record<string, App> {
    return Object.fromEntries([...this.entries.values()].map((e) => [e.id, this.view(e)]));
  }

  get(id: string): App {
    return this.view(this.mustGet(id));
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** The manifest of an installed, valid app (dashboards reads widgets from it). */
  manifest(id: string): AppManifest | null {
    return this.entries.get(id)?.folder?.manifest ?? null;
  }

  supervisor(id: string): AppSupervisor {
    return this.mustGet(id).supervisor;
  }

  /** locales/<lang>.json of the app (composed when the app uses compose), keyed by language. */
  locales(id: string): Locales {
    return this.mustGet(id).folder?.locales ?? {};
  }

  /** Tails of stdout/stderr plus the crash fields; records `message` with the crash report. */
  async crashLog(id: string, message?: string): Promise<CrashLog> {
    const e = this.mustGet(id);
    if (message) {
      await this.section.updateSome([id], (d) => {
        d[id]!.reports = withReport(d[id]!, message);
      });
    }
    return crashLogOf(e.supervisor, this.record(id));
  }

  /** Records where a local app came from (Get apps' repository and commit), or that it came from nowhere known. */
  async setSource(id: string, source: AppRecord['source']): Promise<void> {
    await this.section.updateSome([id], (d) => {
      d[id]!.source = source;
    });
  }

  /** What the app wrote after the reader's cursors, with its state (a follower stops when it is gone). */
  followLog(id: string, cursors: { stdout: number; stderr: number }): AppLog {
    const sup = this.mustGet(id).supervisor;
    return { state: sup.state.state, stdout: sup.stdout.since(cursors.stdout), stderr: sup.stderr.since(cursors.stderr) };
  }

  /** Sends the hub's new language/units (and the app's strings in it) to every app. */
  localeChanged(): void {
    const locale = this.locale();
    for (const e of this.entries.values()) if (e.folder) e.supervisor.notify(localeEvent(e.folder, locale));
  }

  /** Sends the hub's new location to every app with the geolocation permission. */
  locationChanged(): void {
    for (const e of this.entries.values()) {
      const event = e.folder && locationEvent(e.folder, this.hub);
      if (event) e.supervisor.notify(event);
    }
  }

  /**
   * Stops the app, removes its folder with `removeFolder` (while no rescan can pick it up) and
   * forgets its entry.
   */
  async remove(id: string, purgeSettings: boolean, removeFolder: () => Promise<void>): Promise<App> {
    const e = this.mustGet(id);
    this.claimed.add(id);
    try {
      await e.supervisor.stop();
      const app = this.view(e);
      await removeFolder();
      this.entries.delete(id);
      this.pushes.forget(id);
      if (purgeSettings) {
        await this.section.updateSome([id], (d) => {
          delete d[id];
        });
      }
      this.onEvent('delete', app);
      return app;
    } finally {
      this.claimed.delete(id);
    }
  }

  /** Stops an app for an upgrade of its folder (a first install too); `resume` after the swap. */
  async pause(id: string): Promise<void> {
    this.claimed.add(id);
    await this.entries.get(id)?.supervisor.stop();
  }

  async resume(id: string): Promise<void> {
    this.claimed.delete(id);
    const e = this.entries.get(id);
    if (e) await this.startIfEnabled(e);
  }
}
