/**
 * Backup: scheduled and on-demand verified archives of the hub's data and apps, and the offline
 * `hearth backup` / `hearth restore` the CLI runs.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { BackupArchives, type Restart } from './archives.js';
import { backupContract } from './contract.js';
import { backupOperations } from './operations.js';
import { BACKUP, OPTION_ENABLED } from './options.js';
import { BackupScheduler } from './schedule.js';
import { BackupService } from './service.js';

export { runOfflineBackup, runRestore } from './offline.js';

export class BackupManager implements Manager {
  readonly name = backupContract.name;
  readonly contract = backupContract;
  readonly operations: readonly Operation[];
  readonly service: BackupService;
  private readonly scheduler: BackupScheduler;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly ctx: ManagerContext,
    deps: { readonly copyInsights?: (dest: string) => Promise<void>; readonly restart?: Restart } = {},
    now: () => Date = () => new Date(),
  ) {
    this.service = new BackupService(ctx, now, deps.copyInsights);
    this.scheduler = new BackupScheduler({
      expression: ctx.config.backupSchedule,
      timeZone: ctx.config.zone,
      log: ctx.log,
      now,
      enabled: () => this.service.enabled,
      lastSuccess: () => this.service.lastSuccess,
      fire: (trigger) => void this.service.schedule(trigger),
    });
    const archives = new BackupArchives(ctx, () => this.service.isRunning, deps.restart);
    this.operations = [
      ...ctx.options.register(BACKUP, backupContract.options),
      ...backupOperations(this.service, this.scheduler, ctx.config.backupSchedule, archives),
    ];
  }

  async start(): Promise<void> {
    await this.service.open();
    this.scheduler.start();
    this.unsubscribe = this.ctx.options.onChange(BACKUP, (name, value) => {
      if (name === OPTION_ENABLED) this.scheduler.setEnabled(value === true);
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.scheduler.stop();
    await this.service.settle();
  }
}
