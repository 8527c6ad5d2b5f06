/**
 * What apps push to the home's pages and people, served for the apps manager: `api.realtime`
 * (to the app's widgets and settings page) and `notifications.create` (to the browsers, and a line
 * in the app's log), each within the app's budget (push-budget.ts).
 */
import { NOTIFICATIONS, PushBudget, REALTIME } from './push-budget.js';
import type { RealtimeEvent } from './realtime.js';
import type { SdkRouter } from './router.js';

export interface PushHooks {
  realtime(event: RealtimeEvent): void;
  notification(appId: string, excerpt: string): void;
  /** A line for the app's log (its stdout tail). */
  log(appId: string, line: string): void;
}

export class AppPushes {
  private readonly notifications = new PushBudget(NOTIFICATIONS);
  private readonly realtime = new PushBudget(REALTIME);

  constructor(private readonly hooks: PushHooks) {}

  /** Serves the two calls; resolves the unregister functions. */
  register(router: SdkRouter): Array<() => void> {
    return [
      router.handle('api.realtime', (app, { event, data }) => {
        this.realtime.take(app.id);
        this.hooks.realtime({ appId: app.id, event, data });
        return null;
      }),
      router.handle('notifications.create', (app, { excerpt }) => {
        this.notifications.take(app.id);
        this.hooks.log(app.id, `${new Date().toISOString()} [notification] ${excerpt}\n`);
        this.hooks.notification(app.id, excerpt);
        return null;
      }),
    ];
  }

  /** Forgets an app's budgets (it was removed). */
  forget(appId: string): void {
    this.notifications.forget(appId);
    this.realtime.forget(appId);
  }
}
