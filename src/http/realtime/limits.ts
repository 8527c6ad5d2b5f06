/**
 * What a realtime connection may hold, before and after its handshake. Before it, anyone on the
 * LAN (any web page a person opens, an app through its own socket) can open one: it gets a short
 * deadline, small frames, and a share of the hub's slots per address, as the plain WebSockets'
 * 4 KiB before auth. After it, a token's connection gets full-size frames, and rooms (URIs it
 * subscribed to) bounded per connection and per token, each URI bounded in length.
 */
import type { Socket as EngineSocket } from 'engine.io';
import { HearthError } from '../../core/errors.js';

/** A connection that has not handshaken is closed after this long (homey-api handshakes at once). */
export const HANDSHAKE_TIMEOUT_MS = 5_000;
/** Frames before the handshake: `handshakeClient {token, homeyId}` is ~200 bytes. */
export const MAX_FRAME_BEFORE_HANDSHAKE = 4 * 1024;
/** Frames after it: an api call's body may be a dashboard with its columns. */
export const MAX_FRAME = 1024 * 1024;
/** Connections not yet handshaken, from one address and in all: the rest of the slots stay for tokens. */
export const MAX_PENDING_PER_ADDRESS = 8;
export const MAX_PENDING = 128;
/** The longest URI a client may subscribe to (a device's is ~50 characters, an app's ~100). */
export const MAX_URI_LENGTH = 256;
/** Rooms one connection may hold (homey-api subscribes per device it holds: a big home has 1,000) and one token in all. */
export const MAX_ROOMS_PER_CONNECTION = 2_048;
export const MAX_ROOMS_PER_TOKEN = 4_096;

/** The id in `homey:device:<id>`: what a hub's ids are made of, never a megabyte of anything. */
const ITEM_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Checks an item URI's id against the grammar; a HearthError says why not. */
export function checkItemId(uri: string, id: string): void {
  if (!ITEM_ID.test(id))
    throw new HearthError('not_found', `'${uri.slice(0, 80)}' names no item of this hub: an id is 1 to 128 letters, digits, '.', '_', ':' or '-'`);
}

/** Checks a URI's type and length before anything is looked up. */
export function checkUri(uri: unknown): asserts uri is string {
  if (typeof uri !== 'string')
    throw new HearthError('invalid_parameter', 'subscribe takes a URI: homey:manager:<name>, homey:app:<appId> or homey:device:<id>');
  if (uri.length > MAX_URI_LENGTH) throw new HearthError('invalid_parameter', `a URI is at most ${MAX_URI_LENGTH} characters; this one is ${uri.length}`);
}

/**
 * The receiving limit of a connection's transport, raised once it handshook (and again after a
 * transport upgrade, whose new transport starts with the server's small limit). Polling keeps its
 * limit on the transport; a WebSocket's is its ws receiver's (`_maxPayload`, which ws reads per
 * frame: test/homey/realtime-limits.test.ts holds it to that).
 */
export function setFrameLimit(conn: EngineSocket, bytes: number): void {
  const transport = conn.transport as unknown as { maxHttpBufferSize?: number; socket?: { _receiver?: { _maxPayload?: number } } };
  if (typeof transport.maxHttpBufferSize === 'number') transport.maxHttpBufferSize = bytes;
  const receiver = transport.socket?._receiver;
  if (receiver && typeof receiver._maxPayload === 'number') receiver._maxPayload = bytes;
}

/** Connections not yet handshaken, by address. */
export class PendingConnections {
  private readonly byAddress = new Map<string, Set<EngineSocket>>();
  private total = 0;

  /** Why a new connection from `address` is refused now, or null. */
  refusal(address: string): string | null {
    if (this.total >= MAX_PENDING) return 'the hub holds its most realtime connections that have not handshaken; try again later';
    if ((this.byAddress.get(address)?.size ?? 0) >= MAX_PENDING_PER_ADDRESS)
      return `this address holds ${MAX_PENDING_PER_ADDRESS} realtime connections that have not handshaken, its most; handshake or close them`;
    return null;
  }

  add(address: string, conn: EngineSocket): void {
    const set = this.byAddress.get(address) ?? new Set();
    if (set.has(conn)) return;
    set.add(conn);
    this.byAddress.set(address, set);
    this.total++;
  }

  /** The connection handshook or closed. */
  remove(address: string, conn: EngineSocket): void {
    const set = this.byAddress.get(address);
    if (!set?.delete(conn)) return;
    this.total--;
    if (set.size === 0) this.byAddress.delete(address);
  }
}

/** Rooms held per token (a connection's own are its socket's `rooms`, counted by socket.io). */
export class RoomCounts {
  private readonly perToken = new Map<string, number>();

  /** Takes a room for `token` on a connection that holds `held` rooms, or throws saying which bound. */
  take(token: string, held: number): void {
    if (held >= MAX_ROOMS_PER_CONNECTION)
      throw new HearthError('rate_limited', `a connection holds at most ${MAX_ROOMS_PER_CONNECTION} subscriptions; unsubscribe from some first`);
    const mine = this.perToken.get(token) ?? 0;
    if (mine >= MAX_ROOMS_PER_TOKEN)
      throw new HearthError(
        'rate_limited',
        `this token holds ${MAX_ROOMS_PER_TOKEN} subscriptions over its connections, its most; unsubscribe from some first`,
      );
    this.perToken.set(token, mine + 1);
  }

  give(token: string, rooms: number): void {
    const left = (this.perToken.get(token) ?? 0) - rooms;
    if (left > 0) this.perToken.set(token, left);
    else this.perToken.delete(token);
  }
}
