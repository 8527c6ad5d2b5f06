/**
 * The WebSocket namespaces: one per manager, on the manager's own prefix
 * (`ws://hub:8720/api/manager/dashboards`). Each frame is `{"event", "args"}`. Only tokens with
 * the manager's read scope may connect; slow consumers are dropped rather than buffered, dead
 * peers are found by ping.
 */
import type { UpgradeWebSocket, WSContext } from 'hono/ws';
import type { Hono } from 'hono';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Logger } from 'pino';
import { HearthError } from '../core/errors.js';
import type { EventBus, HubEvent } from '../core/events.js';
import type { Manager } from '../core/managers.js';
import { grants } from '../core/scopes.js';
import type { Authenticator } from './auth.js';

/** A client whose unsent data passes this is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Clients send nothing we need; anything bigger than this is refused by ws itself. */
export const MAX_INCOMING_FRAME = 4096;
export const PING_INTERVAL_MS = 30_000;

interface Client {
  readonly socket: WebSocket;
  readonly tokenId: string;
  alive: boolean;
}

export class EventSockets {
  private readonly clients = new Map<string, Set<Client>>();
  private readonly unsubscribe: () => void;
  private readonly pinger: NodeJS.Timeout;

  constructor(
    bus: EventBus,
    private readonly log: Logger,
  ) {
    this.unsubscribe = bus.subscribe((e) => this.deliver(e));
    this.pinger = setInterval(() => this.ping(), PING_INTERVAL_MS);
    this.pinger.unref();
  }

  /** Routes `GET /api/manager/<name>` upgrades for every manager that has events. */
  mount(app: Hono, managers: readonly Manager[], upgrade: UpgradeWebSocket<WebSocket>, auth: Authenticator): void {
    for (const manager of managers) {
      const scope = manager.eventScope;
      if (!scope) continue;
      const path = `/api/manager/${manager.name}`;
      app.get(
        path,
        async (c, next) => {
          if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
            throw new HearthError('invalid_parameter', `${path} is the ${manager.name} event namespace: open it with a WebSocket client`);
          }
          const token = auth.authenticate(c, true);
          if (!grants(token.scopes, scope)) {
            throw new HearthError('missing_scope', `receiving ${manager.name} events needs the scope '${scope}'`);
          }
          c.set('tokenId' as never, token.id as never);
          await next();
        },
        upgrade((c) => {
          const tokenId = c.get('tokenId' as never) as string;
          let client: Client | undefined;
          return {
            onOpen: (_event, ws: WSContext<WebSocket>) => {
              const socket = ws.raw;
              if (!socket) return;
              client = { socket, tokenId, alive: true };
              socket.on('pong', () => {
                if (client) client.alive = true;
              });
              this.add(manager.name, client);
            },
            onClose: () => {
              if (client) this.remove(manager.name, client);
            },
          };
        }),
      );
    }
  }

  /** Applies the small incoming-frame limit to the ws server node-ws made. */
  configure(wss: WebSocketServer): void {
    (wss.options as { maxPayload?: number }).maxPayload = MAX_INCOMING_FRAME;
  }

  private add(manager: string, client: Client): void {
    const set = this.clients.get(manager) ?? new Set();
    this.clients.set(manager, set);
    set.add(client);
  }

  private remove(manager: string, client: Client): void {
    this.clients.get(manager)?.delete(client);
  }

  private deliver(e: HubEvent): void {
    const set = this.clients.get(e.manager);
    if (!set || set.size === 0) return;
    // Serialised once per event, not once per client.
    const frame = JSON.stringify({ event: e.event, args: e.args });
    for (const client of set) {
      if (client.socket.bufferedAmount + frame.length > MAX_BUFFERED_BYTES) {
        this.log.warn({ manager: e.manager, token: client.tokenId }, 'dropping a slow event client');
        client.socket.terminate();
        set.delete(client);
        continue;
      }
      client.socket.send(frame);
    }
  }

  private ping(): void {
    for (const set of this.clients.values()) {
      for (const client of set) {
        if (!client.alive) {
          client.socket.terminate();
          set.delete(client);
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
          set.delete(client);
        }
      }
    }
  }

  close(): void {
    this.unsubscribe();
    clearInterval(this.pinger);
    for (const set of this.clients.values()) for (const client of set) client.socket.close(1001, 'hub stopping');
    this.clients.clear();
  }
}
