/**
 * The Matter app (examples/com.hearth.matter) against a real matter.js device: the hub in one
 * network namespace, a simulated light and temperature sensor (scripts/matter/device.mjs) in
 * another, joined by a veth pair (Matter finds devices by mDNS, which a single loopback does not
 * carry). Paired by its code through the pairing session the web app drives, each endpoint a
 * device of its own; toggled from the Web API and from a flow, the device's own change heard;
 * gone (unavailable) and back (available); removed (the device leaves hearth's fabric).
 * Needs root for the namespaces (CI runs as root): elsewhere it skips, saying why.
 */
import { cp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MatterProcess, simDevice } from '../../scripts/matter/sim.mjs';
import { restoreBackup } from '../../src/backup/index.js';
import { openEvents } from '../helpers/events.js';
import { clientDevices, loadHomeyApi } from '../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { type Lan, lanMissing, makeLan } from '../helpers/netns.js';
import { pause, poll } from '../helpers/poll.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { ROOT, removeAll } from './helpers.js';

const APP = 'com.hearth.matter';
const missing = lanMissing();
type Device = {
  id: string;
  name: string;
  class: string;
  available: boolean;
  unavailableMessage: string | null;
  capabilities: string[];
  capabilitiesObj: Record<string, { value: unknown }>;
};

let lan: Lan;
let hub: RunningHub;
let appsDir: string;
/** Hubs stopped before a restore, cleaned up at the end with their folders. */
const stopped: RunningHub[] = [];
let sim: MatterProcess;
let codes: { manualPairingCode: string };
const dirs: string[] = [];
const ids: Record<string, string> = {};

const device = async (name: string) => (await hub.call<Device>('GET', `/api/manager/devices/device/${ids[name]}`)).body;
const value = async (name: string, cap: string) => (await device(name)).capabilitiesObj[cap]?.value;
const until = <T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000) => poll(fn, ok, what, Math.ceil(timeoutMs / 200), 200);
const set = (name: string, capability: string, v: unknown) =>
  hub.call<{ error_description?: string }>('PUT', `/api/manager/devices/device/${ids[name]}/capability/${capability}`, { body: { value: v } });
/**
 * Whether the app's controller has the device (Homey's matter manager asks the app): a device's own
 * record keeps its last availability across a hub restart until the app says otherwise, so it
 * cannot tell that the controller reached the device again.
 */
const nodeReachable = (what: string) =>
  until(
    what,
    async () => Object.values((await hub.call<Record<string, { available: boolean }>>('GET', '/api/manager/matter/nodes')).body ?? {}),
    (nodes) => nodes.length === 1 && nodes[0]?.available === true,
    60_000,
  );
/** The Matter app's log (its stdout). */
const log = async () => (await hub.call<{ stdout: { text: string } }>('GET', `/api/manager/apps/app/${APP}/log`)).body.stdout.text;
const emit = <T>(session: string, event: string, data?: unknown) =>
  hub.call<T & { error?: string }>('POST', `/api/manager/drivers/pairsession/${session}/emit`, { body: { event, ...(data === undefined ? {} : { data }) } });

