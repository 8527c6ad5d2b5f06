/**
 * Homey's realtime protocol, for Homey's own client (npm homey-api, V2 and V3 local) and anything
 * else that speaks it: socket.io at `/socket.io/` (Engine.IO 3 for socket.io 2 clients, which
 * homey-api is, and 4 for newer ones; WebSocket and long-polling).
 * - The client emits `handshakeClient {token, homeyId}` on the root namespace and is answered
 *   `{namespace: '/api'}`; the token is checked as a request's is (a failure counts towards the
 *   address's limit). Until then a connection has a short deadline, small frames and a share of
 *   the slots per address (limits.ts).
 * - On `/api` it emits `subscribe(uri)` / `unsubscribe(uri)` for `homey:manager:<name>` (the
 *   manager's event scope, as its plain WebSocket asks), `homey:app:<appId>` (an app's
 *   realtime events: `service.app.readonly` or `service.dashboard.readonly`) and
 *   `homey:device:<id>` (item-events.ts); events arrive as `(event, ...args)` on the URI, the
 *   same events the plain WebSockets carry (event-sockets.ts).
 * - `api {uri, operation, args}` runs an operation as the HTTP request it stands for
 *   (api-over-socket.ts) and answers `(error, result)` with the HTTP answer's body.
 * The plain WebSockets stay the web app's (no socket.io client in its bundle); socket.io is loaded
 * on the first request to `/socket.io/`, so a hub no Homey client talks to does not carry it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Server as EngineServer, Socket as EngineSocket } from 'engine.io';
import type { Logger } from 'pino';
import type { Namespace, Socket, Server as SocketServer } from 'socket.io';
import type { AppGateway } from '../../apps/host/gateway.js';
import { HearthError } from '../../core/errors.js';
import type { EventReach } from '../../core/event-reach.js';
import type { Manager } from '../../core/managers.js';
import { appOwnerUri as appUri } from '../../core/owners.js';
import type { TokenInfo } from '../../core/tokens.js';
import type { HubBus } from '../../managers/bus.js';
import type { Authenticator } from '../auth.js';
import { checkAppChannel, checkManagerChannel, MAX_BUFFERED_BYTES, MAX_SOCKETS, MAX_SOCKETS_PER_TOKEN } from '../event-sockets.js';
import { managerUri, SocketApi } from './api-over-socket.js';
import { ITEM_MANAGERS, itemEvent } from './item-events.js';
import { checkItemId, checkUri, HANDSHAKE_TIMEOUT_MS, MAX_FRAME, MAX_FRAME_BEFORE_HANDSHAKE, PendingConnections, RoomCounts, setFrameLimit } from './limits.js';

export const REALTIME_PATH = '/socket.io/';
/** The namespace every handshake names (Homey's is `/api` too). */
export const HOMEY_NAMESPACE = '/api';

export interface RealtimeDeps {
  readonly bus: HubBus;
  readonly auth: Authenticator;
  readonly managers: readonly Manager[];
  readonly gateway?: AppGateway;
  /** The hub's request handler, which runs `api` calls. */
  readonly fetch: (req: Request, env: object) => Response | Promise<Response>;
  readonly log: Logger;
  /** Which events a token held to some rooms hears; absent: all its scopes let it. */
  readonly reach?: EventReach;
}

/** A connection that handshook: whose token it is (the secret runs its `api` calls). */
interface Session {
  readonly token: TokenInfo;
  readonly secret: string;
  readonly address: string;
  readonly close: () => void;
}

type Connection = Socket['conn'];

interface Loaded {
  readonly engine: EngineServer;
  readonly io: SocketServer;
  readonly nsp: Namespace;
}

/**
 * An error as the socket carries it: the HTTP error body, with `message` too (homey-api rejects a
 * refused subscription with the object as it came, so its callers read `message`).
 */
const withMessage = (body: { error_description?: unknown; [field: string]: unknown }): object => ({ ...body, message: body.error_description });
const errorBody = (err: unknown): object =>
  withMessage(
    err instanceof HearthError ? err.toBody() : { error: 'internal_error', error_description: 'the hub failed to handle this call', statusCode: 500 },
  );

