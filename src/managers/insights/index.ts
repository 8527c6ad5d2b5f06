/**
 * insights: time-series logs in SQLite (<data-dir>/insights.db) with rollups and retention.
 * The hub registers this manager; the apps manager hands it its SDK router and app list.
 */
import type { SdkRouter } from '../../apps/host/router.js';
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { insightsContract } from './contract.js';
import { type AppUsageSource, HubLogs } from './hub-logs.js';
import { insightsOperations } from './operations.js';
import { serveSdk } from './sdk.js';
import { InsightsService } from './service.js';

export interface InsightsOptions {
  /** Hub log sample interval in ms; default 10 s. */
  readonly sampleMs?: number;
  readonly now?: () => number;
}

export class InsightsManager implements Manager {
  readonly name = insightsContract.name;
  readonly contract = insightsContract;
  readonly operations: readonly Operation[];
  readonly service: InsightsService;
  private readonly hubLogs: HubLogs;
  private sdkOff: (() => void) | null = null;

  constructor(ctx: ManagerContext, options: InsightsOptions = {}) {
    this.service = new InsightsService({
      dataDir: ctx.config.dataDir,
      zone: ctx.config.zone,
      bus: ctx.bus,
      log: ctx.log,
      ...(options.now ? { now: options.now } : {}),
    });
    this.hubLogs = new HubLogs(this.service, ctx.log, options.sampleMs);
    this.operations = insightsOperations(this.service);
  }

  /** Serves `hub.insights.*` of the app SDK through the apps runtime's router. */
  serveSdk(router: SdkRouter): void {
    this.sdkOff?.();
    this.sdkOff = serveSdk(router, this.service);
  }

  /** Adds per-app cpu/mem logs sampled from the apps runtime (AppRuntime fits). */
  attachApps(source: AppUsageSource): void {
    this.hubLogs.attachApps(source);
  }

  /**
   * Copies a consistent snapshot of insights.db to `dest` (a new file) while the hub writes.
   * Through this manager's own connection SQLite applies concurrent commits to the copy; a
   * copy through another connection restarts on every commit (each second), which on a large
   * file may take many times longer or never finish.
   */
  async backup(dest: string): Promise<void> {
    await this.service.backup(dest);
  }

  async start(): Promise<void> {
    this.service.start();
    this.hubLogs.start();
  }

  async stop(): Promise<void> {
    this.sdkOff?.();
    this.sdkOff = null;
    this.hubLogs.stop();
    this.service.stop();
  }
}
