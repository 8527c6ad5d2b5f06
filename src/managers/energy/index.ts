/** Energy (Homey's energy manager): the operations over the service (service.ts). */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import type { DevicesService } from '../devices/service.js';
import type { InsightsService } from '../insights/service.js';
import type { ZonesService } from '../zones/service.js';
import { energyContract } from './contract.js';
import { energyOperations } from './operations.js';
import { EnergyService } from './service.js';

export class EnergyManager implements Manager {
  readonly name = energyContract.name;
  readonly contract = energyContract;
  readonly operations: readonly Operation[];
  readonly service: EnergyService;

  constructor(ctx: ManagerContext, devices: DevicesService, zones: ZonesService, insights: InsightsService) {
    this.service = new EnergyService({ bus: ctx.bus, options: ctx.options, devices, zones, insights, zone: ctx.config.zone, log: ctx.log });
    this.operations = energyOperations(this.service, ctx.options);
  }

  async start(): Promise<void> {
    this.service.start();
  }

  listening(): void {
    this.service.settle();
  }

  async stop(): Promise<void> {
    this.service.stop();
  }
}
