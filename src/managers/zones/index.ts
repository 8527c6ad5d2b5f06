/**
 * Zones: the home as a tree of zones with one root; devices are placed in them.
 */
import type { Manager } from '../../core/managers.js';
import { implement, type Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { zonesContract } from './contract.js';
import { ZonesService } from './service.js';

export class ZonesManager implements Manager {
  readonly name = zonesContract.name;
  readonly contract = zonesContract;
  readonly operations: readonly Operation[];
  readonly service: ZonesService;

  constructor(ctx: ManagerContext) {
    const service = (this.service = new ZonesService(ctx.store, ctx.bus));
    this.operations = implement(zonesContract.operations, {
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

  async start(): Promise<void> {
    await this.service.start();
  }

  async stop(): Promise<void> {}
}
