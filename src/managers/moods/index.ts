/** Moods (Homey's moods manager): the operations over the service (service.ts). */
import type { Manager } from '../../core/managers.js';
import { implement, type Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import type { DevicesService } from '../devices/service.js';
import type { ZonesService } from '../zones/service.js';
import { moodsContract } from './contract.js';
import { MoodsService } from './service.js';

export class MoodsManager implements Manager {
  readonly name = moodsContract.name;
  readonly contract = moodsContract;
  readonly operations: readonly Operation[];
  readonly service: MoodsService;

  constructor(ctx: ManagerContext, devices: DevicesService, zones: ZonesService) {
    const service = (this.service = new MoodsService(ctx.store, ctx.bus, devices, zones));
    this.operations = implement(moodsContract.operations, {
      getState: () => ({ moods: Object.keys(service.list()).length }),
      getMoods: () => service.list(),
      getMood: ({ params }) => service.get(params.id),
      createMood: ({ body }) => service.create(body),
      updateMood: ({ params, body }) => service.update(params.id, body),
      setMood: ({ params }, { token }) => service.apply(params.id, token?.actor ?? null),
      deleteMood: async ({ params }) => {
        await service.remove(params.id);
      },
    });
  }

  async start(): Promise<void> {
    this.service.start();
  }

  async stop(): Promise<void> {}
}
