/**
 * Notifications: the home's timeline (service.ts), what apps, flows and the hub say, kept on disk
 * and bounded. The rest of the hub holds it as a `Timeline` (made first, so every manager can say
 * something from its start); what the hub's parts publish anyway (a backup that failed, a device
 * its app cannot reach) it hears on the bus.
 */
import { KeptMap } from '../../core/kept.js';
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { notificationsContract } from './contract.js';
import { notificationsOperations } from './operations.js';
import { NotificationsService } from './service.js';

/** A device said to be unavailable is not said so again within this. */
const DEVICE_QUIET_MS = 10 * 60_000;
/** Devices remembered for that (a home has at most 1,000). */
const MAX_REMEMBERED = 2_000;

export class NotificationsManager implements Manager {
  readonly name = notificationsContract.name;
  readonly contract = notificationsContract;
  readonly operations: readonly Operation[];
  readonly service: NotificationsService;
  private off: Array<() => void> = [];
  /** When each device was last said to be unavailable: a device that comes and goes is said once in DEVICE_QUIET_MS. */
  private readonly saidUnavailable = new KeptMap<string, number>(MAX_REMEMBERED);

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
      this.ctx.bus.on('devices', (e) => {
        if (e.event !== 'device.update' || !e.args[1].changedKeys.includes('available')) return;
        const [device] = e.args;
        // Its own app says it cannot reach it (not: its app stopped, which the apps' line says).
        if (device.available || !device.ready) return;
        const now = Date.now();
        if (now - (this.saidUnavailable.get(device.id) ?? 0) < DEVICE_QUIET_MS) return;
        this.saidUnavailable.set(device.id, now);
        const why = device.unavailableMessage ? `: ${device.unavailableMessage}` : '';
        void this.service.notify({ uri: 'homey:manager:devices', id: 'devices', name: 'Devices' }, `${device.name} is unavailable${why}.`);
      }),
    );
  }

  async stop(): Promise<void> {
    for (const off of this.off) off();
    this.off = [];
  }
}
