/**
 * apps: installed Homey apps running in child processes (src/apps/ is the runtime). Publishes
 * app.create/update/delete (apps' notifications go to the timeline), keeps apps' copies of the hub's language and
 * location current, and offers the HTTP layer its gateway: the apps' Web APIs, realtime events
 * and pages. It is made before the other managers, which get the part of its runtime they use
 * (port.ts), and started after them, so every SDK call is served before an app can make it.
 */

import { join } from 'node:path';
import { checkForUpdates } from '../../apps/catalogue/autoupdate.js';
import { DEFAULT_BUILD_LIMITS } from '../../apps/catalogue/build.js';
import { StoredCatalogueMemory } from '../../apps/catalogue/memory.js';
import { repoHost } from '../../apps/catalogue/repository.js';
import { AppApiSockets } from '../../apps/host/api-socket.js';
import type { AppGateway } from '../../apps/host/gateway.js';
import { type HubApi, serveHubApi } from '../../apps/host/hub-api.js';
import { RealtimeHub } from '../../apps/host/realtime.js';
import type { SdkRouter } from '../../apps/host/router.js';
import { type App, type AppEventKind, AppRuntime, type Locale } from '../../apps/host/runtime.js';
import type { SupervisorOptions } from '../../apps/host/supervisor.js';
import { diff } from '../../core/diff.js';
import { unavailable } from '../../core/errors.js';
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import { appOwnerUri } from '../../core/owners.js';
import type { ManagerContext } from '../context.js';
import type { Timeline } from '../notifications/service.js';
import { appsContract } from './contract.js';
import { appsOperations } from './operations.js';
import { AppsService } from './service.js';

/** When store apps with autoupdate on are checked: shortly after start, then daily. */
const AUTOUPDATE = { firstMs: 5 * 60_000, everyMs: 24 * 60 * 60_000 };

export interface AppsManagerOptions {
  /** Supervisor tuning (tests shorten backoff); defaults in src/apps/host/supervisor.ts. */
  readonly supervisor?: Partial<Omit<SupervisorOptions, 'heapMb'>>;
  /**
   * The hub's HTTP application and its token for apps, once it has them (the hub makes its HTTP
   * layer after the managers): apps' `homey.api` calls and their own Web API sockets go through it.
   */
  readonly hubApi?: () => HubApi | null;
  /** The home's timeline, where apps' notifications go (absent: a manager on its own, in a test, drops them). */
  readonly timeline?: Timeline;
  /** When automatic updates run (tests shorten it); 5 min after start, then every 24 h. */
  readonly autoupdate?: { readonly firstMs: number; readonly everyMs: number };
}

export class AppsManager implements Manager {
  readonly name = appsContract.name;
  readonly contract = appsContract;
  readonly operations: readonly Operation[];
  readonly runtime: AppRuntime;
  readonly service: AppsService;
  /** The newest catalogue accepted from each store (a replayed older one is refused). */
  private readonly catalogues: StoredCatalogueMemory;
  readonly appGateway: AppGateway;
  private off: Array<() => void> = [];
  private readonly apiSockets: AppApiSockets;
  private readonly hubApi: () => HubApi | null;
  private updateTimer: ReturnType<typeof setTimeout> | undefined;
  /** Each app as clients last heard of it, so app.update carries the shared diff. */
  private readonly published = new Map<string, App>();

  constructor(
    private readonly ctx: ManagerContext,
    private readonly options: AppsManagerOptions = {},
  ) {
    const realtime = new RealtimeHub();
    this.runtime = new AppRuntime({
      hooks: {
        event: (kind, app) => this.publish(kind, app),
        realtime: (e) => realtime.publish(e),
        notification: (appId, excerpt) =>
          options.timeline?.notify({ uri: appOwnerUri(appId), id: appId, name: this.runtime.has(appId) ? this.runtime.get(appId).name : appId }, excerpt),
      },
      appsDir: ctx.config.appsDir,
      dataDir: ctx.config.dataDir,
      store: ctx.store,
      log: ctx.log,
      heapMb: ctx.config.appHeapMb,
      locale: () => this.locale(),
      location: () => ctx.options.get<{ latitude: number; longitude: number; accuracy?: number } | null>('geolocation', 'location') ?? null,
      timeZone: ctx.config.zone,
      hubId: ctx.hubId,
      sandbox: ctx.config.appSandbox,
      ...(ctx.probes ? { sandboxProbe: ctx.probes.sandbox } : {}),
      limits: {
        memoryMb: ctx.config.appMemoryMb,
        memoryMaxMb: ctx.config.appMemoryMaxMb,
        diskMb: ctx.config.appDiskMb,
        diskMaxMb: ctx.config.appDiskMaxMb,
        diskFloorMb: ctx.config.appDiskFloorMb,
      },
      supervisor: { cpuBudgetMs: ctx.config.appCpuBudgetS * 1000, startTimeoutMs: ctx.config.appStartTimeoutS * 1000, ...options.supervisor },
    });
    const hubApi = options.hubApi ?? (() => null);
    this.hubApi = hubApi;
    this.apiSockets = new AppApiSockets(join(ctx.config.dataDir, 'run'), ctx.log, () => hubApi()?.serve ?? null);
    const runtime = this.runtime;
    this.appGateway = {
      appsDir: ctx.config.appsDir,
      realtime,
      installed: (id) => runtime.has(id),
      manifest: (id) => runtime.manifest(id),
      callApi: (id, call) => runtime.calls.callApi(id, call),
      strings: (id) => {
        const language = this.locale().language;
        const locales = runtime.locales(id);
        return { language, strings: locales[language] ?? locales.en ?? {}, english: locales.en ?? {} };
      },
    };
    this.catalogues = new StoredCatalogueMemory(ctx.store);
    this.service = new AppsService(
      this.runtime,
      { location: ctx.config.storeLocation, key: ctx.config.storeKey, seen: this.catalogues },
      ctx.log,
      repoHost(ctx.config.repoHost),
      {
        registry: ctx.config.npmRegistry,
        limits: {
          ...DEFAULT_BUILD_LIMITS,
          memoryMb: ctx.config.appBuildMemoryMb,
          timeoutMs: ctx.config.appBuildMinutes * 60_000,
          floorBytes: ctx.config.appDiskFloorMb * 1024 * 1024,
        },
      },
    );
    this.operations = appsOperations(this.service);
  }

