/**
 * The hub's Web API as a URL inside the app, for Homey's client (homey-api's createAppAPI asks
 * `homey.api.getLocalUrl()`): a listener on the app's own loopback that pipes each connection to
 * the Unix socket the hub serves its Web API on for this app (src/apps/host/api-socket.ts). In
 * namespaces the loopback is the app's alone; the socket is the only way out it opens.
 */
import { connect, createServer, type Server } from 'node:net';

/** Listens on 127.0.0.1 (a free port) and forwards every connection to `socket`; resolves with the URL. */
export function proxyToSocket(socket: string): Promise<{ url: string; server: Server }> {
  const server = createServer((client) => {
    const hub = connect(socket);
    // Either side ending or failing ends both: a half-open pair would hold the app's descriptors.
    const end = () => {
      client.destroy();
      hub.destroy();
    };
    client.on('error', end).on('close', end);
    hub.on('error', end).on('close', end);
    client.pipe(hub);
    hub.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      // The app's timers and sockets keep it alive, not this listener.
      server.unref();
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, server });
    });
  });
}
