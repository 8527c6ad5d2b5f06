/**
 * The hub's Web API as an app with `homey:manager:api` reaches it itself, for Homey's client
 * inside the app (homey-api's `HomeyAPI.createAppAPI({ homey })`, which asks for
 * `homey.api.getOwnerApiToken()` and `homey.api.getLocalUrl()`):
 * - a Unix socket per app, `<data-dir>/run/<hash of the id>/api.sock`, on which the hub serves its
 *   whole HTTP application (requests and upgrades: Homey's realtime too). Its folder is bound into
 *   the app's namespace read-only, alone (app-spec.ts), so the app needs no network for it and an
 *   app without network still reaches nothing else. The socket is the app's own: no other app's
 *   namespace holds it.
 * - a token of the app's own, with the read-only scopes of `this.homey.api.get` (hub-api.ts),
 *   known only to this hub process and dropped when the app is removed.
 * The SDK in the app turns the socket into a URL (a loopback listener of its own that pipes each
 * connection to it: src/homey/managers/api-proxy.cts).
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { unavailable } from '../../core/errors.js';
import { makeDirsSync } from '../../core/files.js';
import { APP_TOKEN_NAME } from '../../core/tokens.js';

export const API_SOCKET_FILE = 'api.sock';

/** The hub's HTTP application as a Node server runs it. */
export interface HubServe {
  request(req: IncomingMessage, res: ServerResponse): void;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** A token of `name` with the scopes apps may have (TokenService.issueInternal). */
  issueToken(name: string): string;
  /** Forgets the tokens issued to `name`. */
  dropToken(name: string): void;
}

/**
 * The folder of app `id`'s socket, made now (the app's namespace binds it when the app starts,
 * before the socket exists). Named by a hash: a socket path is at most 107 bytes, an id 128.
 */
export function apiSocketDir(runDir: string, id: string): string {
  const dir = join(runDir, createHash('sha256').update(id).digest('hex').slice(0, 24));
  makeDirsSync(dir, 0o700);
  return dir;
}

export class AppApiSockets {
  private readonly open = new Map<string, { server: Server; path: string; token: string; sockets: Set<Duplex> }>();

  constructor(
    private readonly runDir: string,
    private readonly log: Logger,
    /** The hub's HTTP application, once it has one (the hub makes it after the managers). */
    private readonly hubServe: () => HubServe | null,
  ) {}

  /** App `id`'s token and socket, listening (made at its first ask). */
  async connection(id: string): Promise<{ token: string; socket: string }> {
    const known = this.open.get(id);
    if (known) return { token: known.token, socket: known.path };
    const serve = this.hubServe();
    if (!serve) throw unavailable("the hub's Web API is not up yet; try again in a moment");
    const path = join(apiSocketDir(this.runDir, id), API_SOCKET_FILE);
    if (Buffer.byteLength(path) > 107) throw unavailable(`the socket path ${path} is longer than Unix sockets allow: use a shorter --data-dir`);
    await rm(path, { force: true }); // left by a hub that died
    const server = createServer((req, res) => serve.request(req, res));
    server.on('upgrade', (req, socket, head) => serve.upgrade(req, socket, head));
    // Every connection, upgraded ones included (a realtime session), so close() ends them all.
    const sockets = new Set<Duplex>();
    server.on('connection', (socket) => {
      // A Unix socket has no peer address: each app's connections are known by its own
      // (`app:<id>`), so what is counted per address (failed tokens, realtime connections not
      // yet handshaken) is counted per app, not for all apps together.
      Object.defineProperty(socket, 'remoteAddress', { value: `app:${id}`, configurable: true });
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    server.on('error', (err) => this.log.warn({ err, app: id }, "the app's API socket failed"));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const again = this.open.get(id); // asked twice at once: the first listener stays
    if (again) {
      server.close();
      return { token: again.token, socket: again.path };
    }
    const token = serve.issueToken(`${APP_TOKEN_NAME}${id}`);
    this.open.set(id, { server, path, token, sockets });
    return { token, socket: path };
  }

  /** Closes app `id`'s socket and forgets its token (the app was removed). */
  async close(id: string): Promise<void> {
    const known = this.open.get(id);
    if (!known) return;
    this.open.delete(id);
    this.hubServe()?.dropToken(`${APP_TOKEN_NAME}${id}`);
    const closed = new Promise<void>((resolve) => known.server.close(() => resolve()));
    for (const socket of known.sockets) socket.destroy();
    await closed;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.close(id)));
  }
}
