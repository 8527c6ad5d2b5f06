/**
 * Whether a token may hear one event: what the WebSockets and Homey's realtime ask of each event
 * for a token held to some rooms (a guest's). The managers make it (managers/zones/event-reach.ts);
 * the HTTP layer only asks.
 */
import type { TokenInfo } from './tokens.js';

export type EventReach = (token: TokenInfo, manager: string, event: string, args: readonly unknown[]) => boolean;

/** Every token hears every event its scopes let it: a hub without rooms to hold anyone to. */
export const HEARS_ALL: EventReach = () => true;
