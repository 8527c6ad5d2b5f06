/**
 * The zigbee2mqtt app (examples/com.hearth.zigbee2mqtt) against a real broker and a zigbee2mqtt
 * stand-in publishing twelve real device models (a colour bulb, a white bulb with its own mired
 * range, a metering plug, contact, motion, climate and leak sensors, a valve, a blind, a remote, a
 * lock, a two-gang switch): paired from zigbee2mqtt's list with their capabilities; their states as Homey's values
 * (a contact closed is no alarm; the bulb's mired range read as its own); commands from the Web API
 * as zigbee2mqtt's /set and the echo back; a remote's press runs a flow; availability, a rename
 * and a removal in zigbee2mqtt, zigbee2mqtt and the broker going away and coming back.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Z2mStandIn } from '../../scripts/zigbee/standin.mjs';
import { clientDevices, loadHomeyApi } from '../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { type Broker, startMosquitto } from '../helpers/mosquitto.js';
import { poll } from '../helpers/poll.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { ROOT } from './helpers.js';

const APP = 'com.hearth.zigbee2mqtt';
type Device = {
  id: string;
  name: string;
  class: string;
  available: boolean;
  unavailableMessage: string | null;
  capabilities: string[];
  capabilitiesObj: Record<string, { value: unknown }>;
};

const DEVICES = [
  {
    model: '9290012573A',
    name: 'Living bulb',
    ieee: '0x0017880100000001',
    mains: true,
    state: { state: 'ON', brightness: 127, color_temp: 300, color_mode: 'color_temp', color: { hue: 30, saturation: 50 } },
  },
  { model: 'LED1545G12', name: 'Desk bulb', ieee: '0x000d6ffffe000002', mains: true, state: { state: 'OFF', brightness: 254, color_temp: 250 } },
  { model: 'TS011F_plug_1', name: 'Kettle plug', ieee: '0xa4c1380000000003', mains: true, state: { state: 'ON', power: 1500, energy: 12.5 } },
  { model: 'MCCGQ11LM', name: 'Front door', ieee: '0x00158d0000000004', state: {} },
  { model: 'RTCGQ11LM', name: 'Hall motion', ieee: '0x00158d0000000005', state: {} },
  { model: 'WSDCGQ11LM', name: 'Bedroom climate', ieee: '0x00158d0000000006', state: {} },
  { model: 'TS0601_thermostat', name: 'Radiator', ieee: '0xa4c1380000000007', state: {} },
  { model: 'E1757', name: 'Blind', ieee: '0x000d6ffffe000008', state: {} },
  { model: 'E1524/E1810', name: 'Remote', ieee: '0x000d6ffffe000009', state: {} },
  { model: 'YRD426NRSC', name: 'Back door lock', ieee: '0x000d6f000000000a', state: {} },
  { model: 'SJCGQ11LM', name: 'Leak sensor', ieee: '0x00158d000000000b', state: {} },
  { model: 'TS0012', name: 'Hall switch', ieee: '0xa4c138000000000c', mains: true, state: { state_left: 'ON', state_right: 'OFF' } },
];

let broker: Broker;
let z2m: Z2mStandIn;
let hub: RunningHub;
/** The hub before the restart test, whose temp folders the next one uses. */
let previous: RunningHub | undefined;
const ids: Record<string, string> = {};

const device = async (name: string) => (await hub.call<Device>('GET', `/api/manager/devices/device/${ids[name]}`)).body;
const value = async (name: string, cap: string) => (await device(name)).capabilitiesObj[cap]?.value;
const until = <T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean) => poll(fn, ok, what, 400);
const set = (name: string, capability: string, v: unknown) =>
  hub.call('PUT', `/api/manager/devices/device/${ids[name]}/capability/${capability}`, { body: { value: v } });
const lastSet = (name: string) => z2m.received.filter(([t]) => t === `zigbee2mqtt/${name}/set`).at(-1)?.[1];
/** The /set zigbee2mqtt receives next for `name` (the app publishes it as the Web API call returns). */
const sent = (name: string, command: unknown) =>
  until(
    `${JSON.stringify(command)} sent to ${name}`,
    async () => lastSet(name),
    (v) => JSON.stringify(v) === JSON.stringify(command),
  );

beforeAll(async () => {
  broker = await startMosquitto();
  z2m = new Z2mStandIn(broker.url);
  await z2m.start(DEVICES);
  const appsDir = await tempDir('hearth-z2m-');
  await cp(join(ROOT, 'examples', APP), join(appsDir, APP), { recursive: true });
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  expect((await hub.call('PUT', `/api/manager/apps/app/${APP}/setting/broker`, { body: { value: broker.url } })).status).toBe(200);
}, 90_000);
afterAll(async () => {
  await z2m?.close();
  await hub?.cleanup();
  await previous?.cleanup();
  await broker?.stop();
});

