/**
 * What the SDK in an app's process is made of: the channel to the hub (the bootstrap's RPC
 * peer) and what the hub sent with `init`. The SDK itself knows nothing of frames or sockets.
 */
import type { AppState, HubCallArgs, HubCallMethod } from '../apps/wire/protocol.js' with { 'resolution-mode': 'import' };

/** Calls to the hub; each rejects with an Error whose `code` says why when the hub refuses. */
export interface Transport {
  call<M extends HubCallMethod>(method: M, args: HubCallArgs<M>): Promise<unknown>;
}

export interface HomeyContext {
  readonly transport: Transport;
  readonly app: { readonly id: string; readonly version: string; readonly dir: string; readonly userdata: string };
  /** app.json as the app wrote it. */
  readonly manifest: Record<string, unknown>;
  readonly permissions: readonly string[];
  /** The hub's current state, kept current by the hub's events (see Homey.applyEvent). */
  readonly state: AppState;
  /** The app's env.json. */
  readonly env: Record<string, unknown>;
}

/** True when app.json asks for `permission` (hearth's own hub checks again on every call). */
export const hasPermission = (ctx: HomeyContext, permission: string): boolean => ctx.permissions.includes(permission);

let thisApp: HomeyContext | undefined;

/** Records the app this process runs (one per process): the Homey instance does, at init. */
export function runningApp(ctx: HomeyContext): void {
  thisApp = ctx;
}

/** The app this process runs; undefined before init (the app's own code never runs before it). */
export const currentApp = (): HomeyContext | undefined => thisApp;
