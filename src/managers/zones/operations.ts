/**
 * The zones handlers: the home's tree of zones, each operation a call into the service, and the
 * order of the rooms on the home (an option).
 */
import { implement, type Operation } from '../../core/operation.js';
import type { OptionService } from '../../core/options.js';
import { zonesContract } from './contract.js';
import type { ZonesService } from './service.js';

export function zonesOperations(service: ZonesService, options: OptionService): Operation[] {
  return [
    ...options.register(zonesContract.name, zonesContract.options),
    ...implement(zonesContract.operations, {
      getState: () => ({ zones: Object.keys(service.list()).length, root: service.root }),
      getZones: () => service.list(),
      getZone: ({ params }) => service.get(params.id),
      createZone: ({ body }) => service.create(body),
      updateZone: ({ params, body }) => service.update(params.id, body),
      deleteZone: async ({ params }) => {
        await service.remove(params.id);
      },
    }),
  ];
}
