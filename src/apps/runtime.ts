/**
 * All installed apps: finds them in the apps folder, keeps their records in the store, runs the
 * enabled ones under a supervisor each, and presents each as an App object whose every change is reported through `onEvent` (the apps manager publishes it as
 * app.create/update/delete). Serves the SDK calls the apps manager owns (settings, i18n).
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { HearthError, notFound } from '../core/errors.js';
import type { Section, Store } from '../core/store.js';
import { recoverInterrupted } from './install.js';
import { APP_ID, loadManifest, textOf, type AppManifest, type SettingDefinition } from './manifest.js';
import { PERMISSION_READ_PATHS, type Permission } from './permissions.js';
import { AppsSection, MAX_REPORTS, newRecord, STORE_SECTION, type AppRecord } from './records.js';
import { SdkRouter, type CallerApp } from './router.js';
import { AppSupervisor, DEFAULT_SUPERVISOR_OPTIONS, type RunState, type SupervisorOptions } from './supervisor.js';
import { rethrowAppError } from './errors.js';
import { readLocales } from './locales.js';
import { killLeftoverApps } from './leftovers.js';
import { AppSettings } from './settings.js';

/** The App object of the API. */
export interface App extends RunState {
  id: string;
  name: string;
  version: string | null;
  sdk: number | null;
  origin: AppRecord['origin'];
  channel: string | null;
  enabled: boolean;
  autoupdate: boolean;
  permissions: Permission[];
  settings: SettingDefinition[];
}

export interface Locale {
  language: string;
  units: 'metric' | 'imperial';
}

export interface RuntimeOptions {
  appsDir: string;
  dataDir: string;
  store: Store;
  log: Logger;
  heapMb: number;
  /** The hub's language and units (the i18n manager's options); default en/metric. */
  locale?: () => Locale;
  supervisor?: Partial<Omit<SupervisorOptions, 'heapMb'>>;
}

export type AppEventKind = 'create' | 'update' | 'delete';

/** What getAppStd answers. */
export interface CrashLog {
  stdout: string;
  stderr: string;
  crashed: boolean;
  crashedMessage: string | null;
  exitCode: number | null;
  exitSignal: string | null;
  exitCount: number;
  lastCrash: AppRecord['lastCrash'];
  reports: AppRecord['reports'];
}

interface Entry {
  id: string;
  dir: string;
  manifest: AppManifest | null;
  /** Why the manifest is unusable; null when it is fine. */
  problem: string | null;
  supervisor: AppSupervisor;
}

export class AppRuntime {
  readonly router = new SdkRouter();
  /** Set by the owner before start(); receives every App change. */
  onEvent: (kind: AppEventKind, app: App) => void = () => undefined;
  private readonly entries = new Map<string, Entry>();
  private section!: Section<AppsSection>;
  private readonly supervisorOptions: SupervisorOptions;
  private unregister: Array<() => void> = [];
  readonly settings = new AppSettings({
    section: () => this.section,
    app: (id) => {
      const e = this.mustGet(id);
      return { manifest: e.manifest, notify: (event) => e.supervisor.notify(event) };
    },
  });

  constructor(private readonly opts: RuntimeOptions) {
    this.supervisorOptions = { ...DEFAULT_SUPERVISOR_OPTIONS, ...opts.supervisor, heapMb: opts.heapMb };
  }

  get appsDir(): string {
    return this.opts.appsDir;
  }

  locale(): Locale {
    return this.opts.locale?.() ?? { language: 'en', units: 'metric' };
  }

  /** `<data-dir>/apps/<id>`: the runtime's own area for an app (logs + userdata). */
  dataDirOf(id: string): string {
    return join(this.opts.dataDir, 'apps', id);
  }

  async start(): Promise<void> {
    this.section = this.opts.store.section(STORE_SECTION, AppsSection, () => ({}));
    this.registerOwnCalls();
    await mkdir(this.opts.appsDir, { recursive: true });
    const leftovers = await killLeftoverApps(this.opts.dataDir);
    if (leftovers.length > 0) this.opts.log.warn({ pids: leftovers }, 'ended app processes left behind by a previous hub');
    await recoverInterrupted(this.opts.appsDir);
    const names = (await readdir(this.opts.appsDir, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort();
    for (const id of names) await this.add(id, 'local', null, false);
    // Apps start side by side, and the hub does not wait for them: an onInit that hangs for its
    // whole start timeout must not delay the hub's own API. `initialStart` settles when all did.
    this.initialStart = Promise.all([...this.entries.values()].map((e) => this.startIfEnabled(e).catch(() => undefined))).then(
      () => undefined,
    );
  }

  /** Settles once every app enabled at start() has started or failed to. */
  initialStart: Promise<void> = Promise.resolve();

  /** Stops every app in parallel, with short deadlines: the hub's own stop must stay quick. */
  async stop(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.supervisor.stop({ uninitMs: 2_000, graceMs: 500 })));
    for (const u of this.unregister) u();
    this.unregister = [];
  }

