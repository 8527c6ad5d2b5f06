/** What the owner of the apps runtime (the apps manager) tells it. */
import type { Logger } from 'pino';
import type { Store } from '../../core/store.js';
import type { AppLimitDefaults } from './app-spec.js';
import type { Locale, Location } from './app-state.js';
import type { App } from './app-view.js';
import type { RealtimeEvent } from './realtime.js';
import type { Sandbox, SandboxChoice } from './sandbox.js';
import type { SupervisorOptions } from './supervisor.js';

export type AppEventKind = 'create' | 'update' | 'delete';

/** What the runtime reports to its owner; each defaults to nothing. */
export interface RuntimeHooks {
  /** Every change of an App object (the apps manager publishes app.create/update/delete). */
  event?(kind: AppEventKind, app: App): void;
  /** What apps send their pages (`homey.api.realtime`). */
  realtime?(event: RealtimeEvent): void;
  /** App notifications (`homey.notifications`). */
  notification?(appId: string, excerpt: string): void;
}

export interface RuntimeOptions {
  hooks?: RuntimeHooks;
  appsDir: string;
  dataDir: string;
  store: Store;
  log: Logger;
  heapMb: number;
  /** The hub's language and units (the i18n manager's options); default en/metric. */
  locale?: () => Locale;
  /** The hub's location (the geolocation manager's option); default none. */
  location?: () => Location | null;
  /** The hub's IANA time zone; default the system's. */
  timeZone?: string;
  /** The hub's id (core/hub-id.ts); tests without a hub leave it out. */
  hubId?: string;
  /** How apps are contained (`--app-sandbox`); default: namespaces where bubblewrap works. */
  sandbox?: SandboxChoice;
  /** Each app's memory and disk, MiB: the defaults, and the most an app.json may ask for. */
  limits?: Partial<AppLimitDefaults>;
  supervisor?: Partial<Omit<SupervisorOptions, 'heapMb'>>;
  /** The sandbox probe begun by the hub (host-probes.ts); made in start() without one. */
  sandboxProbe?: Promise<Sandbox>;
  /** After this long up, the counts of hub deaths start over (default 10 minutes; tests shorten it). */
  stableAfterMs?: number;
}
