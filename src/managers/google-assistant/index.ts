/**
 * The voice-assistant integration: a PIN that the assistant asks for before sensitive actions.
 * The PIN is secret: never in events, state or logs; readable only through its own GET.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { googleAssistantContract } from './contract.js';
import { googleAssistantOperations } from './operations.js';

export class GoogleAssistantManager implements Manager {
  readonly name = googleAssistantContract.name;
  readonly contract = googleAssistantContract;
  readonly operations: readonly Operation[];

  constructor(ctx: ManagerContext) {
    this.operations = googleAssistantOperations(ctx.options);
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