  /** Where the apps manager registers the SDK calls it serves itself. */
  private get router(): SdkRouter {
    return this.runtime.router;
  }

  private locale(): Locale {
    return {
      language: this.ctx.options.get<string>('i18n', 'language') ?? 'en',
      units: this.ctx.options.get<'metric' | 'imperial'>('i18n', 'units') ?? 'metric',
    };
  }

  async start(): Promise<void> {
    const { options } = this.ctx;
    this.off.push(
      serveHubApi(this.router, this.hubApi),
      this.router.handle('api.connection', (app) => this.apiSockets.connection(app.id)),
      this.router.handle('cloud.localAddress', () => {
        const address = this.ctx.localAddress?.() ?? null;
        if (address === null) throw unavailable('the hub is not listening yet; ask again in a moment');
        return { address };
      }),
      options.onChange('i18n', () => this.runtime.localeChanged()),
      options.onChange('geolocation', (name) => {
        if (name === 'location') this.runtime.locationChanged();
      }),
    );
    await this.service.prepareStore();
    await this.runtime.start();
    // Apps found at start were never announced: what a client reads now is the base of the diff.
    for (const app of Object.values(this.runtime.list())) if (!this.published.has(app.id)) this.published.set(app.id, app);
    this.scheduleUpdates((this.options.autoupdate ?? AUTOUPDATE).firstMs);
  }

  /** The next automatic update check; a failed check is logged and the next one still comes. */
  private scheduleUpdates(delayMs: number): void {
    const { config, log } = this.ctx;
    const timer = setTimeout(() => {
      checkForUpdates(this.runtime, { location: config.storeLocation, key: config.storeKey, seen: this.catalogues }, log)
        .catch((err: unknown) => log.warn({ err }, 'the automatic app update check failed'))
        .finally(() => {
          // Stopped meanwhile (stop() clears the timer): no next check.
          if (this.updateTimer === timer) this.scheduleUpdates((this.options.autoupdate ?? AUTOUPDATE).everyMs);
        });
    }, delayMs);
    timer.unref();
    this.updateTimer = timer;
  }

  /**
   * app.create/update/delete. An update carries `{newValues, oldValues, changedKeys}` against
   * what was last published (state changes, crashes, the cpu/mem samples every 5 s) and is not
   * sent when nothing changed.
   */
  private publish(kind: AppEventKind, app: App): void {
    const { bus } = this.ctx;
    if (kind === 'update') {
      const before = this.published.get(app.id);
      const info = diff(before ?? {}, app);
      this.published.set(app.id, app);
      // The hub says so on the timeline when an app stops by itself and is held.
      if (app.crashed && before && !before.crashed) {
        void this.options.timeline?.notify(
          { uri: 'homey:manager:apps', id: 'apps', name: 'Apps' },
          `${app.name} stopped${app.crashedMessage ? `: ${app.crashedMessage}` : ''}. It is held until it is restarted (Apps).`,
        );
      }
      if (info.changedKeys.length > 0) bus.publish('apps', 'app.update', app, info);
      return;
    }
    if (kind === 'create') this.published.set(app.id, app);
    else {
      this.published.delete(app.id);
      this.apiSockets.close(app.id).catch((err: unknown) => this.ctx.log.warn({ err, app: app.id }, "could not close the app's API socket"));
    }
    bus.publish('apps', `app.${kind}`, app);
  }

  async stop(): Promise<void> {
    clearTimeout(this.updateTimer);
    this.updateTimer = undefined;
    await this.service.uploads.stop();
    await this.runtime.stop();
    await this.apiSockets.closeAll();
    for (const f of this.off) f();
    this.off = [];
  }
}
