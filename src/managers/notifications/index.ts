/**
 * Notifications: the home's timeline (service.ts), what apps, flows and the hub say, kept on disk
 * and bounded. The rest of the hub holds it as a `Timeline` (made first, so every manager can say
 * something from its start); what the hub's parts publish anyway (a backup that failed) it hears
 * on the bus.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { notificationsContract } from './contract.js';
import { notificationsOperations } from './operations.js';
import { NotificationsService } from './service.js';

export class NotificationsManager implements Manager {
  readonly name = notificationsContract.name;
  readonly contract = notificationsContract;
  readonly operations: readonly Operation[];
  readonly service: NotificationsService;
  private off: Array<() => void> = [];

  constructor(private readonly ctx: ManagerContext) {
    this.service = new NotificationsService(ctx.store, ctx.bus, (err) => ctx.log.error({ err }, 'a notification could not be kept'));
    this.operations = notificationsOperations(this.service);
  }

  async start(): Promise<void> {
    this.service.start();
    // What the hub itself should tell the family, heard where it happens.
    this.off.push(
      this.ctx.bus.on('backup', (e) => {
        if (e.event !== 'backup.update') return;
        const [job] = e.args;
        if (job.state === 'failed')
          void this.service.notify({ uri: 'homey:manager:backup', id: 'backup', name: 'Backups' }, `A backup failed: ${job.error ?? 'no reason given'}.`);
      }),
    );
  }

  async stop(): Promise<void> {
    for (const off of this.off) off();
    this.off = [];
  }
}