  private registerOwnCalls(): void {
    const r = this.router;
    this.unregister.push(
      ...this.settings.register(r),
      r.handle('i18n.getLanguage', () => this.locale().language),
      r.handle('i18n.getUnits', () => this.locale().units),
    );
  }

  /** Creates (or refreshes after an install) the entry of the app in folder `<appsDir>/<id>`. */
  async add(id: string, origin: AppRecord['origin'], channel: string | null, announce: boolean): Promise<Entry> {
    const dir = join(this.opts.appsDir, id);
    const loaded = APP_ID.test(id)
      ? await loadManifest(dir)
      : { ok: false as const, message: `folder name '${id}' is not a reverse-domain app id` };
    const existing = this.entries.get(id);
    if (!this.section.value[id] || announce) {
      await this.section.update((d) => {
        const prev = d[id];
        d[id] = prev ? { ...prev, origin, channel: channel ?? prev.channel } : newRecord(origin, channel);
      });
    }
    const entry: Entry = existing ?? {
      id,
      dir,
      manifest: null,
      problem: null,
      supervisor: await this.newSupervisor(id),
    };
    entry.manifest = loaded.ok ? loaded.manifest : null;
    entry.problem = loaded.ok ? null : loaded.message;
    this.entries.set(id, entry);
    if (entry.problem) {
      this.opts.log.warn({ app: id, problem: entry.problem }, 'app has an unusable manifest');
      entry.supervisor.hold(entry.problem);
    }
    if (announce) this.onEvent(existing ? 'update' : 'create', this.view(entry));
    return entry;
  }

  private async newSupervisor(id: string): Promise<AppSupervisor> {
    const base = this.dataDirOf(id);
    await mkdir(join(base, 'userdata'), { recursive: true, mode: 0o700 });
    const sup = new AppSupervisor(id, base, this.supervisorOptions, {
      onChange: () => {
        const e = this.entries.get(id);
        if (e) this.onEvent('update', this.view(e));
      },
      onCrash: (report) => {
        this.opts.log.warn({ app: id, crash: report }, 'app crashed');
        this.section
          .update((d) => {
            if (d[id]) d[id].lastCrash = report;
          })
          .catch((err: unknown) => this.opts.log.error({ err, app: id }, 'could not record the crash'));
      },
      dispatch: (method, args) => this.dispatch(id, method, args),
      spec: () => {
        const e = this.mustGet(id);
        const m = e.manifest!;
        return {
          id,
          version: m.version,
          dir: e.dir,
          main: m.main,
          userdata: join(base, 'userdata'),
          readPaths: m.permissions.flatMap((p) => PERMISSION_READ_PATHS[p] ?? []),
          ...this.locale(),
        };
      },
    });
    await sup.load();
    return sup;
  }

  private dispatch(id: string, method: string, args: unknown): Promise<unknown> {
    const e = this.mustGet(id);
    const caller: CallerApp = {
      id,
      uri: `hearth:app:${id}`,
      version: e.manifest?.version ?? '0.0.0',
      permissions: e.manifest?.permissions ?? [],
    };
    return this.router.dispatch(caller, method, args);
  }

  private async startIfEnabled(e: Entry): Promise<void> {
    if (e.problem || !this.record(e.id).enabled) return;
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
    const r = this.section.value[e.id] ?? newRecord('local');
    const m = e.manifest;
    return {
      id: e.id,
      name: m ? textOf(m.name, this.locale().language) : e.id,
      version: m?.version ?? null,
      sdk: m?.sdk ?? null,
      origin: r.origin,
      channel: r.channel,
      enabled: r.enabled,
      autoupdate: r.autoupdate,
      ...e.supervisor.state,
      permissions: m?.permissions ?? [],
      settings: m?.settings ?? [],
    };
  }

  list(): Record<string, App> {
    return Object.fromEntries([...this.entries.values()].map((e) => [e.id, this.view(e)]));
  }

  get(id: string): App {
    return this.view(this.mustGet(id));
  }