export class HomeyRealtime {
  private loading: Promise<Loaded> | undefined;
  /** Handshaken connections, by their Engine.IO connection (shared by its namespaces' sockets). */
  private readonly sessions = new Map<Connection, Session>();
  private readonly perToken = new Map<string, number>();
  private readonly pending = new PendingConnections();
  private readonly rooms = new RoomCounts();
  /** The operations by URI, made with the first api call (nothing at the hub's start). */
  private api: SocketApi | undefined;
  private unsubscribe: Array<() => void> = [];
  private closed = false;

  constructor(private readonly deps: RealtimeDeps) {}

  /** Whether a request or upgrade is this protocol's. */
  static handles(url: string | undefined): boolean {
    return url !== undefined && (url.startsWith(REALTIME_PATH) || url === REALTIME_PATH.slice(0, -1) || url.startsWith('/socket.io?'));
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.load().then(
      ({ engine }) => engine.handleUpgrade(req, socket, head),
      (err: unknown) => {
        this.deps.log.error({ err }, 'the realtime server failed to load');
        socket.destroy();
      },
    );
  }

  /** A long-polling request: answered by Engine.IO on the raw response. */
  async request(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { engine } = await this.load();
    engine.handleRequest(req, res);
  }

  private load(): Promise<Loaded> {
    if (this.closed) return Promise.reject(new Error('the hub is stopping'));
    this.loading ??= this.start();
    return this.loading;
  }

  private async start(): Promise<Loaded> {
    const [{ Server: Engine }, { Server: Io }] = await Promise.all([import('engine.io'), import('socket.io')]);
    const engine = new Engine({
      allowEIO3: true,
      cookie: false,
      // Until a connection handshakes; raised for it then (setFrameLimit).
      maxHttpBufferSize: MAX_FRAME_BEFORE_HANDSHAKE,
      // A new connection: the hub's total, like event sockets, and the share of those not yet handshaken.
      allowRequest: (req, fn) => {
        const why =
          engine.clientsCount >= MAX_SOCKETS ? 'the hub holds its most realtime connections' : this.pending.refusal(addressOf(req.socket?.remoteAddress));
        fn(why, why === null);
      },
    });
    engine.on('connection', (conn: EngineSocket) => this.onConnection(conn));
    const io = new Io({ serveClient: false, allowEIO3: true });
    io.bind(engine);
    io.of('/').on('connection', (socket) => this.onRoot(socket));
    const nsp = io.of(HOMEY_NAMESPACE);
    nsp.use((socket, next) => {
      const session = this.sessions.get(socket.conn);
      if (session) next();
      else next(new Error(`emit handshakeClient {token} first, then open ${HOMEY_NAMESPACE}`));
    });
    nsp.on('connection', (socket) => this.onHomey(socket));
    const { bus } = this.deps;
    this.unsubscribe.push(
      bus.subscribe((e) => {
        this.emit(nsp, managerUri(e.manager), e.event, e.args, e);
        // An item's own event right after its manager's, as Homey sends them, and before the
        // managers' listeners (flows, energy) run: a device's client waits for none of them.
        const device = bus.own('devices', e);
        const item = device && itemEvent(device);
        if (item) this.emit(nsp, item.uri, item.event, item.args, e);
      }),
    );
    const { gateway } = this.deps;
    if (gateway) this.unsubscribe.push(gateway.realtime.subscribe((e) => this.emit(nsp, appUri(e.appId), e.event, e.by ? [e.data, e.by] : [e.data])));
    this.deps.log.info('realtime (socket.io, for Homey clients) loaded');
    return { engine, io, nsp };
  }

  /** A new Engine.IO connection, before any namespace: it has HANDSHAKE_TIMEOUT_MS to handshake. */
  private onConnection(conn: EngineSocket): void {
    const address = addressOf(conn.remoteAddress);
    this.pending.add(address, conn);
    const timer = setTimeout(() => {
      // Discarded: a polling transport would otherwise wait for its next GET (or 30 s) to close.
      if (!this.sessions.has(conn)) conn.close(true);
    }, HANDSHAKE_TIMEOUT_MS);
    timer.unref();
    conn.once('close', () => {
      clearTimeout(timer);
      this.pending.remove(address, conn);
      this.forget(conn);
    });
  }

