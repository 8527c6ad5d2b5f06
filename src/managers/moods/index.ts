/** Moods (Homey's moods manager): the operations over the service (service.ts). */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import type { DevicesService } from '../devices/service.js';
import type { ZonesService } from '../zones/service.js';
import { moodsContract } from './contract.js';
import { moodsOperations } from './operations.js';
import { MoodsService } from './service.js';

export class MoodsManager implements Manager {
  readonly name = moodsContract.name;
  readonly contract = moodsContract;
  readonly operations: readonly Operation[];
  readonly service: MoodsService;

  constructor(ctx: ManagerContext, devices: DevicesService, zones: ZonesService) {
    const service = (this.service = new MoodsService(ctx.store, ctx.bus, devices, zones));
    this.operations = moodsOperations(service);
  }

  async start(): Promise<void> {
    this.service.start();
  }

  async stop(): Promise<void> {}
}
