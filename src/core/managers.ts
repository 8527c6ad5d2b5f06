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
  /**
   * Work that may wait until the hub answers (called once it listens, on managers that started):
   * what a start does for every device of a big home is paid after the hub's first answer, not
   * before it.
   */
  listening?(): void;
  stop(): Promise<void>;
}
