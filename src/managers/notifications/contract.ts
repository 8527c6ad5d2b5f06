/**
 * The notifications contract (Homey's notifications manager): the home's timeline, what apps
 * (`homey.notifications.createNotification`), flows ("create a notification") and the hub itself
 * say, newest first, each with its owner; an owner's notifications can be turned off.
 */
import { z } from 'zod';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';

/** The most a notification says (Homey's flow card takes as much). */
export const MAX_EXCERPT = 1_000;

export const NotificationView = lazy(() =>
  z.object({
    id: z.string(),
    ownerUri: z.string().describe('homey:app:<id>, homey:manager:<name>, ...'),
    ownerId: z.string(),
    ownerName: z.string().describe("the owner's name when it spoke (hearth's field)"),
    excerpt: z.string().max(MAX_EXCERPT),
    dateCreated: z.iso.datetime(),
  }),
);
export type NotificationView = z.infer<ReturnType<typeof NotificationView>>;

export const OwnerView = lazy(() =>
  z.object({
    uri: z.string(),
    name: z.string(),
    enabled: z.boolean().describe('false: what it says is dropped, not kept'),
    push: z.boolean().describe('kept for Homey clients; hearth has no push service'),
  }),
);
export type OwnerView = z.infer<ReturnType<typeof OwnerView>>;

const Uri = lazy(() => z.object({ uri: z.string().min(1).max(300) }));

export const notificationsContract = defineContract({
  name: 'notifications',
  eventScope: 'service.notifications.readonly',
  events: lazy(() => ({
    'notification.create': [NotificationView()],
    'notification.delete': [z.object({ id: z.string() })],
    'owner.update': [OwnerView()],
  })),
  operations: {
    getState: stateOperation({
      summary: 'How many notifications the timeline holds, and when the newest was said',
      scope: 'service.notifications.readonly',
      output: () => z.object({ notifications: z.number().int(), latest: z.iso.datetime().nullable() }),
    }),
    getNotifications: op(
      { method: 'GET', path: '/notification', scope: 'service.notifications.readonly', summary: 'The timeline: every notification by id' },
      () => ({
        output: z.record(z.string(), NotificationView()),
      }),
    ),
    deleteNotification: op(
      { method: 'DELETE', path: '/notification/:id', scope: 'service.notifications', summary: 'Delete a notification', status: 204 },
      () => ({
        params: z.object({ id: z.string().min(1).max(64) }),
      }),
    ),
    deleteNotifications: op(
      {
        method: 'DELETE',
        path: '/notification',
        scope: 'service.notifications',
        summary: 'Delete every notification, or those of one owner (`?ownerUri=`)',
        status: 204,
      },
      () => ({ query: z.object({ ownerUri: z.string().min(1).max(300).optional() }) }),
    ),
    getOwners: op(
      { method: 'GET', path: '/owner', scope: 'service.notifications.readonly', summary: 'Everyone who has said something, by uri, and whether it is heard' },
      () => ({
        output: z.record(z.string(), OwnerView()),
      }),
    ),
    setOwnerEnabled: op(
      {
        method: 'PUT',
        path: '/owner/:uri/enabled',
        scope: 'service.notifications',
        summary: "Turn an owner's notifications on or off (off: they are dropped)",
      },
      () => ({ params: Uri(), body: z.object({ enabled: z.boolean() }), output: OwnerView() }),
    ),
    setOwnerPush: op(
      { method: 'PUT', path: '/owner/:uri/push', scope: 'service.notifications', summary: "Homey's push flag of an owner (kept; hearth sends no push)" },
      () => ({ params: Uri(), body: z.object({ push: z.boolean() }), output: OwnerView() }),
    ),
  },
});
