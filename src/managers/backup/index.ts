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
    private readonly deps: {
      readonly copyInsights?: (dest: string) => Promise<void>;
      readonly restart?: Restart;
      /** Says something on the home's timeline as the backups (a restore, once). */
      readonly notify?: (text: string) => Promise<void>;
    } = {},
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
    await this.sayRestore();
    this.scheduler.start();
    this.unsubscribe = this.ctx.options.onChange(BACKUP, (name, value) => {
      if (name === OPTION_ENABLED) this.scheduler.setEnabled(value === true);
    });
  }

  /** The hub after a restore says on the timeline, once, what was restored, by whom, or why it failed. */
  private async sayRestore(): Promise<void> {
    const notify = this.deps.notify;
    if (!notify) return;
    const r = await this.service.untoldRestore().catch((err: unknown) => {
      this.ctx.log.warn({ err }, 'the last restore could not be marked as told; it is not said on the timeline');
      return null;
    });
    if (!r) return;
    const made = r.createdAt
      ? ` of ${new Date(r.createdAt).toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: this.ctx.config.zone })}`
      : '';
    await notify(
      r.ok
        ? `${r.by ? `${r.by.name} restored` : 'Restored'} the backup${made} (${r.file})${r.leftOut.length > 0 ? `; left as it was: ${r.leftOut.join('; ')}` : ''}`
        : `A restore of ${r.file} failed, and the hub started on the data it had: ${r.error ?? 'no reason given'}`,
    );
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.scheduler.stop();
    await this.service.settle();
  }
}
