/**
 * The example app of virtual devices (examples/com.hearth.virtual), run as a family gets it on the
 * first day: each of its five drivers paired from list_devices (again and again: each listing
 * offers a new device), and each device doing what its kind does: the lamp comes on at its set
 * brightness, the plug measures its load and counts energy, the sensors report, the door opens,
 * closes and sees motion by its flow cards, the thermostat goes to eco.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { ROOT } from './helpers.js';

const APP = 'com.hearth.virtual';
const F = '/api/manager/flow';
type Device = { id: string; name: string; capabilitiesObj: Record<string, { value: unknown }>; settings: Record<string, unknown> };
let hub: RunningHub;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-virtual-');
  await cp(join(ROOT, 'examples', APP), join(appsDir, APP), { recursive: true });
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
}, 60_000);
afterAll(async () => {
  await hub?.cleanup();
});

/** Pairs what `driver` lists, as the web app's pairing does; answers the device added. */
async function pair(driver: string): Promise<Device> {
  const session = await hub.call<{ id: string; view: string }>('POST', '/api/manager/drivers/pairsession', {
    body: { type: 'pair', driverId: `homey:app:${APP}:${driver}` },
  });
  expect(session.body.view).toBe('list_devices');
  const listed = await hub.call<Array<{ name: string }>>('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, {
    body: { event: 'list_devices' },
  });
  expect(listed.body).toHaveLength(1);
  const added = await hub.call<Device>('POST', `/api/manager/drivers/pairsession/${session.body.id}/device`, { body: listed.body[0] });
  expect(added.status).toBe(201);
  await hub.call('DELETE', `/api/manager/drivers/pairsession/${session.body.id}`);
  return added.body;
}

const device = async (id: string) => (await hub.call<Device>('GET', `/api/manager/devices/device/${id}`)).body;
const value = async (id: string, capability: string) => (await device(id)).capabilitiesObj[capability]?.value;
const set = (id: string, capability: string, v: unknown) =>
  hub.call('PUT', `/api/manager/devices/device/${id}/capability/${capability}`, { body: { value: v } });
const action = (card: string, args: Record<string, unknown>) => hub.call('POST', `${F}/flowcardaction/homey:app:${APP}/${card}/run`, { body: { args } });

describe('virtual devices, paired without hardware', { timeout: 60_000 }, () => {
  it('lists its six drivers, and each listing offers a new device: a second lamp is "Lamp 2"', async () => {
    const drivers = await hub.call<Record<string, { name: string }>>('GET', '/api/manager/drivers/driver');
    expect(
      Object.keys(drivers.body)
        .filter((id) => id.startsWith(`homey:app:${APP}:`))
        .sort(),
    ).toEqual(['climate', 'door', 'lamp', 'meter', 'plug', 'thermostat'].map((d) => `homey:app:${APP}:${d}`));
    const first = await pair('lamp');
    const second = await pair('lamp');
    expect([first.name, second.name]).toEqual(['Lamp', 'Lamp 2']);
  });

  it('a lamp comes on at the brightness its settings give, and goes off when dimmed to nothing', async () => {
    const lamp = await pair('lamp');
    expect((await set(lamp.id, 'onoff', true)).status).toBe(200);
    expect(
      await poll(
        () => value(lamp.id, 'dim'),
        (v) => v === 0.8,
        'the lamp at 80%',
      ),
    ).toBe(0.8);
    expect((await set(lamp.id, 'dim', 0)).status).toBe(200);
    expect(
      await poll(
        () => value(lamp.id, 'onoff'),
        (v) => v === false,
        'the lamp off',
      ),
    ).toBe(false);
    expect((await action('flash', { device: { id: lamp.id, name: lamp.name }, times: 1 })).status).toBe(200);
    expect(await value(lamp.id, 'onoff')).toBe(false);
  });

  it('a plug measures its load while on and nothing while off, and the power condition reads it', async () => {
    const plug = await pair('plug');
    expect(await value(plug.id, 'meter_power')).toBe(0);
    await set(plug.id, 'onoff', true);
    const watts = (await poll(
      () => value(plug.id, 'measure_power'),
      (v) => typeof v === 'number' && v > 0,
      'the plug to measure',
    )) as number;
    expect(watts).toBeGreaterThanOrEqual(58.8);
    expect(watts).toBeLessThanOrEqual(61.2);
    const above = (w: number) =>
      hub.call<boolean>('POST', `${F}/flowcardcondition/homey:app:${APP}/power_above/run`, {
        body: { args: { device: { id: plug.id, name: plug.name }, watts: w } },
      });
    expect((await above(50)).body).toBe(true);
    expect((await above(100)).body).toBe(false);
    await set(plug.id, 'onoff', false);
    expect(
      await poll(
        () => value(plug.id, 'measure_power'),
        (v) => v === 0,
        'no power off',
      ),
    ).toBe(0);
  });

  it('a climate sensor reports a room temperature and humidity, and a full battery', async () => {
    const climate = await pair('climate');
    const t = (await poll(
      () => value(climate.id, 'measure_temperature'),
      (v) => typeof v === 'number',
      'a temperature',
    )) as number;
    expect(t).toBeGreaterThan(18);
    expect(t).toBeLessThan(23);
    const h = (await value(climate.id, 'measure_humidity')) as number;
    expect(h).toBeGreaterThan(35);
    expect(h).toBeLessThan(60);
    expect(await value(climate.id, 'measure_battery')).toBe(100);
  });

  it('a door opens, closes and sees motion by its flow cards', async () => {
    const door = await pair('door');
    const arg = { device: { id: door.id, name: door.name } };
    expect(
      await poll(
        () => value(door.id, 'alarm_contact'),
        (v) => v === false,
        'closed',
      ),
    ).toBe(false);
    expect((await action('simulate_open', arg)).status).toBe(200);
    expect(await value(door.id, 'alarm_contact')).toBe(true);
    expect((await action('simulate_motion', arg)).status).toBe(200);
    expect(await value(door.id, 'alarm_motion')).toBe(true);
    expect((await action('simulate_close', arg)).status).toBe(200);
    expect(await value(door.id, 'alarm_contact')).toBe(false);
  });

  it('a thermostat starts heating towards 20 °C, and goes to its eco temperature by its card', async () => {
    const thermostat = await pair('thermostat');
    expect(
      await poll(
        () => value(thermostat.id, 'target_temperature'),
        (v) => v === 20,
        'a target',
      ),
    ).toBe(20);
    expect(await value(thermostat.id, 'thermostat_mode')).toBe('heat');
    expect((await action('eco', { device: { id: thermostat.id, name: thermostat.name } })).status).toBe(200);
    expect(await value(thermostat.id, 'target_temperature')).toBe(17);
    expect((await set(thermostat.id, 'target_temperature', 21.5)).status).toBe(200);
    expect(await value(thermostat.id, 'target_temperature')).toBe(21.5);
  });

  it('is still running, with nothing in its error log', async () => {
    const app = (await hub.call<{ state: string; crashed: boolean }>('GET', `/api/manager/apps/app/${APP}`)).body;
    expect(app).toMatchObject({ state: 'running', crashed: false });
    const log = (await hub.call<{ stderr: string }>('POST', `/api/manager/apps/app/${APP}/crashlog`, { body: {} })).body;
    // The hub's own line at each start, and nothing of the app's.
    expect(log.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('--- '))).toEqual([]);
  });
});
