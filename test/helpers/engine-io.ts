/**
 * A socket.io client (v5 protocol, over Engine.IO 4 on a WebSocket) written out by hand: what
 * homey-api's newer flavours and socket.io clients send, frame by frame, so tests can send what
 * no client library would (oversized frames, hostile payloads) and see each answer.
 */
import { expect } from 'vitest';
import WebSocket from 'ws';

/** A socket.io (v5 protocol, Engine.IO 4) client over a WebSocket, with acks. */
export class Wire {
  private next = 1;
  private readonly acks = new Map<number, (args: unknown[]) => void>();
  readonly closed: Promise<number>;
  private constructor(readonly ws: WebSocket) {
    // Each call waiting for its answer listens for the close: a test may have thousands at once.
    ws.setMaxListeners(0);
    this.closed = new Promise((resolve) => ws.once('close', (code) => resolve(code)));
    ws.on('message', (data) => {
      const text = String(data);
      if (text === '2') return ws.send('3');
      const m = /^43(\/api,)?(\d+)(.*)$/s.exec(text);
      if (m) this.acks.get(Number(m[2]))?.(JSON.parse(m[3]!) as unknown[]);
    });
  }

  /** Opens a connection to the hub at `wsUrl` and its root namespace. */
  static async open(wsUrl: string): Promise<Wire> {
    const ws = new WebSocket(`${wsUrl}/socket.io/?EIO=4&transport=websocket`);
    const opened = new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      ws.once('message', () => resolve()); // the open packet
    });
    await opened;
    const wire = new Wire(ws);
    // Connected to the root namespace before anything is emitted on it, as a client waits for `connect`.
    const connected = new Promise<void>((resolve) => ws.on('message', (d) => String(d).startsWith('40') && resolve()));
    ws.send('40');
    await connected;
    return wire;
  }

  /** Emits with an ack; resolves with the ack's arguments, or rejects after 10 s or when the connection closes. */
  emit(nsp: '' | '/api', event: string, ...args: unknown[]): Promise<unknown[]> {
    return this.emitRaw(nsp, event, JSON.stringify(args).slice(1, -1));
  }

  /** As `emit`, with the arguments as JSON text sent as they are (`argsText`: `1,"a"`, or text no encoder would make). */
  emitRaw(nsp: '' | '/api', event: string, argsText: string): Promise<unknown[]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      if (this.ws.readyState !== WebSocket.OPEN) return reject(new Error('the connection is closed'));
      const timer = setTimeout(() => reject(new Error(`no answer to ${event} within 10 s`)), 10_000);
      const onClose = () => reject(new Error(`the connection closed before ${event} was answered`));
      this.ws.once('close', onClose);
      this.acks.set(id, (a) => {
        clearTimeout(timer);
        this.ws.off('close', onClose);
        this.acks.delete(id);
        resolve(a);
      });
      this.ws.send(`42${nsp ? `${nsp},` : ''}${id}[${JSON.stringify(event)}${argsText ? `,${argsText}` : ''}]`);
    });
  }

  /** Handshakes with `token` and opens /api. */
  async handshake(token: string): Promise<void> {
    expect(await this.emit('', 'handshakeClient', { token })).toEqual([null, { namespace: '/api' }]);
    const joined = new Promise<void>((resolve) => this.ws.on('message', (d) => String(d).startsWith('40/api,') && resolve()));
    this.ws.send('40/api,');
    await joined;
  }

  subscribe(uri: string): Promise<unknown[]> {
    return this.emit('/api', 'subscribe', uri);
  }

  close(): void {
    this.ws.close();
  }
}
