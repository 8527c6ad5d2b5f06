/**
 * A guest held to the rooms they are given (issue 42), through every channel: the Web API (the
 * devices, zones and images operations list only what is in their rooms, and anything else is
 * to them a thing that does not exist), the WebSockets and Homey's realtime (no event of a device
 * or zone out of reach), Homey's own client, and flows and dashboards (not theirs at all).
 * Giving them another room closes their sockets: they connect again with the new rooms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventFrame, openEvents } from '../../helpers/events.js';
import { clientDevices, type HomeyApiClient, loadHomeyApi, loadSocketIo2, type SocketIo2 } from '../../helpers/homey-api.js';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { pause, poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { APP, type Device, pairLamp, writeLampApp } from '../devices/lamp-app.js';
import { addPerson } from './helpers.js';

let hub: RunningHub;
let living: string;
let kitchen: string;
let cosy: Device;
let oven: Device;
let guestId: string;
let guest: string;

const U = '/api/manager/users';

beforeAll(async () => {
  const appsDir = await tempDir('hearth-guests-');
  await writeLampApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  const root = Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/zones/zone')).body)[0]!;
  living = (await hub.call<{ id: string }>('POST', '/api/manager/zones/zone', { body: { name: 'Living room', parent: root } })).body.id;
  kitchen = (await hub.call<{ id: string }>('POST', '/api/manager/zones/zone', { body: { name: 'Kitchen', parent: root } })).body.id;
  cosy = await pairLamp(hub, 0);
  oven = await pairLamp(hub, 1);
  await hub.call('PUT', `/api/manager/devices/device/${cosy.id}`, { body: { zone: living } });
  await hub.call('PUT', `/api/manager/devices/device/${oven.id}`, { body: { zone: kitchen } });
  const sitter = await addPerson(hub, 'Sitter', 'guest', { zones: [living] });
  expect(sitter.user.zones).toEqual([living]);
  guestId = sitter.user.id;
  guest = sitter.token;
}, 90_000);
afterAll(() => hub?.cleanup());

describe('a guest', () => {
  it('sees and switches the devices of their room; any other device or zone does not exist to them', async () => {
    const devices = (await hub.call<Record<string, Device>>('GET', '/api/manager/devices/device', { token: guest })).body;
    expect(Object.keys(devices)).toEqual([cosy.id]);
    expect((await hub.call('GET', `/api/manager/devices/device/${oven.id}`, { token: guest })).status).toBe(404);
    expect((await hub.call('GET', `/api/manager/devices/device/${oven.id}/capability/onoff`, { token: guest })).status).toBe(404);
    expect((await hub.call('PUT', `/api/manager/devices/device/${oven.id}/capability/onoff`, { token: guest, body: { value: true } })).status).toBe(404);
    expect((await hub.call('PUT', `/api/manager/devices/device/${cosy.id}/capability/onoff`, { token: guest, body: { value: true } })).status).toBe(200);
    expect((await hub.call('GET', '/api/manager/devices/state', { token: guest })).status).toBe(403);
    const zones = (await hub.call<Record<string, unknown>>('GET', '/api/manager/zones/zone', { token: guest })).body;
    expect(Object.keys(zones)).toEqual([living]);
    expect((await hub.call('GET', `/api/manager/zones/zone/${kitchen}`, { token: guest })).status).toBe(404);
    expect(Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/images/image', { token: guest })).body)).toEqual([]);
    // Nothing else is theirs: flows, dashboards, apps, the family, the timeline.
    for (const path of [
      '/api/manager/flow/flow',
      '/api/manager/dashboards/dashboard',
      '/api/manager/apps/app',
      `${U}/user`,
      '/api/manager/notifications/notification',
      '/api/manager/insights/log',
    ])
      expect((await hub.call('GET', path, { token: guest })).status, path).toBe(403);
    expect(
      (
        await hub.call('POST', '/api/manager/flow/flowcardaction/homey:manager:notifications/create_notification/run', {
          token: guest,
          body: { args: { text: 'x' } },
        })
      ).status,
    ).toBe(403);
  });

  it('hears only their room on the WebSockets', async () => {
    const theirs = await openEvents(hub.wsUrl, 'devices', guest);
    const zones = await openEvents(hub.wsUrl, 'zones', guest);
    try {
      const frames = (f: EventFrame) => (f.args[0] as { deviceId?: string; id?: string }).deviceId ?? (f.args[0] as { id?: string }).id;
      await hub.call('PUT', `/api/manager/devices/device/${oven.id}/capability/onoff`, { body: { value: true } });
      await hub.call('PUT', `/api/manager/devices/device/${oven.id}`, { body: { name: 'Oven light' } });
      await hub.call('PUT', `/api/manager/zones/zone/${kitchen}`, { body: { name: 'Kitchen!' } });
      await hub.call('PUT', `/api/manager/devices/device/${cosy.id}/capability/dim`, { body: { value: 0.4 } });
      await hub.call('PUT', `/api/manager/zones/zone/${living}`, { body: { name: 'Lounge' } });
      await theirs.next((f) => f.event === 'capability.update' && frames(f) === cosy.id);
      await zones.next((f) => f.event === 'zone.update' && frames(f) === living);
      await pause(300, 'any event that should not come');
      expect(theirs.frames.map(frames).filter((id) => id !== cosy.id)).toEqual([]);
      expect(zones.frames.map(frames)).toEqual([living]);
    } finally {
      theirs.close();
      zones.close();
    }
  });

  it("Homey's client sees only their room and hears nothing of another", async () => {
    const homeyApi = await loadHomeyApi();
    const client: HomeyApiClient = await homeyApi.HomeyAPI.createLocalAPI({ address: hub.url, token: guest });
    try {
      const devices = clientDevices(client);
      const listed = await devices.getDevices();
      expect(Object.keys(listed)).toEqual([cosy.id]);
      await expect(devices.getDevice({ id: oven.id })).rejects.toThrow();
      const heard: unknown[] = [];
      const instance = listed[cosy.id]!.makeCapabilityInstance('dim', (v) => heard.push(v));
      await poll(
        async () => {
          await hub.call('PUT', `/api/manager/devices/device/${cosy.id}/capability/dim`, { body: { value: Math.random() } });
          return heard.length;
        },
        (n) => n > 0,
        'the guest client to hear its lamp',
      );
      instance.destroy();
    } finally {
      client.destroy();
    }
  });

  it("hears nothing of a device out of reach on Homey's realtime, subscribed to it or to the devices manager", async () => {
    const io = await loadSocketIo2();
    const homeyId = (await fetch(`${hub.url}/api/manager/system/ping`)).headers.get('x-homey-id');
    const root = io(hub.url, { transports: ['websocket'], forceNew: true, reconnection: false });
    const ask = (socket: SocketIo2, event: string, arg: unknown) =>
      new Promise<unknown[]>((resolve) => socket.emit(event, arg, (...answer: unknown[]) => resolve(answer)));
    try {
      await new Promise<void>((resolve) => root.once('connect', () => resolve()));
      expect(await ask(root, 'handshakeClient', { token: guest, homeyId })).toEqual([null, { namespace: '/api' }]);
      const api = (root as unknown as { io: { socket(nsp: string): SocketIo2 } }).io.socket('/api');
      await new Promise<void>((resolve) => api.once('connect', () => resolve()));
      const heard: string[] = [];
      for (const uri of ['homey:manager:devices', `homey:device:${oven.id}`, `homey:device:${cosy.id}`]) {
        expect(await ask(api, 'subscribe', uri)).toEqual([null]);
        api.on(uri, (event: unknown, data: unknown) => heard.push(`${uri} ${String(event)} ${(data as { deviceId?: string; id?: string })?.deviceId ?? ''}`));
      }
      await hub.call('PUT', `/api/manager/devices/device/${oven.id}/capability/dim`, { body: { value: 0.7 } });
      await hub.call('PUT', `/api/manager/devices/device/${oven.id}`, { body: { name: 'Oven lamp' } });
      await hub.call('PUT', `/api/manager/devices/device/${cosy.id}/capability/dim`, { body: { value: 0.2 } });
      await poll(
        async () => heard,
        (h) => h.includes(`homey:manager:devices capability.update ${cosy.id}`) && h.some((e) => e.startsWith(`homey:device:${cosy.id} capability`)),
        "the guest's lamp on both subscriptions",
      );
      await pause(300, 'any event that should not come');
      expect(heard.filter((e) => e.includes(oven.id))).toEqual([]);
      api.close();
    } finally {
      root.close();
    }
  });

  it('given another room, their sockets close and they reach it; a guest needs a room that exists', async () => {
    const socket = await openEvents(hub.wsUrl, 'devices', guest);
    const closed = new Promise<void>((resolve) => socket.socket.once('close', () => resolve()));
    expect((await hub.call('PUT', `${U}/user/${guestId}`, { body: { zones: [living, kitchen] } })).status).toBe(200);
    await closed;
    expect(Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/devices/device', { token: guest })).body).sort()).toEqual(
      [cosy.id, oven.id].sort(),
    );
    expect((await hub.call('POST', `${U}/user`, { body: { name: 'Nobody', role: 'guest' } })).status).toBe(400);
    expect((await hub.call('POST', `${U}/user`, { body: { name: 'Nowhere', role: 'guest', zones: ['no-such-zone'] } })).status).toBe(400);
    // Made a user, they reach the whole home and keep no rooms.
    const user = await hub.call<{ zones: string[] }>('PUT', `${U}/user/${guestId}`, { body: { role: 'user' } });
    expect(user.body.zones).toEqual([]);
  });
});
