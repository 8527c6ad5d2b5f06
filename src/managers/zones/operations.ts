/**
 * The zones handlers: the home's tree of zones, each operation a call into the service, and the
 * order of the rooms on the home (an option).
 */

import { notFound } from '../../core/errors.js';
import { implement, type Operation } from '../../core/operation.js';
import type { OptionService } from '../../core/options.js';
import { zonesContract } from './contract.js';
import { reachOf } from './reach.js';
import type { ZonesService } from './service.js';

/** Why a room order cannot be kept: a zone named twice, or one that does not exist. */
function orderProblem(service: ZonesService, order: unknown): string | null {
  if (!Array.isArray(order)) return null; // the schema's to refuse
  const seen = new Set<unknown>();
  for (const id of order) {
    if (seen.has(id)) return `zone '${String(id)}' is named twice`;
    seen.add(id);
    if (typeof id === 'string' && !service.exists(id)) return `zone '${id}' does not exist`;
  }
  return null;
}

export function zonesOperations(service: ZonesService, options: OptionService): Operation[] {
  // A token held to some rooms (a guest's) sees those and the zones inside them, and no other.
  const reach = reachOf(service);
  return [
    ...options.register(zonesContract.name, zonesContract.options, { roomOrder: (value) => orderProblem(service, value) }),
    ...implement(zonesContract.operations, {
      getState: (_input, { token }) => ({ zones: Object.keys(service.list()).filter((id) => reach.zone(token, id)).length, root: service.root }),
      getZones: (_input, { token }) => {
        const all = service.list();
        if (reach.limited(token)) for (const id of Object.keys(all)) if (!reach.zone(token, id)) delete all[id];
        return all;
      },
      getZone: ({ params }, { token }) => {
        if (!reach.zone(token, params.id)) throw notFound(`zone '${params.id}' does not exist`);
        return service.get(params.id);
      },
      createZone: ({ body }) => service.create(body),
      updateZone: ({ params, body }) => service.update(params.id, body),
      deleteZone: async ({ params }) => {
        await service.remove(params.id);
      },
    }),
  ];
}
