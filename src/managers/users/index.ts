/**
 * Users: who the caller is (`getUserMe`, operations.ts). Until hearth has people, a token is its user.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { usersContract } from './contract.js';
import { usersOperations } from './operations.js';

export class UsersManager implements Manager {
  readonly name = usersContract.name;
  readonly contract = usersContract;
  readonly operations: readonly Operation[];

  constructor(ctx: ManagerContext) {
    this.operations = usersOperations(ctx.hubId);
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
