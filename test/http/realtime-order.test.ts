/**
 * Homey's realtime sends a device's own event (`capability` on `homey:device:<id>`) right after
 * its manager's, before the managers' listeners of that change run: a client of the device waits
 * for none of them. Seen here through a listener registered as the managers' are (before the
 * first client), which answers the change with another event on the same device: that one
 * arrives second. Before, the item event was sent from a listener loaded after every manager's,
 * and the device's client heard the listener's event first.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../src/core/events.js';
import type { Manager } from '../../src/core/managers.js';
import type { TokenInfo } from '../../src/core/tokens.js';
import type { Authenticator } from '../../src/http/auth.js';
import { HomeyRealtime } from '../../src/http/realtime/homey-realtime.js';
import type { HubBus } from '../../src/managers/bus.js';
import { Wire } from '../helpers/engine-io.js';
import { waitUntil } from '../helpers/poll.js';

const TOKEN: TokenInfo = {
  id: 't',
  name: 'test',
  scopes: ['*'],
  createdAt: '2026-11-29T00:00:00.000Z',
  owner: true,
  session: false,
  userId: null,
  zones: null,
  actor: { kind: 'token', id: 't', name: 'test' },
};
const LAMP = 'lamp-1';

let server: Server;
let realtime: HomeyRealtime;
const bus = new EventBus() as unknown as HubBus;

beforeAll(async () => {
  // A manager's listener, registered before any client: a change of the lamp's power renames it.
  bus.on('devices', (e) => {
    if (e.event !== 'capability.update') return;
    (bus.publish as (m: string, e: string, ...a: unknown[]) => void)('devices', 'device.update', { id: e.args[0].deviceId, name: 'renamed' });
  });
  realtime = new HomeyRealtime({
    bus,
    auth: { authenticateSecret: () => TOKEN } as unknown as Authenticator,
    managers: [{ name: 'devices', contract: { eventScope: 'homey.device.readonly' } } as unknown as Manager],
    fetch: () => new Response(null, { status: 404 }),
    log: pino({ level: 'silent' }),
  });
  server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => realtime.upgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await realtime?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe("a device's realtime events", () => {
  it('the capability event comes before what the managers do about it', async () => {
    const wire = await Wire.open(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const heard: string[] = [];
    wire.ws.on('message', (d) => {
      const m = /^42\/api,(\[.*\])$/s.exec(String(d));
      if (m) heard.push((JSON.parse(m[1]!) as [string, string])[1]);
    });
    await wire.handshake('secret');
    expect(await wire.subscribe(`homey:device:${LAMP}`)).toEqual([null]);
    (bus.publish as (m: string, e: string, ...a: unknown[]) => void)('devices', 'capability.update', {
      deviceId: LAMP,
      capabilityId: 'measure_power',
      value: 12,
      transactionId: null,
      transactionTime: '2026-11-29T00:00:00.000Z',
      by: null,
    });
    await waitUntil(() => heard.length >= 2, 'both events');
    expect(heard).toEqual(['capability', 'update']);
    wire.close();
  });
});
