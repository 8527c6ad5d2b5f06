/**
 * Moods (issue 43): a room's mood made from how it is now, applied by the Web API to five devices
 * of two apps where one app is stopped (four follow, the answer names the fifth), by Homey's own
 * client, and by a flow's card; the events on the moods channel; bad input refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEvents } from '../../helpers/events.js';
import { type HomeyApiClient, loadHomeyApi } from '../../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { writeHomeyApp } from '../../homey/apps.js';
import { waitAppRunning } from '../dashboards/helpers.js';

const NEAR = 'com.test.moodlamps';
const FAR = 'com.test.farlamp';
const M = '/api/manager/moods';

let hub: RunningHub;
let room: string;
const lamps: Record<string, string> = {};

/** A driver app of `count` dimmable lamps whose listeners take every value. */
async function lampApp(appsDir: string, id: string, count: number, prefix: string): Promise<void> {
  await writeHomeyApp(appsDir, id, {
    json: { drivers: [{ id: 'lamp', name: { en: 'Lamp' }, class: 'light', capabilities: ['onoff', 'dim'], platforms: ['local'], connectivity: ['lan'] }] },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      'drivers/lamp/driver.js': `const Homey = require('homey');\nmodule.exports = class extends Homey.Driver { async onPairListDevices() { return Array.from({ length: ${count} }, (_, i) => ({ name: '${prefix} ' + (i + 1), data: { id: '${prefix}-' + i } })); } };\n`,
      'drivers/lamp/device.js':
        "const Homey = require('homey');\nmodule.exports = class extends Homey.Device { async onInit() { this.registerCapabilityListener('onoff', async () => {}); this.registerCapabilityListener('dim', async () => {}); } };\n",
    },
  });
}

async function pairAll(app: string, zoneId: string): Promise<void> {
  const session = (
    await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', { body: { type: 'pair', driverId: `homey:app:${app}:lamp`, zoneId } })
  ).body;
  const listed = (await hub.call<Array<{ name: string }>>('POST', `/api/manager/drivers/pairsession/${session.id}/emit`, { body: { event: 'list_devices' } }))
    .body;
  for (const d of listed)
    lamps[d.name] = (await hub.call<{ id: string }>('POST', `/api/manager/drivers/pairsession/${session.id}/device`, { body: d })).body.id;
  await hub.call('DELETE', `/api/manager/drivers/pairsession/${session.id}`);
}

const value = async (name: string, cap: string) => (await hub.call<unknown>('GET', `/api/manager/devices/device/${lamps[name]}/capability/${cap}`)).body;
const set = (name: string, cap: string, v: unknown) => hub.call('PUT', `/api/manager/devices/device/${lamps[name]}/capability/${cap}`, { body: { value: v } });

beforeAll(async () => {
  const appsDir = await tempDir('hearth-moods-');
  await lampApp(appsDir, NEAR, 4, 'Lamp');
  await lampApp(appsDir, FAR, 1, 'Far lamp');
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, NEAR);
  await waitAppRunning(hub, FAR);
  const root = Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/zones/zone')).body)[0]!;
  room = (await hub.call<{ id: string }>('POST', '/api/manager/zones/zone', { body: { name: 'Living room', parent: root } })).body.id;
  await pairAll(NEAR, room);
  await pairAll(FAR, room);
}, 90_000);
afterAll(() => hub?.cleanup());

