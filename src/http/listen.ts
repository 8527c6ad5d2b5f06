/**
 * The hub's port. Checked first when the hub starts (checkPort: bound and let go at once), so a
 * port in use is said before the hub makes an owner token, opens its store or starts an app;
 * listened on once the hub is ready (listen). Not held from the start: a server that answered
 * "starting" to every early request made those requests work for the starting hub (a client
 * polling every 2 ms slowed its start by a tenth), where a refused connection costs it nothing.
 * Either failure is a StartupError naming what to do.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { StartupError } from '../core/startup-error.js';
import type { HttpApp } from './app.js';
import { requestListener } from './node-adapter.js';

export interface HubServer {
  readonly server: Server;
  readonly port: number;
  /** Stops listening and ends every connection. */
  close(): Promise<void>;
}

/** Throws a StartupError when host:port cannot be listened on now (port 0 always can). */
export async function checkPort(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  }).catch((err: NodeJS.ErrnoException) => {
    throw portError(err, host, port);
  });
}

/** Serves `http` on host:port, or throws a StartupError saying why not and what to do. */
export async function listen(http: HttpApp, host: string, port: number): Promise<HubServer> {
  const server = createHttpServer(requestListener(http.fetch));
  server.on('upgrade', http.upgrade);
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
