/**
 * `this.homey.notifications`: a notification is an event on the hub (`notification.create` on
 * the apps namespace, which the web app shows) and a line in the app's log.
 */
import type { HomeyContext } from '../context.cjs';
import { HomeyError } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';

export class ManagerNotifications extends Manager {
  static ID = 'notifications';

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  async createNotification({ excerpt }: { excerpt: string }): Promise<void> {
    if (typeof excerpt !== 'string' || excerpt.trim() === '') throw new HomeyError('createNotification needs { excerpt: "a sentence" }', 'invalid_args');
    await this.ctx.transport.call('notifications.create', { excerpt });
  }
}