describe('moods', () => {
  it('saves how a room is now, and puts it back: four devices follow, the one whose app is stopped is named', async () => {
    const events = await openEvents(hub.wsUrl, 'moods', OWNER);
    try {
      for (const name of Object.keys(lamps)) {
        await set(name, 'onoff', true);
        await set(name, 'dim', 0.3);
      }
      await set('Lamp 4', 'onoff', false);
      const made = await hub.call<{ id: string; devices: Record<string, { state: Record<string, unknown> }> }>('POST', `${M}/mood`, {
        body: { name: 'Evening', zone: room },
      });
      expect(made.status, made.text).toBe(201);
      expect(Object.keys(made.body.devices)).toHaveLength(5);
      expect(made.body.devices[lamps['Lamp 1']!]!.state).toEqual({ onoff: true, dim: 0.3 });
      await events.next((f) => f.event === 'mood.create');
      // The room changes; the far lamp's app stops.
      for (const name of Object.keys(lamps)) await set(name, 'dim', 1);
      await set('Lamp 4', 'onoff', true);
      expect((await hub.call('PUT', `/api/manager/apps/app/${FAR}/disable`, { body: {} })).status).toBeLessThan(300);
      const applied = await hub.call<{ followed: string[]; failed: Array<{ id: string; name: string; reason: string }> }>(
        'POST',
        `${M}/mood/${made.body.id}/set`,
      );
      expect(applied.status, applied.text).toBe(200);
      expect(applied.body.followed.sort()).toEqual(['Lamp 1', 'Lamp 2', 'Lamp 3', 'Lamp 4'].map((n) => lamps[n]).sort());
      expect(applied.body.failed).toEqual([
        expect.objectContaining({ id: lamps['Far lamp 1'], name: 'Far lamp 1', reason: expect.stringContaining('not running') }),
      ]);
      expect(await value('Lamp 1', 'dim')).toBe(0.3);
      expect(await value('Lamp 4', 'onoff')).toBe(false);
      await hub.call('PUT', `/api/manager/apps/app/${FAR}/enable`, { body: {} });
    } finally {
      events.close();
    }
  });

  it("through Homey's client and a flow's card", async () => {
    const mood = (
      await hub.call<{ id: string }>('POST', `${M}/mood`, {
        body: { name: 'Bright', zone: room, devices: { [lamps['Lamp 1']!]: { state: { onoff: true, dim: 1 } } } },
      })
    ).body;
    const client: HomeyApiClient = await (await loadHomeyApi()).HomeyAPI.createLocalAPI({ address: hub.url, token: OWNER });
    try {
      const moods = client.moods as unknown as { getMoods(): Promise<Record<string, { name: string }>>; setMood(o: { id: string }): Promise<unknown> };
      expect(Object.values(await moods.getMoods()).map((m) => m.name)).toEqual(expect.arrayContaining(['Evening', 'Bright']));
      await set('Lamp 1', 'dim', 0.1);
      await moods.setMood({ id: mood.id });
      expect(await value('Lamp 1', 'dim')).toBe(1);
    } finally {
      client.destroy();
    }
    await set('Lamp 1', 'dim', 0.2);
    const flow = (
      await hub.call<{ id: string }>('POST', '/api/manager/flow/flow', {
        body: {
          name: 'Brighten',
          trigger: { id: 'homey:manager:flow:programmatic_trigger', args: {} },
          actions: [{ id: 'homey:manager:moods:set_mood', args: { mood: { id: mood.id, name: 'Bright' } } }],
        },
      })
    ).body;
    await hub.call('POST', `/api/manager/flow/flow/${flow.id}/trigger`);
    await poll(
      () => value('Lamp 1', 'dim'),
      (v) => v === 1,
      'the flow to set the mood',
    );
  });

  it('refuses what is not a mood', async () => {
    expect((await hub.call('POST', `${M}/mood`, { body: { name: 'X', zone: 'nowhere' } })).status).toBe(400);
    expect((await hub.call('POST', `${M}/mood`, { body: { name: '', zone: room } })).status).toBe(400);
    expect((await hub.call('POST', `${M}/mood`, { body: { name: 'X', zone: room, devices: { nope: { state: { onoff: true } } } } })).status).toBe(400);
    expect(
      (await hub.call('POST', `${M}/mood`, { body: { name: 'X', zone: room, devices: { [lamps['Lamp 1']!]: { state: { onoff: 'yes' } } } } })).status,
    ).toBe(400);
    expect((await hub.call('POST', `${M}/mood/nope/set`)).status).toBe(404);
    // A room with nothing a mood sets, and a mood of no device: neither would do anything.
    const root = Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/zones/zone')).body)[0]!;
    const empty = (await hub.call<{ id: string }>('POST', '/api/manager/zones/zone', { body: { name: 'Hall', parent: root } })).body.id;
    const none = await hub.call<{ error_description: string }>('POST', `${M}/mood`, { body: { name: 'X', zone: empty } });
    expect(none.status).toBe(400);
    expect(none.body.error_description).toContain('no device a mood can set');
    expect((await hub.call('POST', `${M}/mood`, { body: { name: 'X', zone: room, devices: {} } })).status).toBe(400);
  });
});