  private onRoot(socket: Socket): void {
    socket.on('handshakeClient', (payload: unknown, ack: unknown) => {
      if (typeof ack !== 'function') return;
      try {
        ack(null, this.handshake(socket, payload));
      } catch (err) {
        ack(errorBody(err));
      }
    });
  }

  private handshake(socket: Socket, payload: unknown): { namespace: string } {
    const secret = (payload as { token?: unknown } | null)?.token;
    if (typeof secret !== 'string' || secret === '') throw new HearthError('unauthorized', 'handshakeClient needs {token}: a token of this hub');
    const address = socket.conn.remoteAddress || socket.handshake.address || 'unknown';
    const token = this.deps.auth.authenticateSecret(secret, address);
    const { conn } = socket;
    if (this.sessions.has(conn)) return { namespace: HOMEY_NAMESPACE };
    if ((this.perToken.get(token.id) ?? 0) >= MAX_SOCKETS_PER_TOKEN) {
      throw new HearthError('rate_limited', `this token holds ${MAX_SOCKETS_PER_TOKEN} realtime connections, its most; close some first`);
    }
    this.sessions.set(conn, { token, secret, address, close: () => socket.conn.close() });
    this.perToken.set(token.id, (this.perToken.get(token.id) ?? 0) + 1);
    this.pending.remove(addressOf(conn.remoteAddress), conn);
    // A token's connection gets full-size frames, on this transport and on the one it upgrades to.
    setFrameLimit(conn, MAX_FRAME);
    conn.on('upgrade', () => setFrameLimit(conn, MAX_FRAME));
    return { namespace: HOMEY_NAMESPACE };
  }

  private forget(conn: Connection): void {
    const session = this.sessions.get(conn);
    if (!session) return;
    this.sessions.delete(conn);
    const left = (this.perToken.get(session.token.id) ?? 1) - 1;
    if (left > 0) this.perToken.set(session.token.id, left);
    else this.perToken.delete(session.token.id);
  }

  private onHomey(socket: Socket): void {
    const session = this.sessions.get(socket.conn);
    if (!session) {
      socket.disconnect(true);
      return;
    }
    // Rooms this socket joined (its own id's room aside), counted against its token too.
    let held = 0;
    const tokenId = session.token.id;
    socket.on('subscribe', (uri: unknown, ack: unknown) => {
      const answer = typeof ack === 'function' ? (ack as (err: unknown) => void) : () => {};
      try {
        const room = this.subscription(session, uri);
        if (!socket.rooms.has(room)) {
          this.rooms.take(tokenId, held);
          held++;
          void socket.join(room);
        }
        answer(null);
      } catch (err) {
        answer(errorBody(err));
      }
    });
    socket.on('unsubscribe', (uri: unknown, ack: unknown) => {
      if (typeof uri === 'string' && uri !== socket.id && socket.rooms.has(uri)) {
        void socket.leave(uri);
        held--;
        this.rooms.give(tokenId, 1);
      }
      if (typeof ack === 'function') ack(null);
    });
    socket.once('disconnect', () => this.rooms.give(tokenId, held));
    socket.on('api', (payload: unknown, ack: unknown) => {
      if (typeof ack !== 'function') return;
      this.call(session, payload).then(
        (answer) => (answer.ok ? ack(null, answer.result) : ack(answer.error)),
        (err: unknown) => ack(errorBody(err)),
      );
    });
  }

