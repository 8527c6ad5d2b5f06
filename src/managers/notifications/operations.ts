/**
 * The notifications handlers: the timeline and its owners, each operation a call into the service.
 */
import { implement, type Operation } from '../../core/operation.js';
import { notificationsContract } from './contract.js';
import type { NotificationsService } from './service.js';

export function notificationsOperations(service: NotificationsService): Operation[] {
  return implement(notificationsContract.operations, {
    getState: () => service.state(),
    getNotifications: () => service.list(),
    deleteNotification: async ({ params }) => {
      await service.delete(params.id);
    },
    deleteNotifications: async ({ query }) => {
      await service.deleteAll(query.ownerUri);
    },
    getOwners: () => service.ownersList(),
    setOwnerEnabled: ({ params, body }) => service.setOwner(params.uri, { enabled: body.enabled }),
    setOwnerPush: ({ params, body }) => service.setOwner(params.uri, { push: body.push }),
  });
}
