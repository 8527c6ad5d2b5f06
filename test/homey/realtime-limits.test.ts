/**
 * What a realtime connection may hold (src/http/realtime/limits.ts), driven over Engine.IO 4 by
 * hand (the wire homey-api's newer flavours and socket.io clients speak): before its handshake a
 * connection gets small frames, a short deadline and a share of the slots per address; after it,
 * full-size frames, and subscriptions bounded per connection and per token, each URI in length
 * and grammar. Each of these held memory or slots without bound before.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Wire as WireOf } from '../helpers/engine-io.js';
import { OWNER, type RunningHub, startHub } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';

let hub: RunningHub;
const Wire = { open: () => WireOf.open(hub.wsUrl) };
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.cleanup();
});

/** A plain long-polling GET that opens an Engine.IO connection and never handshakes, from `localAddress`. */
function pollingOpen(localAddress: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${hub.url}/socket.io/?EIO=4&transport=polling`, { localAddress }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += String(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('subscriptions', () => {
  it('a URI past 256 characters, or an id outside the grammar, is refused and holds nothing', async () => {
    const wire = await Wire.open();
    await wire.handshake(OWNER);
    const [long] = await wire.subscribe(`homey:device:${'x'.repeat(300)}`);
    expect(long).toMatchObject({ error: 'invalid_parameter', message: 'a URI is at most 256 characters; this one is 313' });
    const [odd] = await wire.subscribe('homey:device:has spaces');
    expect(odd).toMatchObject({ error: 'not_found' });
    expect(await wire.subscribe('homey:device:0f1e2d3c-aaaa-bbbb-cccc-000000000001')).toEqual([null]);
    wire.close();
  });

  it('a connection holds at most 2,048 rooms and a token 4,096; an unsubscribe frees one', async () => {
    const made = await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'viewer', scopes: ['service.device.readonly'] } });
    const token = made.body.token;
    const uris = (from: number) => Array.from({ length: 2_048 }, (_, i) => `homey:device:dev-${from + i}`);
    const a = await Wire.open();
    await a.handshake(token);
    expect((await Promise.all(uris(0).map((u) => a.subscribe(u)))).every(([err]) => err === null)).toBe(true);
    // Subscribing again to a room it holds takes nothing.
    expect(await a.subscribe('homey:device:dev-0')).toEqual([null]);
    const [full] = await a.subscribe('homey:device:one-more');
    expect(full).toMatchObject({ error: 'rate_limited', message: 'a connection holds at most 2048 subscriptions; unsubscribe from some first' });
    const b = await Wire.open();
    await b.handshake(token);
    expect((await Promise.all(uris(10_000).map((u) => b.subscribe(u)))).every(([err]) => err === null)).toBe(true);
    const c = await Wire.open();
    await c.handshake(token);
    const [tokenFull] = await c.subscribe('homey:device:third');
    expect(tokenFull).toMatchObject({
      error: 'rate_limited',
      message: 'this token holds 4096 subscriptions over its connections, its most; unsubscribe from some first',
    });
    expect(await a.emit('/api', 'unsubscribe', 'homey:device:dev-0')).toEqual([null]);
    expect(await c.subscribe('homey:device:third')).toEqual([null]);
    // A closed connection gives its rooms back.
    b.close();
    await b.closed;
    await poll(
      async () => (await c.subscribe(`homey:device:after-${Date.now()}`))[0],
      (err) => err === null,
      "the closed connection's rooms to be given back",
    );
    a.close();
    c.close();
  });
});

describe('before the handshake', () => {
  it('a frame past 4 KiB closes the connection; after the handshake a 9 KB call is answered', async () => {
    const early = await Wire.open();
    early.ws.send(`42${JSON.stringify(['handshakeClient', { token: OWNER, pad: 'x'.repeat(64 * 1024) }])}`);
    expect(await early.closed).toBe(1009);
    const late = await Wire.open();
    await late.handshake(OWNER);
    const value = 'x'.repeat(9_000);
    const [err, made] = await late.emit('/api', 'api', {
      uri: 'homey:manager:logic',
      operation: 'createVariable',
      args: { variable: { name: 'Long note', type: 'string', value } },
    });
    expect(err).toBeNull();
    expect(made).toMatchObject({ name: 'Long note', value });
    expect(late.ws.readyState).toBe(WebSocket.OPEN);
    late.close();
  });

  it('one address holds at most 8 connections that have not handshaken, for 5 s; another address and tokens are served', async () => {
    const flood = await Promise.all(Array.from({ length: 12 }, () => pollingOpen('127.0.0.2')));
    expect(flood.filter((r) => r.status === 200)).toHaveLength(8);
    const refused = flood.find((r) => r.status !== 200)!;
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('this address holds 8 realtime connections that have not handshaken, its most');
    // Another address (the family's phone) still connects and handshakes.
    const wire = await Wire.open();
    await wire.handshake(OWNER);
    wire.close();
    // The flood's connections are closed at their deadline: the address is served again.
    await poll(
      () => pollingOpen('127.0.0.2'),
      (r) => r.status === 200,
      'the unhandshaken connections to be closed at their deadline',
      200,
      100,
    );
  });
});
