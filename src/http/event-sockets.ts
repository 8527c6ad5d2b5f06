/**
 * The WebSocket namespaces: one per manager, on the manager's own prefix
 * (`ws://hub:8720/api/manager/dashboards`), and one per app for its realtime events
 * (`ws://hub:8720/api/app/<appId>`: what the app sends its widgets and settings page). Each frame
 * is `{"event", "args"}`. Only tokens with the manager's read scope may connect (for an app:
 * `service.app.readonly` or `service.dashboard.readonly`); slow consumers are dropped rather
 * than buffered, dead peers are found by ping.
 */

import type { Context, Hono } from 'hono';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AppGateway } from '../apps/host/gateway.js';
import type { RealtimeEvent } from '../apps/host/realtime.js';
import { APP_ID } from '../apps/manifest/manifest.js';
import { HearthError } from '../core/errors.js';
import { type EventReach, HEARS_ALL } from '../core/event-reach.js';
import type { EventBus } from '../core/events.js';
import type { Manager } from '../core/managers.js';
import { grants, type Scope } from '../core/scopes.js';
import { APP_TOKEN_REFUSED, isAppToken, type TokenInfo } from '../core/tokens.js';
import { APP_API_PREFIX } from './app-api.js';
import type { Authenticator } from './auth.js';
import { answer, type NodeEnv } from './node-adapter.js';

/** A client whose unsent data passes this is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Clients send nothing we need; anything bigger than this is refused by ws itself. */
export const MAX_INCOMING_FRAME = 4096;
export const PING_INTERVAL_MS = 30_000;
/**
 * Event sockets one token may hold open, and the hub in all. A browser opens one per channel it
 * shows (a dozen at most); one read-only token had held 12,000 (+156 MiB) before these caps
 * (issue 22, finding 8). Past either, the new socket is closed at once with TRY_AGAIN_LATER.
 */
export const MAX_SOCKETS_PER_TOKEN = 64;
export const MAX_SOCKETS = 1024;
/** RFC 6455's "try again later": the server is at a limit, the client may reconnect later. */
export const TRY_AGAIN_LATER = 1013;

/** An upgrade request's env: `accept` takes the socket once the handshake is done. */
export interface UpgradeEnv extends NodeEnv {
  accept?: (open: (socket: WebSocket) => void) => void;
}

interface Client {
  readonly socket: WebSocket;
  readonly tokenId: string;
  /** For a token held to some rooms: whether it hears an event of its channel; absent: it hears all. */
  readonly hears?: (event: string, args: readonly unknown[]) => boolean;
  alive: boolean;
  /** Counted in the caps until it is forgotten (once, however it ends). */
  counted: boolean;
}

/**
 * Whether `token` may hear `manager`'s events: throws the HearthError saying why not. The one rule
 * of both protocols (these WebSockets and Homey's realtime, realtime/homey-realtime.ts).
 */
export function checkManagerChannel(token: TokenInfo, manager: Manager, scope: Scope): void {
  if (!grants(token.scopes, scope)) throw new HearthError('missing_scope', `receiving ${manager.name} events needs the scope '${scope}'`);
}

/** Whether `token` may hear app `appId`'s realtime events (not with an app's token: apps cannot call each other). */
export function checkAppChannel(token: TokenInfo, appId: string, gateway: AppGateway | undefined): void {
  if (isAppToken(token)) throw new HearthError('missing_scope', APP_TOKEN_REFUSED);
  if (!grants(token.scopes, 'service.app.readonly') && !grants(token.scopes, 'service.dashboard.readonly')) {
    throw new HearthError('missing_scope', "receiving an app's events needs the scope 'service.app.readonly' or 'service.dashboard.readonly'");
  }
  if (!gateway || !APP_ID.test(appId) || !gateway.installed(appId)) throw new HearthError('not_found', `app '${appId}' is not installed`);
}

/** The channel of an app's realtime events. */
const appChannel = (appId: string): string => `app:${appId}`;

