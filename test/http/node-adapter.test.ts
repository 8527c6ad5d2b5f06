/**
 * hearth's Node adapter for Hono (src/http/node-adapter.ts): answers are written without the web
 * Request/Response/Headers classes (undici's in Node 20, about 2 MiB a hub kept for good once
 * loaded), bodies of every kind reach the client, and a refused WebSocket upgrade says why.
 */
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, ROOT, type RunningHub, startHub } from '../helpers/hub.js';

const run = promisify(execFile);

/** A Hono app on the adapter in a fresh node, asked with node:http only; prints what it saw. */
const SCRIPT = `
import { createServer, request } from 'node:http';
import { Readable } from 'node:stream';
// What node:http loads itself (Node 22 loads undici with it; Node 20 does not), before the rest.
const undici = () => process.moduleLoadList.some((m) => m.includes('undici'));
const withHttpAlone = undici();
const { Hono } = await import('hono');
const { answer, requestListener } = await import('./dist/http/node-adapter.js');
const app = new Hono({ strict: false });
app.get('/json', (c) => answer(JSON.stringify({ path: c.req.path, q: c.req.query('q'), h: c.req.header('x-test') }), { headers: { 'content-type': 'application/json', 'X-Mixed-Case': 'yes' } }));
app.get('/stream', () => answer(Readable.from([Buffer.from('ab'), Buffer.from('cd')])));
app.get('/bytes', () => answer(new Uint8Array([104, 105]), { status: 201 }));
app.post('/echo', async (c) => answer(await c.req.raw.text()));
app.get('/web', () => new Response('from a web Response', { headers: { 'set-cookie': 'a=1' } }));
const server = createServer(requestListener(app.fetch)).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const port = server.address().port;
const ask = (method, path, body) => new Promise((resolve, reject) => {
  const req = request({ host: '127.0.0.1', port, method, path, headers: { 'x-test': 'seen' } }, (res) => {
    const parts = [];
    res.on('data', (d) => parts.push(d));
    res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts).toString() }));
  });
  req.on('error', reject);
  req.end(body);
});
const out = { json: await ask('GET', '/json?q=1'), stream: await ask('GET', '/stream'), bytes: await ask('GET', '/bytes'), echo: await ask('POST', '/echo', 'hello body'), head: await ask('HEAD', '/json?q=1'), headStream: await ask('HEAD', '/stream') };
out.undiciBeforeWeb = undici();
out.withHttpAlone = withHttpAlone;
out.web = await ask('GET', '/web');
server.close();
console.log(JSON.stringify(out));
`;

describe('the Node adapter', () => {
  it('serves strings, bytes, streams and request bodies without loading the web classes, and writes a web Response too', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT], { cwd: ROOT });
    type Seen = { status: number; headers: Record<string, string | string[]>; body: string };
    const out = JSON.parse(stdout) as {
      json: Seen;
      stream: Seen;
      bytes: Seen;
      echo: Seen;
      head: Seen;
      headStream: Seen;
      web: Seen;
      undiciBeforeWeb: boolean;
      withHttpAlone: boolean;
    };
    // Nothing the adapter and Hono did loaded the web classes (on Node 20 nothing had before them).
    expect(out.undiciBeforeWeb).toBe(out.withHttpAlone);
    if (process.versions.node.startsWith('20.')) expect(out.undiciBeforeWeb).toBe(false);
    expect(out.json.status).toBe(200);
    expect(JSON.parse(out.json.body)).toEqual({ path: '/json', q: '1', h: 'seen' });
    expect(out.json.headers['x-mixed-case']).toBe('yes');
    expect(out.json.headers['content-length']).toBe(String(out.json.body.length));
    expect(out.stream.body).toBe('abcd');
    expect([out.bytes.status, out.bytes.body]).toEqual([201, 'hi']);
    expect(out.echo.body).toBe('hello body');
    // A HEAD is answered as its GET without the body (Hono's own HEAD would make a web Response).
    expect([out.head.status, out.head.body, out.head.headers['content-length']]).toEqual([200, '', String(out.json.body.length)]);
    expect(out.head.headers['x-mixed-case']).toBe('yes');
    expect([out.headStream.status, out.headStream.body]).toEqual([200, '']);
    expect(out.web.body).toBe('from a web Response');
    expect(out.web.headers['set-cookie']).toEqual(['a=1']);
  });

  describe('on a real hub', () => {
    let hub: RunningHub;
    beforeAll(async () => {
      hub = await startHub();
    });
    afterAll(async () => {
      await hub?.stop();
    });

    /** The raw answer to a WebSocket upgrade of `path`. */
    function upgrade(path: string): Promise<string> {
      return new Promise((resolve, reject) => {
        const socket = connect(hub.port, '127.0.0.1', () => {
          socket.write(
            `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
          );
        });
        let text = '';
        socket.on('data', (d) => {
          text += d.toString();
          if (text.startsWith('HTTP/1.1 101')) socket.destroy();
        });
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
    }

    it('refuses an upgrade with its status and the reason as JSON, and accepts one with a token', async () => {
      const refused = await upgrade('/api/manager/devices');
      expect(refused.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
      const body = JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4)) as { error: string };
      expect(body.error).toBe('unauthorized');
      const accepted = await upgrade(`/api/manager/devices?token=${OWNER}`);
      expect(accepted.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
    });

    it('answers a HEAD with the GET headers and no body', async () => {
      const res = await fetch(`${hub.url}/`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toBe('');
      // The page's length as its GET has it.
      const get = await fetch(`${hub.url}/`, { headers: { 'accept-encoding': 'identity' } });
      const page = Buffer.from(await get.arrayBuffer());
      expect(res.headers.get('content-length')).toBe(String(page.length));
    });
  });
});
