/**
 * The zones handlers: the home's tree of zones, each operation a call into the service.
 */
import { implement, type Operation } from '../../core/operation.js';
import { zonesContract } from './contract.js';
import type { ZonesService } from './service.js';

export function zonesOperations(service: ZonesService): Operation[] {
  return implement(zonesContract.operations, {
    getState: () => ({ zones: Object.keys(service.list()).length, root: service.root }),
    getZones: () => service.list(),
    getZone: ({ params }) => service.get(params.id),
    createZone: ({ body }) => service.create(body),
    updateZone: ({ params, body }) => service.update(params.id, body),
    deleteZone: async ({ params }) => {
      await service.remove(params.id);
    },
  });
}
