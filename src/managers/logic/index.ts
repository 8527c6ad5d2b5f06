/**
 * Logic: the home's variables (service.ts), which flows read as tokens and set with cards.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { logicContract } from './contract.js';
import { logicOperations } from './operations.js';
import { LogicService } from './service.js';

export class LogicManager implements Manager {
  readonly name = logicContract.name;
  readonly contract = logicContract;
  readonly operations: readonly Operation[];
  readonly service: LogicService;

  constructor(ctx: ManagerContext) {
    const service = (this.service = new LogicService(ctx.store, ctx.bus));
    this.operations = logicOperations(service);
  }

  async start(): Promise<void> {
    this.service.start();
  }

  async stop(): Promise<void> {}
}
