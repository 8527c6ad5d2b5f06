/**
 * The hub's port, taken first when it starts: a port in use is said before the hub makes an
 * owner token, opens its store or starts an app. Until the hub is ready (serve()), a request is
 * answered 503 with a sentence and an upgrade is refused, so a client that comes early (a
 * restart after a restore) hears the hub is starting rather than a refused connection.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { ERROR_STATUS } from '../core/errors.js';
import { StartupError } from '../core/startup-error.js';
import type { HttpApp } from './app.js';

export interface HubServer {
  readonly server: Server;
  readonly port: number;
  /** From now on requests and upgrades go to `http`. */
  serve(http: HttpApp): void;
  /** Stops listening and ends every connection. */
  close(): Promise<void>;
}

const STARTING = JSON.stringify({
  error: 'unavailable',
  error_description: 'the hub is starting; try again in a moment',
  statusCode: ERROR_STATUS.unavailable,
});

function starting(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(ERROR_STATUS.unavailable, { 'content-type': 'application/json', 'retry-after': '1' }).end(STARTING);
}

function refuseUpgrade(_req: IncomingMessage, socket: Duplex): void {
  socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\n\r\n');
}

/** Listens on host:port, or throws a StartupError saying why not and what to do. */
export async function takePort(host: string, port: number): Promise<HubServer> {
  let onRequest: (req: IncomingMessage, res: ServerResponse) => void = starting;
  let onUpgrade: HttpApp['upgrade'] = refuseUpgrade;
  const server = createServer((req, res) => onRequest(req, res));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => onUpgrade(req, socket, head));
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: NodeJS.ErrnoException) => {
    throw portError(err, host, port);
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    serve(http) {
      onRequest = getRequestListener(http.fetch);
      onUpgrade = http.upgrade;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function portError(err: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (err.code) {
    case 'EADDRINUSE':
      return new StartupError(
        `port ${port} on ${host} is in use (by another program, or another hearth): stop it, or start hearth on another port with --port <N> (or HEARTH_PORT)`,
        { cause: err },
      );
    case 'EACCES':
      return new StartupError(`port ${port} needs privileges this user does not have (ports below 1024): start hearth with --port 8720 or another above 1023`, {
        cause: err,
      });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`--host ${host} is not an address of this machine: use one it has, or 0.0.0.0 for every one`, { cause: err });
    default:
      return err;
  }
}