  /** The room of `uri` when the session's token may hear it; else a HearthError saying why. */
  private subscription(session: Session, uri: unknown): string {
    checkUri(uri);
    const [kind, id] = [uri.slice(0, uri.lastIndexOf(':')), uri.slice(uri.lastIndexOf(':') + 1)];
    if (kind === 'homey:manager') {
      const manager = this.deps.managers.find((m) => m.name === id);
      if (!manager) throw new HearthError('not_found', `this hub has no manager '${id}': nothing is published at '${uri}'`);
      // A manager that publishes nothing (system, i18n) may be listened to, as on Homey, whose
      // client connects to any manager it is asked for: nothing will come.
      const scope = manager.contract.eventScope;
      if (scope) checkManagerChannel(session.token, manager, scope);
      return uri;
    }
    if (kind === 'homey:app') {
      checkAppChannel(session.token, id, this.deps.gateway);
      return uri;
    }
    const itemManager = ITEM_MANAGERS[kind.replace(/^homey:/, '')];
    const manager = itemManager ? this.deps.managers.find((m) => m.name === itemManager) : undefined;
    if (manager?.contract.eventScope) {
      checkItemId(uri, id);
      checkManagerChannel(session.token, manager, manager.contract.eventScope);
      // Held to some rooms: what it holds is told as its manager's events would be (emit above).
      return uri;
    }
    throw new HearthError('not_found', `hearth publishes no events at '${uri}': subscribe to homey:manager:<name>, homey:app:<appId> or homey:device:<id>`);
  }

  /** The HTTP answer of an api call: its body, or its error body (the hub's sentence) when it failed. */
  private async call(session: Session, payload: unknown): Promise<{ ok: true; result: unknown } | { ok: false; error: unknown }> {
    this.api ??= new SocketApi(this.deps.managers);
    const request = this.api.request(this.api.parse(payload), 'http://hearth.internal', `Bearer ${session.secret}`);
    // The env stands for the socket's connection: its address and the session's token.
    const res = await this.deps.fetch(request, {
      incoming: { socket: { remoteAddress: session.address }, headers: { authorization: `Bearer ${session.secret}` } },
    });
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    const body: unknown = text === '' ? undefined : type.includes('json') ? JSON.parse(text) : text;
    if (res.status < 400) return { ok: true, result: body };
    return { ok: false, error: withMessage(body as { error_description?: unknown }) };
  }

  /**
   * Sends an event to a URI's subscribers, dropping those too slow to keep up. `source`: the hub
   * event it is (an item event is told as its manager's), for the subscribers held to some rooms.
   */
  private emit(
    nsp: Namespace,
    uri: string,
    event: string,
    args: readonly unknown[],
    source?: { manager: string; event: string; args: readonly unknown[] },
  ): void {
    const members = nsp.adapter.rooms.get(uri);
    if (!members || members.size === 0) return;
    const deaf: string[] = [];
    for (const id of members) {
      const socket = nsp.sockets.get(id);
      if (!socket) continue;
      if (pendingBytes(socket) > MAX_BUFFERED_BYTES) {
        this.deps.log.warn({ uri, token: this.sessions.get(socket.conn)?.token.id }, 'dropping a slow realtime client');
        socket.conn.close();
      }
      const token = this.sessions.get(socket.conn)?.token;
      const reach = this.deps.reach;
      if (token?.zones && (!source || !reach?.(token, source.manager, source.event, source.args))) deaf.push(id);
    }
    // One encoding for the whole room (but those it is not for).
    (deaf.length > 0 ? nsp.to(uri).except(deaf) : nsp.to(uri)).emit(uri, event, ...args);
  }

  /** Closes every connection that handshook with a token that was just revoked. */
  closeToken(tokenId: string): void {
    for (const session of [...this.sessions.values()]) if (session.token.id === tokenId) session.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    const loaded = await this.loading?.catch(() => undefined);
    if (!loaded) return;
    for (const session of [...this.sessions.values()]) session.close();
    loaded.engine.close();
  }
}

/** A connection's address, for its share of the slots (an app's own socket has none: they share one). */
const addressOf = (remote: string | undefined): string => remote || 'local';

/** What a connection has not yet sent: Engine.IO's queue, and its WebSocket's buffer. */
function pendingBytes(socket: Socket): number {
  const conn = socket.conn as unknown as { writeBuffer?: unknown[]; transport?: { socket?: { bufferedAmount?: number } } };
  return (conn.transport?.socket?.bufferedAmount ?? 0) + (conn.writeBuffer?.length ?? 0) * 1024;
}
