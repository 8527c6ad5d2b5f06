/**
 * apps: installed apps running in child processes (src/apps/ is the runtime). Publishes
 * app.create/update/delete, serves the SDK calls it owns (settings, i18n, geolocation from the
 * shared options) and exposes the SDK router so other managers can serve theirs.
 */
import type { Manager, ManagerContext } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { SdkRouter } from '../../apps/router.js';
import { checkForUpdates } from '../../apps/autoupdate.js';
import { AppRuntime, type Locale } from '../../apps/runtime.js';
import type { SupervisorOptions } from '../../apps/supervisor.js';
import { appsOperations } from './operations.js';
import { AppsService } from './service.js';

const UPDATE_FIRST_MS = 5 * 60_000;
const UPDATE_EVERY_MS = 24 * 60 * 60_000;

export interface AppsManagerOptions {
  /** Supervisor tuning (tests shorten backoff); defaults in src/apps/supervisor.ts. */
  readonly supervisor?: Partial<Omit<SupervisorOptions, 'heapMb'>>;
  /**
   * The hub's other managers. At start, each that has `serveSdk(router)` registers the SDK calls
   * it serves, and each that has `attachApps(runtime)` gets the runtime (usage logs,
   * autocomplete), so the hub wires apps with one line and apps start with every call served.
   */
  readonly peers?: () => readonly Manager[];
}

/** What a manager offers to the apps runtime; both optional (see AppsManagerOptions.peers). */
export interface AppsPeer {
  serveSdk?(router: SdkRouter): unknown;
  attachApps?(runtime: AppRuntime): unknown;
  /** Called once the runtime has read every installed app (start-up apps are known). */
  appsLoaded?(): unknown;
}

export class AppsManager implements Manager {
  readonly name = 'apps';
  readonly eventScope = 'service.app.readonly';
  readonly operations: readonly Operation[];
  readonly runtime: AppRuntime;
  readonly service: AppsService;
  private off: Array<() => void> = [];
  private updateTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ctx: ManagerContext,
    private readonly options: AppsManagerOptions = {},
  ) {
    this.runtime = new AppRuntime({
      appsDir: ctx.config.appsDir,
      dataDir: ctx.config.dataDir,
      store: ctx.store,
      log: ctx.log,
      heapMb: ctx.config.appHeapMb,
      locale: () => this.locale(),
      ...(options.supervisor ? { supervisor: options.supervisor } : {}),
    });
    this.service = new AppsService(this.runtime, ctx.config.storeLocation);
    this.operations = appsOperations(this.service);
  }

  /** Where other managers register the SDK calls they serve (before start()). */
  get router(): SdkRouter {
    return this.runtime.router;
  }

  private locale(): Locale {
    return {
      language: this.ctx.options.get<string>('i18n', 'language') ?? 'en',
      units: this.ctx.options.get<'metric' | 'imperial'>('i18n', 'units') ?? 'metric',
    };
  }

  async start(): Promise<void> {
    const { bus, options } = this.ctx;
    this.runtime.onEvent = (kind, app) => bus.publish('apps', `app.${kind}`, app);
    this.off.push(
      this.router.handle('geolocation.getLocation', () => options.get<{ latitude: number; longitude: number } | null>('geolocation', 'location') ?? null),
      options.onChange('i18n', () => this.runtime.localeChanged()),
    );
    for (const peer of this.options.peers?.() ?? []) {
      if (peer === this) continue;
      const p = peer as Manager & AppsPeer;
      if (typeof p.serveSdk === 'function') p.serveSdk(this.router);
      if (typeof p.attachApps === 'function') p.attachApps(this.runtime);
    }
    await this.service.prepareStore();
    await this.runtime.start();
    for (const peer of this.options.peers?.() ?? []) {
      if (peer !== this) (peer as Manager & AppsPeer).appsLoaded?.();
    }
  }

  async stop(): Promise<void> {
    clearTimeout(this.updateTimer);
    this.updateTimer = undefined;
    await this.runtime.stop();
    for (const f of this.off) f();
    this.off = [];
  }
}
