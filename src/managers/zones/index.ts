/**
 * Zones: the home as a tree of zones with one root; devices are placed in them.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { zonesContract } from './contract.js';
import { zonesOperations } from './operations.js';
import { ZonesService } from './service.js';

export class ZonesManager implements Manager {
  readonly name = zonesContract.name;
  readonly contract = zonesContract;
  readonly operations: readonly Operation[];
  readonly service: ZonesService;

  constructor(ctx: ManagerContext) {
    const service = (this.service = new ZonesService(ctx.store, ctx.bus));
    this.operations = zonesOperations(service, ctx.options);
  }

  async start(): Promise<void> {
    await this.service.start();
  }

  async stop(): Promise<void> {}
}