  /** The manifest of an installed, valid app (dashboards reads widgets from it). */
  manifest(id: string): AppManifest | null {
    return this.entries.get(id)?.manifest ?? null;
  }

  supervisor(id: string): AppSupervisor {
    return this.mustGet(id).supervisor;
  }

  async setEnabled(id: string, enabled: boolean): Promise<App> {
    const e = this.mustGet(id);
    await this.section.update((d) => {
      d[id]!.enabled = enabled;
    });
    if (!enabled) await e.supervisor.stop();
    else if (e.problem) {
      // Re-read the manifest: enabling is how a person says "I fixed it, try again".
      await this.add(id, this.record(id).origin, this.record(id).channel, false);
      if (!e.problem) await e.supervisor.restart();
    } else await e.supervisor.restart();
    const app = this.get(id);
    this.onEvent('update', app);
    return app;
  }

  async restart(id: string): Promise<App> {
    const e = this.mustGet(id);
    if (e.problem) throw new HearthError('conflict', `app '${id}' cannot start: ${e.problem}`);
    if (!this.record(id).enabled) throw new HearthError('conflict', `app '${id}' is disabled; enable it instead`);
    await e.supervisor.restart();
    return this.get(id);
  }

  async setAutoupdate(id: string, autoupdate: boolean): Promise<App> {
    this.mustGet(id);
    await this.section.update((d) => {
      d[id]!.autoupdate = autoupdate;
    });
    const app = this.get(id);
    this.onEvent('update', app);
    return app;
  }

  /** Runs gc in the app; 409 when it is not running. */
  async gc(id: string): Promise<{ before: { heapUsed: number; heapTotal: number; rss: number }; after: { heapUsed: number; heapTotal: number; rss: number } }> {
    return this.mustGet(id).supervisor.call('gc', {}).catch(rethrowAppError);
  }

  /**
   * Asks the app's autocomplete listener (dashboards' getAppWidgetAutocomplete). Errors map to
   * 409 not running, 404 no listener, 504 no answer in time, 502 the listener threw.
   */
  async autocomplete(
    id: string,
    call: { widgetId: string; settingId: string; query: string; settings: Record<string, unknown> },
    timeoutMs = 5_000,
  ): Promise<Array<{ id: string | number; name: string; description?: string; image?: string }>> {
    return this.mustGet(id).supervisor.call('autocomplete', call, timeoutMs).catch(rethrowAppError);
  }

  /** locales/<lang>.json of the app, keyed by language. */
  locales(id: string): Promise<Record<string, unknown>> {
    return readLocales(this.mustGet(id).dir);
  }

  /** Tails of stdout/stderr plus the crash fields; records `message` with the crash report. */
  async crashLog(id: string, message?: string): Promise<CrashLog> {
    const e = this.mustGet(id);
    const r = this.record(id);
    if (message) {
      await this.section.update((d) => {
        d[id]!.reports = [...d[id]!.reports, { at: new Date().toISOString(), message: message.slice(0, 4096), crash: r.lastCrash }].slice(-MAX_REPORTS);
      });
    }
    const s = e.supervisor.state;
    return {
      stdout: e.supervisor.stdout.text(),
      stderr: e.supervisor.stderr.text(),
      crashed: s.crashed,
      crashedMessage: s.crashedMessage,
      exitCode: s.exitCode,
      exitSignal: s.exitSignal,
      exitCount: s.exitCount,
      lastCrash: this.record(id).lastCrash,
      reports: this.record(id).reports,
    };
  }

  /** Sends the hub's new language/units to every running app. */
  localeChanged(): void {
    const l = this.locale();
    for (const e of this.entries.values()) e.supervisor.notify({ name: 'i18n.update', ...l });
  }

  /** Stops the app and forgets its entry (the caller removes the folder). */
  async remove(id: string, purgeSettings: boolean): Promise<App> {
    const e = this.mustGet(id);
    await e.supervisor.stop();
    const app = this.view(e);
    this.entries.delete(id);
    if (purgeSettings) {
      await this.section.update((d) => {
        delete d[id];
      });
    }
    this.onEvent('delete', app);
    return app;
  }

  /** Stops an app for an upgrade of its folder; `startIfEnabled` after the swap. */
  async pause(id: string): Promise<void> {
    await this.entries.get(id)?.supervisor.stop();
  }

  async resume(id: string): Promise<void> {
    const e = this.entries.get(id);
    if (e) await this.startIfEnabled(e);
  }
}
