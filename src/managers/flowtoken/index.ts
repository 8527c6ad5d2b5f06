/**
 * Flow tokens: the global tokens apps make and the logic variables (registry.ts), which flows
 * use in their cards' arguments. The flow manager serves the apps' calls that make and set them.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { AppsPort } from '../apps/port.js';
import type { ManagerContext } from '../context.js';
import type { LogicService } from '../logic/service.js';
import { flowtokenContract } from './contract.js';
import { flowtokenOperations } from './operations.js';
import { FlowTokens } from './registry.js';

export class FlowTokenManager implements Manager {
  readonly name = flowtokenContract.name;
  readonly contract = flowtokenContract;
  readonly operations: readonly Operation[];
  readonly tokens: FlowTokens;

  constructor(ctx: ManagerContext, logic: LogicService, apps: AppsPort<'has' | 'get'>) {
    // A token's owner is named by its app's name.
    const appName = (appId: string) => (apps.has(appId) ? apps.get(appId).name : appId);
    const tokens = (this.tokens = new FlowTokens(ctx.bus, logic, appName));
    this.operations = flowtokenOperations(tokens);
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {}
}
