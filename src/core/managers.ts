/**
 * What every manager is to the rest of the hub: a name (its URL segment), its contract, the
 * contract's operations with their handlers, and a start/stop lifecycle. The constructor only
 * stores what it is given; I/O happens in start(). What a manager is given is in
 * managers/context.ts.
 */
import type { ManagerContract, ManagerName } from './contract.js';
import type { Operation } from './operation.js';

export { MANAGER_NAMES, type ManagerName } from './contract.js';

export interface Manager {
  readonly name: ManagerName;
  /** What it promises clients: operations, options, events (its `name` is the contract's). */
  readonly contract: ManagerContract;
  /** The contract's operations with their handlers, options' included. */
  readonly operations: readonly Operation[];
  start(): Promise<void>;
  stop(): Promise<void>;
}
