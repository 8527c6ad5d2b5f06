/**
 * insights: time-series logs in SQLite (<data-dir>/insights.db) with rollups and retention.
 * Apps' `homey.insights` calls are served on the apps runtime's router while it runs; the
 * runtime's app list gives the per-app usage logs.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { AppsPort } from '../apps/port.js';
import type { ManagerContext } from '../context.js';
import { insightsContract } from './contract.js';
import { HubLogs } from './hub-logs.js';
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

  constructor(
    ctx: ManagerContext,
    private readonly apps: AppsPort<'list'>,
    options: InsightsOptions = {},
  ) {
    this.service = new InsightsService({
      dataDir: ctx.config.dataDir,
      zone: ctx.config.zone,
      bus: ctx.bus,
      log: ctx.log,
      ...(options.now ? { now: options.now } : {}),
    });
    this.hubLogs = new HubLogs(this.service, ctx.log, apps, options.sampleMs);
    this.operations = insightsOperations(this.service);
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
    // Serves `hub.insights.*` of the app SDK.
    this.sdkOff = serveSdk(this.apps.router, this.service);
    this.hubLogs.start();
  }

  async stop(): Promise<void> {
    this.sdkOff?.();
    this.sdkOff = null;
    this.hubLogs.stop();
    this.service.stop();
  }
}
