/**
 * What every manager is: a name (its URL segment), the scope that lets a client receive its
 * events, its operation table, and a start/stop lifecycle. The constructor only stores what it
 * is given; I/O happens in start().
 */
import type { Logger } from 'pino';
import type { AppGateway } from '../apps/gateway.js';
import type { Config } from '../config.js';
import type { HostProbes } from '../host-probes.js';
import type { EventBus, EventContract } from './events.js';
import type { Operation } from './operation.js';
import type { OptionService } from './options.js';
import type { Scope } from './scopes.js';
import type { Store } from './store.js';

export const MANAGER_NAMES = [
  'dashboards',
  'apps',
  'speech-output',
  'backup',
  'insights',
  'geolocation',
  'i18n',
  'google-assistant',
  'tokens',
  'system',
] as const;
export type ManagerName = (typeof MANAGER_NAMES)[number];

export interface Manager {
  readonly name: ManagerName;
  /** Scope a token needs to receive this manager's events; null: the manager has no namespace. */
  readonly eventScope: Scope | null;
  readonly operations: readonly Operation[];
  /** The events it publishes and their arguments' schemas (option.update is every manager's). */
  readonly events?: EventContract;
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
