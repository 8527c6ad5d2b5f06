/** The presence handlers: a person's own presence from their token, anyone's with the right. */
import { conflict } from '../../core/errors.js';
import { implement, type Operation } from '../../core/operation.js';
import type { TokenInfo } from '../../core/tokens.js';
import { personView } from '../users/operations.js';
import { presenceContract } from './contract.js';
import type { PresenceService } from './service.js';

/** The caller's person's id, or a sentence why the caller is no one. */
function me(service: PresenceService, token: TokenInfo | null): string {
  const id = token?.userId;
  if (!id || !service.people.find(id))
    throw conflict(`this token ('${token?.name ?? 'none'}') belongs to no person of the home, so it has no presence: set a person's with PUT /<id>/present`);
  return id;
}

export function presenceOperations(service: PresenceService): Operation[] {
  const { people } = service;
  const forced = (body: { opts?: { forceFlowTrigger?: boolean | undefined } | undefined }) => ({ forced: body.opts?.forceFlowTrigger === true });
  return implement(presenceContract.operations, {
    getState: () => {
      const all = people.list();
      return { present: all.filter((p) => p.present).map((p) => p.id), asleep: all.filter((p) => p.asleep).map((p) => p.id) };
    },
    setPresentMe: async ({ body }, request) => personView(await service.set(me(service, request.token), 'present', body.value, forced(body))),
    setAsleepMe: async ({ body }, request) => personView(await service.set(me(service, request.token), 'asleep', body.value, forced(body))),
    setPresent: async ({ params, body }) => personView(await service.set(people.get(params.id).id, 'present', body.value, forced(body))),
    getPresent: ({ params }) => people.get(params.id).present,
    setAsleep: async ({ params, body }) => personView(await service.set(people.get(params.id).id, 'asleep', body.value, forced(body))),
    getAsleep: ({ params }) => people.get(params.id).asleep,
  });
}
