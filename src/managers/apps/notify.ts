/**
 * A notification on the home's timeline: `notification.create` on the apps namespace, what the
 * web app shows as a toast. Apps make them (`homey.notifications`), and so does the hub (a flow's
 * card, runs refused, records set aside at start); the payload is made here only.
 */
import { randomUUID } from 'node:crypto';
import type { HubBus } from '../bus.js';

/** Publishes `excerpt` as a notification of `owner` (`homey:app:<id>`, `homey:manager:flow`, ...). */
export function notify(bus: HubBus, owner: { uri: string; id: string }, excerpt: string): void {
  bus.publish('apps', 'notification.create', { id: randomUUID(), ownerUri: owner.uri, ownerId: owner.id, excerpt, dateCreated: new Date().toISOString() });
}