export class EventSockets {
  /** Clients per channel: a manager's name, or `app:<appId>`. */
  private readonly clients = new Map<string, Set<Client>>();
  /** Open sockets per token id, and in all. */
  private readonly perToken = new Map<string, number>();
  private total = 0;
  private unsubscribe: Array<() => void>;
  private readonly pinger: NodeJS.Timeout;
  /** Completes the handshakes the routes accepted; frames past the small limit are refused by ws. */
  readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_INCOMING_FRAME });

  constructor(
    bus: EventBus,
    private readonly log: Logger,
    private readonly reach: EventReach = HEARS_ALL,
  ) {
    this.unsubscribe = [bus.subscribe((e) => this.send(e.manager, e.event, e.args))];
    this.pinger = setInterval(() => this.ping(), PING_INTERVAL_MS);
    this.pinger.unref();
  }

  /** Routes `GET /api/manager/<name>` upgrades for every manager that has events. */
  mount(app: Hono, managers: readonly Manager[], auth: Authenticator): void {
    for (const manager of managers) {
      const scope = manager.contract.eventScope;
      if (!scope) continue;
      const path = `/api/manager/${manager.name}`;
      app.get(
        path,
        async (c, next) => {
          if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
            throw new HearthError('invalid_parameter', `${path} is the ${manager.name} event namespace: open it with a WebSocket client`);
          }
          const token = auth.authenticate(c, true);
          checkManagerChannel(token, manager, scope);
          c.set('tokenId' as never, token.id as never);
          if (token.zones) c.set('hears' as never, ((event: string, args: readonly unknown[]) => this.reach(token, manager.name, event, args)) as never);
          await next();
        },
        this.upgradeTo(() => manager.name),
      );
    }
  }

  /**
   * Routes `GET /api/app/<appId>` upgrades to the app's realtime channel (other requests on that
   * path are the app's Web API, mounted before this).
   */
  mountApps(app: Hono, gateway: AppGateway, auth: Authenticator): void {
    this.unsubscribe.push(gateway.realtime.subscribe((e: RealtimeEvent) => this.send(appChannel(e.appId), e.event, e.by ? [e.data, e.by] : [e.data])));
    app.get(
      `${APP_API_PREFIX}/:appId`,
      async (c, next) => {
        const appId = c.req.param('appId') ?? '';
        const token = auth.authenticate(c, true);
        checkAppChannel(token, appId, gateway);
        c.set('tokenId' as never, token.id as never);
        await next();
      },
      this.upgradeTo((c) => appChannel(c.req.param('appId') ?? '')),
    );
  }

  /**
   * The route's last handler: accepts the upgrade (the server's upgrade listener then completes
   * the handshake and hands the socket over). A request that came as plain HTTP has no `accept`.
   */
  private upgradeTo(channelOf: (c: Context) => string) {
    return (c: Context): Response => {
      const env = c.env as UpgradeEnv;
      if (!env.accept) throw new HearthError('invalid_parameter', `${c.req.path} is an event namespace: open it with a WebSocket client`);
      const tokenId = c.get('tokenId' as never) as string;
      const hears = c.get('hears' as never) as Client['hears'];
      const channel = channelOf(c);
      env.accept((socket) => {
        // A frame over the limit, or a broken peer: ws reports it here, then closes the socket
        // (the close below forgets the client). Unheard, an 'error' would end the hub.
        socket.on('error', (err) => this.log.debug({ err, channel }, 'event socket error'));
        const refusal = this.overCap(tokenId);
        if (refusal) {
          socket.close(TRY_AGAIN_LATER, refusal);
          return;
        }
        const client: Client = { socket, tokenId, alive: true, counted: true, ...(hears ? { hears } : {}) };
        socket.on('pong', () => {
          client.alive = true;
        });
        socket.on('close', () => this.remove(channel, client));
        this.add(channel, client);
      });
      return answer(null, { status: 101 });
    };
  }

  /** Why a new socket of `tokenId` is refused (a close reason, at most 123 bytes), or null. */
  private overCap(tokenId: string): string | null {
    if (this.total >= MAX_SOCKETS) return `the hub holds ${MAX_SOCKETS} event sockets, its most; try again later`;
    if ((this.perToken.get(tokenId) ?? 0) >= MAX_SOCKETS_PER_TOKEN)
      return `this token holds ${MAX_SOCKETS_PER_TOKEN} event sockets, its most; close some first`;
    return null;
  }

  private add(channel: string, client: Client): void {
    const set = this.clients.get(channel) ?? new Set();
    this.clients.set(channel, set);
    set.add(client);
    this.perToken.set(client.tokenId, (this.perToken.get(client.tokenId) ?? 0) + 1);
    this.total++;
  }

  private remove(channel: string, client: Client): void {
    const set = this.clients.get(channel);
    if (set) this.drop(set, client);
    if (set?.size === 0) this.clients.delete(channel);
  }

  /** Takes a client out of its channel and out of the counts (once, whichever way it ended). */
  private drop(set: Set<Client>, client: Client): void {
    set.delete(client);
    if (!client.counted) return;
    client.counted = false;
    this.total--;
    const left = (this.perToken.get(client.tokenId) ?? 1) - 1;
    if (left > 0) this.perToken.set(client.tokenId, left);
    else this.perToken.delete(client.tokenId);
  }

  private send(channel: string, event: string, args: readonly unknown[]): void {
    const set = this.clients.get(channel);
    if (!set || set.size === 0) return;
    // Serialised once per event, not once per client.
    const frame = JSON.stringify({ event, args });
    for (const client of set) {
      if (client.socket.bufferedAmount + frame.length > MAX_BUFFERED_BYTES) {
        this.log.warn({ channel, token: client.tokenId }, 'dropping a slow event client');
        client.socket.terminate();
        this.drop(set, client);
        continue;
      }
      if (client.hears && !client.hears(event, args)) continue;
      client.socket.send(frame);
    }
  }

  private ping(): void {
    for (const set of this.clients.values()) {
      for (const client of set) {
        if (!client.alive) {
          client.socket.terminate();
          this.drop(set, client);
          continue;
        }
        client.alive = false;
        client.socket.ping();
      }
    }
  }

  /** Closes every socket opened with a token that was just revoked. */
  closeToken(tokenId: string): void {
    for (const set of this.clients.values()) {
      for (const client of set) {
        if (client.tokenId === tokenId) {
          client.socket.close(1008, 'token revoked');
          this.drop(set, client);
        }
      }
    }
  }

  close(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    clearInterval(this.pinger);
    for (const set of this.clients.values()) for (const client of set) client.socket.close(1001, 'hub stopping');
    this.clients.clear();
    this.perToken.clear();
    this.total = 0;
  }
}
