/**
 * What the hub hands every manager: its configuration, the data file, the event bus, a logger,
 * the option service, and the machine's probes the hub began at start.
 */
import type { Logger } from 'pino';
import type { Sandbox } from '../apps/host/sandbox.js';
import type { Config } from '../config.js';
import type { OptionService } from '../core/options.js';
import type { Store } from '../core/store.js';
import type { HubBus } from './bus.js';
import type { SpeechProbe } from './speech-output/probe.js';

/** What the hub asks of the machine at start (host-probes.ts), run while it starts. */
export interface HostProbes {
  readonly speech: Promise<SpeechProbe>;
  readonly sandbox: Promise<Sandbox>;
}

export interface ManagerContext {
  readonly config: Config;
  readonly store: Store;
  readonly bus: HubBus;
  readonly log: Logger;
  /** The hub's id, as Homey's clients know a Homey by it (core/hub-id.ts). */
  readonly hubId: string;
  /** Shared option helper: managers declare options here and get their operations back. */
  readonly options: OptionService;
  /** The machine's probes, begun when the hub started (host-probes.ts); without them, made in start(). */
  readonly probes?: HostProbes;
  /** Where devices and people on the LAN reach the hub (`host:port`, core/lan-address.ts), once it listens; null before. */
  readonly localAddress?: () => string | null;
}
