/** Alarms (Homey's alarms manager): the operations over the service and its minute clock (service.ts). */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import { clockFor } from '../../core/system-zone.js';
import type { ManagerContext } from '../context.js';
import { alarmsContract } from './contract.js';
import { alarmsOperations } from './operations.js';
import { AlarmsService } from './service.js';

export class AlarmsManager implements Manager {
  readonly name = alarmsContract.name;
  readonly contract = alarmsContract;
  readonly operations: readonly Operation[];
  readonly service: AlarmsService;

  constructor(ctx: ManagerContext) {
    this.service = new AlarmsService(ctx.store, ctx.bus, clockFor(ctx.config.zone));
    this.operations = alarmsOperations(this.service);
  }

  async start(): Promise<void> {
    this.service.start();
  }

  async stop(): Promise<void> {
    this.service.stop();
  }
}