describe.skipIf(missing !== null)(`Matter over IP${missing ? ` (skipped: ${missing})` : ''}`, { timeout: 120_000 }, () => {
  beforeAll(async () => {
    lan = makeLan();
    const storage = await tempDir('hearth-matter-device-');
    appsDir = await tempDir('hearth-matter-apps-');
    dirs.push(appsDir, storage);
    sim = simDevice(lan, { storage, port: 5540, passcode: 20202021, discriminator: 3840, label: 'Hall light' });
    codes = (await sim.start()) as typeof codes;
    await cp(join(ROOT, 'examples', APP), join(appsDir, APP), { recursive: true });
    hub = await startHub({ appsDir, netns: { name: lan.hubNs, address: lan.hubAddress } });
    await waitAppRunning(hub, APP);
  }, 90_000);
  afterAll(async () => {
    await sim?.kill();
    await hub?.cleanup();
    for (const h of stopped) await h.cleanup();
    lan?.close();
    await removeAll(...dirs);
  });

  it('pairs a device by its code, each endpoint a device with its capabilities; a wrong code is told', async () => {
    const session = (
      await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', { body: { type: 'pair', driverId: `homey:app:${APP}:matter` } })
    ).body.id;
    const wrong = await emit(session, 'pincode', [...'1234']);
    expect(wrong.status).toBe(502);
    expect(wrong.text).toContain('That is not a Matter pairing code');
    // Told without loading matter.js: the controller starts with the first real code.
    expect(await log()).not.toContain('Matter controller started');
    const paired = await emit<boolean>(session, 'pincode', [...codes.manualPairingCode]);
    expect(paired.status, paired.text).toBe(200);
    expect(paired.body).toBe(true);
    expect(await log()).toContain('Matter controller started, 0 device(s)');
    const listed = await emit<Array<{ name: string }>>(session, 'list_devices');
    expect(listed.body.map((d) => d.name)).toEqual(['Hall light (light)', 'Hall light (temperature)']);
    for (const d of listed.body) {
      const added = await hub.call<Device>('POST', `/api/manager/drivers/pairsession/${session}/device`, { body: d });
      expect(added.status, added.text).toBe(201);
      ids[added.body.name] = added.body.id;
    }
    await hub.call('DELETE', `/api/manager/drivers/pairsession/${session}`);
    const light = await device('Hall light (light)');
    expect([light.class, light.capabilities]).toEqual(['light', ['onoff']]);
    const sensor = await device('Hall light (temperature)');
    expect([sensor.class, sensor.capabilities]).toEqual(['sensor', ['measure_temperature']]);
    await until(
      'the temperature read',
      () => value('Hall light (temperature)', 'measure_temperature'),
      (v) => v === 21.5,
    );
    // The fabric and its keys: a folder of the app's own, for nobody else.
    const folder = await stat(join(hub.dataDir, 'apps', APP, 'userdata', 'matter'));
    expect(folder.mode & 0o777).toBe(0o700);
  });

  it('turns the light on from the Web API, and hears the lamp switched at the lamp', async () => {
    expect((await set('Hall light (light)', 'onoff', true)).status).toBe(200);
    await until(
      'the lamp on',
      async () => sim.lines.at(-1),
      (l) => l?.onOff === true,
    );
    expect(await value('Hall light (light)', 'onoff')).toBe(true);
    sim.send('toggle');
    await until(
      'the hub to hear it off',
      () => value('Hall light (light)', 'onoff'),
      (v) => v === false,
    );
    sim.send('temperature 2300');
    await until(
      'the new temperature',
      () => value('Hall light (temperature)', 'measure_temperature'),
      (v) => v === 23,
    );
  });

  it('runs a flow: a warm hall turns the light on', async () => {
    const flow = await hub.call('POST', '/api/manager/flow/flow', {
      body: {
        name: 'warm hall',
        trigger: { id: `homey:device:${ids['Hall light (temperature)']}:measure_temperature_changed` },
        actions: [{ id: `homey:device:${ids['Hall light (light)']}:on`, args: {} }],
      },
    });
    expect(flow.status, flow.text).toBe(201);
    sim.send('temperature 2450');
    await until(
      'the flow to turn the lamp on',
      async () => sim.lines.at(-1),
      (l) => l?.onOff === true,
    );
    await until(
      'the hub to say so',
      () => value('Hall light (light)', 'onoff'),
      (v) => v === true,
    );
  });

  it("is an ordinary device to Homey's own client, and in insights", async () => {
    const client = await (await loadHomeyApi()).HomeyAPI.createLocalAPI({ address: hub.url, token: OWNER });
    try {
      const listed = await clientDevices(client).getDevices();
      // Homey's matter manager: the node, with the devices made of it.
      type Node = { id: string; name: string; available: boolean; devices: string[]; endpoints: Array<{ number: number; deviceTypes: number[] }> };
      const nodes = Object.values(await (client as unknown as { matter: { getMatterNodes(): Promise<Record<string, Node>> } }).matter.getMatterNodes());
      expect(nodes.map((n) => [n.name, n.available, n.devices.sort(), n.endpoints])).toEqual([
        [
          'Hall light',
          true,
          [ids['Hall light (light)'], ids['Hall light (temperature)']].sort(),
          [
            { number: 1, deviceTypes: [0x0100] },
            { number: 2, deviceTypes: [0x0302] },
          ],
        ],
      ]);
      expect(nodes[0]?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const ping = await hub.call<{ reachable: boolean; ms: number }>('POST', `/api/manager/matter/node/${nodes[0]?.id}/ping`);
      expect([ping.status, ping.body.reachable]).toEqual([200, true]);
      expect(listed[ids['Hall light (light)']!]?.name).toBe('Hall light (light)');
      const heard: unknown[] = [];
      const instance = listed[ids['Hall light (temperature)']!]!.makeCapabilityInstance('measure_temperature', (v) => heard.push(v));
      let t = 2000;
      await until(
        'the client to hear the sensor',
        async () => {
          sim.send(`temperature ${(t += 10)}`);
          return heard;
        },
        (h) => h.length > 0,
      );
      expect(typeof heard[0]).toBe('number');
      instance.destroy();
      await listed[ids['Hall light (light)']!]!.setCapabilityValue({ capabilityId: 'onoff', value: false });
      await until(
        'the lamp off',
        async () => sim.lines.at(-1),
        (l) => l?.onOff === false,
      );
      const insights = client.insights as unknown as { getLogEntries(o: { id: string; resolution?: string }): Promise<{ values: Array<{ v: unknown }> }> };
      const entries = await until(
        "the sensor's insights",
        () => insights.getLogEntries({ id: `homey:device:${ids['Hall light (temperature)']}:measure_temperature`, resolution: 'last24Hours' }),
        (e) => e.values.length > 0,
      );
      expect(typeof entries.values.at(-1)?.v).toBe('number');
    } finally {
      client.destroy();
    }
  });

  it('keeps the fabric in the backup: restored, the hub commands the device again', async () => {
    const ev = await openEvents(hub.wsUrl, 'backup', OWNER);
    const job = await hub.call<{ id: string }>('POST', '/api/manager/backup/backup/');
    const done = (
      await ev.next(
        (f) =>
          f.event === 'backup.update' &&
          (f.args[0] as { id: string; state: string }).id === job.body.id &&
          (f.args[0] as { state: string }).state !== 'running',
        30_000,
      )
    ).args[0] as { state: string; file: string };
    ev.close();
    expect(done.state).toBe('done');
    const dataDir = hub.dataDir;
    expect(await hub.stop()).toBe(0);
    stopped.push(hub);
    // The fabric and its keys gone: only the backup has them.
    await rm(join(dataDir, 'apps', APP), { recursive: true });
    const restored = await restoreBackup(join(dataDir, 'backups', done.file), { dataDir, appsDir });
    expect(restored.manifest.contents.userdata).toContain(APP);
    expect((await stat(join(dataDir, 'apps', APP, 'userdata', 'matter'))).mode & 0o777).toBe(0o700);
    hub = await startHub({ dataDir, appsDir, netns: { name: lan.hubNs, address: lan.hubAddress } });
    await waitAppRunning(hub, APP);
    await nodeReachable('the controller to reach the light again');
    await until(
      'the light available again',
      () => device('Hall light (light)'),
      (d) => d?.available === true,
    );
    // Restored, the controller opens a new session and subscribes again: a command in those
    // first seconds may find the device shown unreachable for a moment (seen once in eleven
    // runs, after matter.js said it had reached it), so the person's retry is what is asserted.
    let again = await set('Hall light (light)', 'onoff', true);
    for (let i = 0; i < 30 && again.status !== 200; i++) {
      await pause(1000, 'a person tries again a second later');
      again = await set('Hall light (light)', 'onoff', true);
    }
    expect(again.status, `${again.text}\n${(await log()).slice(-3000)}`).toBe(200);
    await until(
      'the lamp on',
      async () => sim.lines.at(-1),
      (l) => l?.onOff === true,
    );
  });

  it('is unavailable while the device is gone, and available again when it is back', { timeout: 240_000 }, async () => {
    // Reached before it goes (so the command below is the first to find it gone).
    await nodeReachable('the light reachable');
    await sim.kill();
    try {
      // A command that cannot reach it fails with the reason: the app's own (it did not answer),
      // or, when the controller noticed first (its subscription lapsed and a read failed, seen on
      // Node 22 within the moment after the kill), the hub's for a device shown unavailable.
      const failed = await set('Hall light (light)', 'onoff', false);
      const said = [failed.status, failed.body.error_description];
      expect(
        [
          [502, 'the app failed: The Matter device did not take it: it did not answer within 8 s'],
          [503, "'Hall light (light)' is unavailable: The Matter device cannot be reached: is it powered and on the network?"],
        ],
        failed.text,
      ).toContainEqual(said);
      await until(
        'the light unavailable',
        () => device('Hall light (light)'),
        (d) => !d.available,
        90_000,
      );
      expect((await device('Hall light (light)')).unavailableMessage).toContain('cannot be reached');
    } finally {
      // Back whatever happened above: the removal test after this one needs it on the network.
      await sim.start();
    }
    await until(
      'the light back',
      () => device('Hall light (light)'),
      (d) => d.available,
      120_000,
    );
    expect((await set('Hall light (light)', 'onoff', false)).status).toBe(200);
    await until(
      'the lamp off',
      async () => sim.lines.at(-1),
      (l) => l?.onOff === false,
    );
  });

  it('removes the device: deleting its last endpoint takes it off the fabric', async () => {
    expect((await hub.call('DELETE', `/api/manager/devices/device/${ids['Hall light (temperature)']}`)).status).toBe(204);
    expect((await hub.call('DELETE', `/api/manager/devices/device/${ids['Hall light (light)']}`)).status).toBe(204);
    // Off hearth's fabric, the device opens for commissioning again: the same code pairs it anew.
    const session = (
      await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', { body: { type: 'pair', driverId: `homey:app:${APP}:matter` } })
    ).body.id;
    const again = await emit<boolean>(session, 'pincode', [...codes.manualPairingCode]);
    expect(again.status, again.text).toBe(200);
    await hub.call('DELETE', `/api/manager/drivers/pairsession/${session}`);
    // Paired, not added: a node without devices, which Homey's matter manager removes.
    const nodes = Object.values((await hub.call<Record<string, { id: string; devices: string[] }>>('GET', '/api/manager/matter/nodes')).body);
    expect(nodes.map((n) => n.devices)).toEqual([[]]);
    expect((await hub.call('DELETE', `/api/manager/matter/node/${nodes[0]?.id}`)).status).toBe(204);
    expect((await hub.call('GET', '/api/manager/matter/nodes')).body).toEqual({});
    expect((await hub.call<{ nodes: number; running: boolean }>('GET', '/api/manager/matter/state')).body).toEqual({
      installed: true,
      running: true,
      nodes: 0,
    });
    expect((await hub.call('GET', `/api/manager/matter/node/${nodes[0]?.id}`)).status).toBe(404);
  });
});