describe('zigbee2mqtt', { timeout: 90_000 }, () => {
  it('pairs what zigbee2mqtt knows, each with the capabilities its exposes map to, and lets new devices join', async () => {
    const listed = await poll(
      async () => {
        const session = await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', {
          body: { type: 'pair', driverId: `homey:app:${APP}:zigbee` },
        });
        const res = await hub.call<Array<{ name: string }>>('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, {
          body: { event: 'list_devices' },
        });
        return { session: session.body.id, devices: res.status === 200 ? res.body : [] };
      },
      (r) => r.devices.length === DEVICES.length,
      'the app to read the bridge',
      100,
      200,
    );
    for (const d of listed.devices) {
      const added = await hub.call<Device>('POST', `/api/manager/drivers/pairsession/${listed.session}/device`, { body: d });
      expect(added.status, added.text).toBe(201);
      ids[added.body.name] = added.body.id;
    }
    await hub.call('DELETE', `/api/manager/drivers/pairsession/${listed.session}`);
    // Listing let new devices join for two minutes.
    expect(z2m.received.find(([t]) => t === 'zigbee2mqtt/bridge/request/permit_join')?.[1]).toMatchObject({ time: 120 });
    const caps = async (name: string) => {
      const d = await device(name);
      return [d.class, [...d.capabilities].sort()];
    };
    expect(await caps('Living bulb')).toEqual(['light', ['dim', 'light_hue', 'light_mode', 'light_saturation', 'light_temperature', 'onoff']]);
    expect(await caps('Desk bulb')).toEqual(['light', ['dim', 'light_temperature', 'onoff']]);
    expect(await caps('Kettle plug')).toEqual(['socket', ['measure_current', 'measure_power', 'meter_power', 'onoff']]);
    expect(await caps('Front door')).toEqual(['sensor', ['alarm_contact', 'measure_battery']]);
    expect(await caps('Hall motion')).toEqual(['sensor', ['alarm_motion', 'measure_battery', 'measure_luminance']]);
    expect(await caps('Bedroom climate')).toEqual(['sensor', ['measure_battery', 'measure_humidity', 'measure_pressure', 'measure_temperature']]);
    expect(await caps('Radiator')).toEqual(['thermostat', ['alarm_battery', 'measure_temperature', 'target_temperature', 'thermostat_mode']]);
    expect(await caps('Blind')).toEqual(['blinds', ['measure_battery', 'windowcoverings_set', 'windowcoverings_state']]);
    expect(await caps('Remote')).toEqual(['remote', ['measure_battery']]);
    expect(await caps('Back door lock')).toEqual(['lock', ['alarm_battery', 'locked', 'measure_battery']]);
    expect(await caps('Leak sensor')).toEqual(['sensor', ['alarm_battery', 'alarm_water', 'measure_battery']]);
    // Two gangs: the second a sub-capability of its own.
    expect(await caps('Hall switch')).toEqual(['socket', ['onoff', 'onoff.right']]);
  });

  it("reads their states as Homey's values: a mains device with none is asked; the bulb's mireds on its own range", async () => {
    // zigbee2mqtt keeps no state on the broker: the mains-powered devices were asked (/get).
    await until(
      'the living bulb to be read',
      () => value('Living bulb', 'dim'),
      (v) => v === 0.5,
    );
    expect(z2m.received.some(([t]) => t === 'zigbee2mqtt/Living bulb/get')).toBe(true);
    // The app sets a state's values one capability at a time: each is waited for.
    await until(
      'the bulb colour temperature and mode to be read',
      async () => [await value('Living bulb', 'light_temperature'), await value('Living bulb', 'light_mode')],
      ([temperature, mode]) => temperature !== null && mode !== null,
    );
    expect(await value('Living bulb', 'light_mode')).toBe('temperature');
    expect(await value('Living bulb', 'light_temperature')).toBeCloseTo((300 - 153) / (500 - 153), 5);
    await until(
      'the plug to be read',
      () => value('Kettle plug', 'measure_power'),
      (v) => v === 1500,
    );
    expect(await value('Kettle plug', 'meter_power')).toBe(12.5);
    // Battery devices say what they are when they report.
    await z2m.report('Front door', { contact: true, battery: 91 });
    await z2m.report('Hall motion', { occupancy: true, illuminance: 120, battery: 80 });
    await z2m.report('Bedroom climate', { temperature: 20.5, humidity: 45, pressure: 1012, battery: 70 });
    await z2m.report('Radiator', { local_temperature: 19, current_heating_setpoint: 21, system_mode: 'heat', battery_low: false });
    await z2m.report('Leak sensor', { water_leak: true, battery: 95, battery_low: false });
    await until(
      'the door to be read',
      () => value('Front door', 'measure_battery'),
      (v) => v === 91,
    );
    // Closed (contact true) is no alarm.
    expect(await value('Front door', 'alarm_contact')).toBe(false);
    await z2m.report('Front door', { contact: false });
    await until(
      'the door to be open',
      () => value('Front door', 'alarm_contact'),
      (v) => v === true,
    );
    await until(
      'the motion to be read',
      () => value('Hall motion', 'alarm_motion'),
      (v) => v === true,
    );
    expect(await value('Hall motion', 'measure_luminance')).toBe(120);
    await until(
      'the climate to be read',
      () => value('Bedroom climate', 'measure_pressure'),
      (v) => v === 1012,
    );
    await until(
      'the radiator to be read',
      () => value('Radiator', 'target_temperature'),
      (v) => v === 21,
    );
    expect(await value('Radiator', 'thermostat_mode')).toBe('heat');
    await until(
      'the leak',
      () => value('Leak sensor', 'alarm_water'),
      (v) => v === true,
    );
  });

  it('sends what is set as zigbee2mqtt takes it, and the echo is the value', async () => {
    // The white bulb's own range (250-454 mired): the warmest is 454, not the 500 of another bulb.
    expect((await set('Desk bulb', 'light_temperature', 1)).status).toBe(200);
    await sent('Desk bulb', { color_temp: 454 });
    expect((await set('Desk bulb', 'light_temperature', 0)).status).toBe(200);
    await sent('Desk bulb', { color_temp: 250 });
    expect((await set('Desk bulb', 'onoff', true)).status).toBe(200);
    await sent('Desk bulb', { state: 'ON' });
    expect((await set('Desk bulb', 'dim', 0.25)).status).toBe(200);
    await sent('Desk bulb', { brightness: 64 });
    await until(
      'the echo',
      async () => z2m.states.get('Desk bulb')?.brightness,
      (v) => v === 64,
    );
    // A colour: hue and saturation together in one /set.
    await Promise.all([set('Living bulb', 'light_hue', 0.5), set('Living bulb', 'light_saturation', 1)]);
    await sent('Living bulb', { color: { hue: 180, saturation: 100 } });
    await until(
      'the colour',
      async () => z2m.states.get('Living bulb')?.color_mode,
      (v) => v === 'hs',
    );
    await until(
      'the bulb in colour mode',
      () => value('Living bulb', 'light_mode'),
      (v) => v === 'color',
    );
    expect((await set('Blind', 'windowcoverings_set', 0.3)).status).toBe(200);
    await sent('Blind', { position: 30 });
    expect((await set('Radiator', 'target_temperature', 22.5)).status).toBe(200);
    await sent('Radiator', { current_heating_setpoint: 22.5 });
    await until(
      'the hall switch to be read',
      () => value('Hall switch', 'onoff'),
      (v) => v === true,
    );
    expect(await value('Hall switch', 'onoff.right')).toBe(false);
    expect((await set('Hall switch', 'onoff.right', true)).status).toBe(200);
    await sent('Hall switch', { state_right: 'ON' });
    await until(
      'the right gang on',
      () => value('Hall switch', 'onoff.right'),
      (v) => v === true,
    );
    expect((await set('Back door lock', 'locked', false)).status).toBe(200);
    await sent('Back door lock', { state: 'UNLOCK' });
    await until(
      'the lock open',
      () => value('Back door lock', 'locked'),
      (v) => v === false,
    );
  });

  it("are ordinary devices to Homey's client: listed, set, and heard through a capability instance", async () => {
    const client = await (await loadHomeyApi()).HomeyAPI.createLocalAPI({ address: hub.url, token: OWNER });
    try {
      const listed = await clientDevices(client).getDevices();
      const door = listed[ids['Front door']!]!;
      expect(door.name).toBe('Front door');
      const heard: unknown[] = [];
      const instance = door.makeCapabilityInstance('alarm_contact', (v) => heard.push(v));
      // The instance subscribes as it is made: the door opens and closes until it hears.
      let open = false;
      await until(
        'the client to hear the door',
        async () => {
          open = !open;
          await z2m.report('Front door', { contact: !open });
          return heard;
        },
        (h) => h.length > 0,
      );
      expect(heard.every((v) => typeof v === 'boolean')).toBe(true);
      instance.destroy();
      await listed[ids['Desk bulb']!]!.setCapabilityValue({ capabilityId: 'dim', value: 0.5 });
      await sent('Desk bulb', { brightness: 127 });
    } finally {
      client.destroy();
    }
  });

  it("a remote's press runs the flow that waits for it, with the press as a token", async () => {
    const flow = await hub.call('POST', '/api/manager/flow/flow', {
      body: {
        name: 'remote',
        trigger: { id: `homey:app:${APP}:action`, args: { device: { id: ids.Remote, name: 'Remote' } } },
        actions: [{ id: 'homey:manager:notifications:create_notification', args: { text: 'Remote: [[action]]' } }],
      },
    });
    expect(flow.status, flow.text).toBe(201);
    await z2m.report('Remote', { action: 'arrow_left_click', battery: 88 });
    await until(
      'the flow to say the press',
      async () =>
        Object.values((await hub.call<Record<string, { excerpt: string }>>('GET', '/api/manager/notifications/notification')).body).map((n) => n.excerpt),
      (n) => n.includes('Remote: arrow_left_click'),
    );
    expect(await value('Remote', 'measure_battery')).toBe(88);
  });

  it('follows availability, a rename and a removal in zigbee2mqtt, and zigbee2mqtt and the broker going and coming back', async () => {
    await z2m.availability('Hall motion', false);
    await until(
      'the motion sensor offline',
      () => device('Hall motion'),
      (d) => !d.available,
    );
    expect((await device('Hall motion')).unavailableMessage).toMatch(/offline/);
    await z2m.availability('Hall motion', true);
    await until(
      'the motion sensor back',
      () => device('Hall motion'),
      (d) => d.available,
    );

    await z2m.rename('Kettle plug', 'Kitchen kettle');
    await z2m.report('Kitchen kettle', { power: 5 });
    await until(
      'the renamed plug to be read',
      () => value('Kettle plug', 'measure_power'),
      (v) => v === 5,
    );
    expect((await set('Kettle plug', 'onoff', false)).status).toBe(200);
    await sent('Kitchen kettle', { state: 'OFF' });

    await z2m.remove('Leak sensor');
    await until(
      'the leak sensor gone',
      () => device('Leak sensor'),
      (d) => !d.available,
    );
    expect((await device('Leak sensor')).unavailableMessage).toBe('removed from zigbee2mqtt');

    await z2m.bridgeState(false);
    await until(
      'zigbee2mqtt offline',
      () => device('Desk bulb'),
      (d) => !d.available,
    );
    expect((await device('Desk bulb')).unavailableMessage).toMatch(/zigbee2mqtt is not running/);
    await z2m.bridgeState(true);
    await until(
      'zigbee2mqtt back',
      () => device('Desk bulb'),
      (d) => d.available,
    );

    await z2m.close();
    await broker.stop();
    await until(
      'the broker gone',
      () => device('Desk bulb'),
      (d) => !d.available,
    );
    expect((await device('Desk bulb')).unavailableMessage).toMatch(/cannot reach the MQTT broker/);
    await broker.start();
    z2m = new Z2mStandIn(broker.url);
    await z2m.start(DEVICES.filter((d) => d.name !== 'Leak sensor').map((d) => (d.name === 'Kettle plug' ? { ...d, name: 'Kitchen kettle' } : d)));
    await until(
      'the broker back',
      () => device('Desk bulb'),
      (d) => d.available,
    );
    expect((await set('Desk bulb', 'onoff', false)).status).toBe(200);
    await until(
      'a command through the new connection',
      async () => lastSet('Desk bulb'),
      (v) => JSON.stringify(v) === '{"state":"OFF"}',
    );
  });

  it('keeps their values across a hub restart, and asks a mains device again', async () => {
    const before = { temperature: await value('Bedroom climate', 'measure_temperature'), door: await value('Front door', 'alarm_contact') };
    const gets = () => z2m.received.filter(([t]) => t === 'zigbee2mqtt/Desk bulb/get').length;
    const asked = gets();
    expect(await hub.stop()).toBe(0);
    previous = hub;
    hub = await startHub({ dataDir: previous.dataDir, appsDir: previous.appsDir });
    await waitAppRunning(hub, APP);
    // zigbee2mqtt keeps no state on the broker: what the hub kept is what the devices show.
    expect({ temperature: await value('Bedroom climate', 'measure_temperature'), door: await value('Front door', 'alarm_contact') }).toEqual(before);
    await until(
      'the desk bulb to be asked again',
      async () => gets(),
      (n) => n > asked,
    );
    await until(
      'the desk bulb available',
      () => device('Desk bulb'),
      (d) => d.available,
    );
  });
});
