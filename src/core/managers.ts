/**
 * What every manager is: a name (its URL segment), the scope that lets a client receive its
 * events, its operation table, and a start/stop lifecycle. The constructor only stores what it
 * is given; I/O happens in start().
 */
import type { Logger } from 'pino';
import type { AppGateway } from '../apps/gateway.js';
import type { Config } from '../config.js';
import type { HostProbes } from '../host-probes.js';
import type { ManagerContract, ManagerName } from './contract.js';
import type { EventBus } from './events.js';
import type { Operation } from './operation.js';
import type { OptionService } from './options.js';
import type { Store } from './store.js';

export { MANAGER_NAMES, type ManagerName } from './contract.js';

export interface Manager {
  readonly name: ManagerName;
  /** What it promises clients: operations, options, events (its `name` is the contract's). */
  readonly contract: ManagerContract;
  /** The contract's operations with their handlers, options' included. */
  readonly operations: readonly Operation[];
  /** The apps manager's way in for the HTTP layer: apps' Web APIs, realtime and pages. */
  readonly appGateway?: AppGateway;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What the hub hands every manager. */
export interface ManagerContext {
  readonly config: Config;
  readonly store: Store;
  readonly bus: EventBus;
  readonly log: Logger;
  /** Shared option helper: managers declare options here and get their operations back. */
  readonly options: OptionService;
  /** The machine's probes, begun when the hub started (host-probes.ts); without them, made in start(). */
  readonly probes?: HostProbes;
}
