/**
 * The home's energy with the virtual devices (examples/com.hearth.virtual): a metering plug in the
 * living room, an estimated lamp in the kitchen and the home's P1-style meter, whose house draws
 * a base load no device accounts for. The live report adds up (the rooms are what the devices
 * draw; meter + made = drawn + not accounted for, and that is the base load); today's report is
 * what the plug's and the meter's own insights logs say; the lamp counts by its estimate. Prices
 * and currency; Homey's own client reads the live report, moods and alarms and hears their events;
 * who may read and set what.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../apps/helpers.js';
import { type HomeyApiClient, loadHomeyApi } from '../../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { pairDevice } from '../../helpers/pair.js';
import { poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { addPerson } from '../users/helpers.js';

const APP = 'com.hearth.virtual';
const E = '/api/manager/energy';
type Watts = { W: number | null; cost: number | null };
type Live = {
  zoneId: string;
  totalConsumed: Watts;
  totalGenerated: Watts;
  totalCumulative: Watts;
  totalUnaccounted: Watts;
  items: Array<{ type: string; id: string; name: string; values: Watts; approximated: boolean }>;
};
type Totals = { consumedPeriod: number; importedPeriod: number | null; unaccountedPeriod: number | null; costPeriod: number | null };
type Report = { electricity: Totals & { devices: Record<string, { consumedPeriod?: number; importedPeriod?: number }> }; subReports: Record<string, unknown> };

let hub: RunningHub;
let client: HomeyApiClient;
const ids: Record<'plug' | 'lamp' | 'meter' | 'living' | 'kitchen', string> = { plug: '', lamp: '', meter: '', living: '', kitchen: '' };

const pair = (driver: string, zone?: string): Promise<string> => pairDevice(hub, `homey:app:${APP}:${driver}`, zone ? { zoneId: zone } : {});
const set = (id: string, capability: string, value: unknown) =>
  hub.call('PUT', `/api/manager/devices/device/${id}/capability/${capability}`, { body: { value } });
const live = async (zone?: string) => (await hub.call<Live>('GET', `${E}/live${zone ? `?zone=${zone}` : ''}`)).body;
/** A device's meter as it reads now (its insights log shows it rounded to the capability's decimals). */
const reading = async (id: string, capability: string) =>
  (await hub.call<{ capabilitiesObj: Record<string, { value: number }> }>('GET', `/api/manager/devices/device/${id}`)).body.capabilitiesObj[capability]!.value;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-energy-');
  await cp(join(ROOT, 'examples', APP), join(appsDir, APP), { recursive: true });
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  const root = Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/zones/zone')).body)[0]!;
  for (const [key, name] of [
    ['living', 'Living room'],
    ['kitchen', 'Kitchen'],
  ] as const)
    ids[key] = (await hub.call<{ id: string }>('POST', '/api/manager/zones/zone', { body: { name, parent: root } })).body.id;
  ids.plug = await pair('plug', ids.living);
  ids.lamp = await pair('lamp', ids.kitchen);
  ids.meter = await pair('meter');
  await set(ids.plug, 'onoff', true);
  await set(ids.lamp, 'onoff', true);
  client = await (await loadHomeyApi()).HomeyAPI.createLocalAPI({ address: hub.url, token: OWNER });
}, 90_000);
afterAll(async () => {
  client?.destroy();
  await hub?.cleanup();
});

describe('energy', { timeout: 90_000 }, () => {
  it('the live report adds up: rooms are their devices, the meter is what they draw plus what no device accounts for', async () => {
    // The meter reads the house every 10 s: until it has seen the plug and the lamp on.
    const report = await poll(
      () => live(),
      (r) => r.totalUnaccounted.W !== null && Math.abs(r.totalUnaccounted.W - 150) < 3,
      'the meter to see the plug and the lamp',
      600,
    );
    const room = (id: string) => report.items.find((i) => i.type === 'zone' && i.id === id)?.values.W;
    expect(room(ids.living)).toBeGreaterThan(58);
    expect(room(ids.living)).toBeLessThan(62);
    expect(room(ids.kitchen)).toBe(8);
    // Rooms and devices add up to what is drawn; meter + made = drawn + not accounted for.
    const drawn = report.items.filter((i) => i.type !== 'cumulative').reduce((a, i) => a + (i.values.W ?? 0), 0);
    expect(drawn).toBeCloseTo(report.totalConsumed.W!, 1);
    expect(report.totalCumulative.W! + report.totalGenerated.W!).toBeCloseTo(report.totalConsumed.W! + report.totalUnaccounted.W!, 1);
    expect(report.items.find((i) => i.type === 'cumulative')?.id).toBe(ids.meter);
    // A room's own report: its devices; the lamp's power is its driver's estimate.
    const kitchen = await live(ids.kitchen);
    expect(kitchen.items).toEqual([expect.objectContaining({ type: 'device', id: ids.lamp, approximated: true, values: { W: 8, cost: null } })]);
    expect(kitchen.totalCumulative.W).toBeNull();
    await set(ids.lamp, 'onoff', false);
    expect((await live(ids.kitchen)).totalConsumed.W).toBe(0.4);
    await set(ids.lamp, 'onoff', true);
  });

  it("today's report is what the devices' own meters counted; the lamp counts by its estimate", async () => {
    // Off: the plug's and the meter's logs stop rising once each has ticked.
    await set(ids.plug, 'onoff', false);
    await hub.call('PUT', `/api/manager/devices/device/${ids.meter}/settings`, { body: { baseLoad: 0 } });
    await set(ids.lamp, 'onoff', false);
    await poll(
      () => live(),
      (r) => r.totalCumulative.W !== null && r.totalCumulative.W < 1,
      'the meter to see the house at rest',
      600,
    );
    // Today in the hub's zone: the last day there is history for.
    const today = (await hub.call<{ last: string }>('GET', `${E}/reports/available`)).body.last;
    const report = (await hub.call<Report>('GET', `${E}/report/day?date=${today}`)).body;
    const e = report.electricity;
    expect(e.devices[ids.plug]?.consumedPeriod).toBeCloseTo(await reading(ids.plug, 'meter_power'), 4);
    expect(e.importedPeriod).toBeCloseTo(await reading(ids.meter, 'meter_power.imported'), 4);
    expect(e.devices[ids.meter]?.importedPeriod).toBe(e.importedPeriod);
    expect(e.consumedPeriod).toBe(e.importedPeriod);
    // The lamp was on at 8 W for the seconds of this test: a little, worked out by the hub.
    const lamp = e.devices[ids.lamp]?.consumedPeriod ?? 0;
    expect(lamp).toBeGreaterThan(0);
    expect(lamp).toBeLessThan(0.001);
    expect(e.unaccountedPeriod).toBeCloseTo(e.consumedPeriod - (e.devices[ids.plug]!.consumedPeriod! + lamp), 3);
    expect(Object.keys(report.subReports).length).toBeGreaterThanOrEqual(23);
    // Asking for a day that is none: a sentence.
    const bad = await hub.call('GET', `${E}/report/day?date=yesterday`);
    expect([bad.status, bad.text]).toEqual([400, expect.stringContaining('write it as 2026-11-28')]);
  });

  it('a price and a currency make costs; a price that is none is refused', async () => {
    const price = { costs: { user_fixed_base: { value: 0.25 }, tax: { value: 0.05 } } };
    expect((await hub.call('PUT', `${E}/option/electricityPriceFixed`, { body: { value: price } })).status).toBe(200);
    expect((await hub.call('GET', `${E}/price/electricity/type`)).body).toBe('fixed');
    await set(ids.lamp, 'onoff', true);
    expect((await live(ids.kitchen)).totalConsumed).toEqual({ W: 8, cost: 0.0024 });
    expect((await hub.call('PUT', `${E}/option/currency`, { body: { value: 'GBP' } })).status).toBe(200);
    expect((await hub.call('GET', `${E}/currency`)).body).toEqual({ currency: 'GBP', symbol: '£' });
    const bad = await hub.call('PUT', `${E}/option/electricityPriceFixed`, { body: { value: { costs: { base: { value: -1 } } } } });
    expect(bad.status).toBe(400);
    expect((await hub.call('GET', `${E}/option/electricityPriceFixed`)).body).toEqual({ value: price });
  });

  it('a user reads the energy, a guest does not, and only a manager sets the price', async () => {
    const { token: user } = await addPerson(hub, 'Kid', 'user');
    const { token: guest } = await addPerson(hub, 'Sitter', 'guest', { zones: [ids.kitchen] });
    expect((await hub.call('GET', `${E}/live`, { token: user })).status).toBe(200);
    expect((await hub.call('PUT', `${E}/option/currency`, { token: user, body: { value: 'EUR' } })).status).toBe(403);
    expect((await hub.call('GET', `${E}/live`, { token: guest })).status).toBe(403);
  });

  it("Homey's client reads the live report, moods and alarms, and hears their events", async () => {
    const energy = (
      client as unknown as Record<string, { getLiveReport(o?: object): Promise<Live>; connect(): Promise<void>; on(e: string, f: (x: unknown) => void): void }>
    ).energy!;
    const viaClient = await energy.getLiveReport();
    expect(viaClient.zoneId).toBe((await live()).zoneId);
    expect(viaClient.items.map((i) => i.id).sort()).toEqual((await live()).items.map((i) => i.id).sort());
    await energy.connect();
    const heard: unknown[] = [];
    energy.on('live.update', (x) => heard.push(x));
    await set(ids.plug, 'onoff', true);
    await poll(
      async () => heard,
      (h) => h.some((x) => (x as { consumed: number }).consumed > 50),
      'the client to hear the plug come on',
    );

    type Api = { connect(): Promise<void>; on(e: string, f: (x: unknown) => void): void } & Record<string, (o?: object) => Promise<unknown>>;
    const moods = (client as unknown as Record<string, Api>).moods!;
    const alarms = (client as unknown as Record<string, Api>).alarms!;
    await moods.connect();
    await alarms.connect();
    const events: string[] = [];
    moods.on('mood.create', () => events.push('mood.create'));
    alarms.on('alarm.create', () => events.push('alarm.create'));
    const mood = (await hub.call<{ id: string }>('POST', '/api/manager/moods/mood', { body: { name: 'Dinner', zone: ids.kitchen } })).body;
    await hub.call('POST', '/api/manager/alarms/alarm', { body: { name: 'Wake up', time: '07:00' } });
    expect(Object.keys((await moods.getMoods!()) as object)).toEqual([mood.id]);
    expect(await moods.setMood!({ id: mood.id })).toMatchObject({ mood: mood.id, followed: [ids.lamp], failed: [] });
    expect(Object.values((await alarms.getAlarms!()) as Record<string, { name: string }>).map((a) => a.name)).toEqual(['Wake up']);
    await poll(
      async () => events,
      (e) => e.includes('mood.create') && e.includes('alarm.create'),
      'the client to hear the mood and the alarm made',
    );
  });

  it('a flow hears the home pass its watts, with the power as a token; the power is a global token too', async () => {
    await set(ids.plug, 'onoff', false);
    await poll(
      () => live(),
      (r) => (r.totalCumulative.W ?? 1000) + (r.totalGenerated.W ?? 0) < 50,
      'the meter to see the plug off',
      600,
    );
    const flow = await hub.call('POST', '/api/manager/flow/flow', {
      body: {
        name: 'busy home',
        trigger: { id: 'homey:manager:energy:power_above', args: { watts: 50 } },
        actions: [{ id: 'homey:manager:notifications:create_notification', args: { text: 'Home at [[power]] W' } }],
      },
    });
    expect(flow.status).toBe(201);
    await set(ids.plug, 'onoff', true);
    const said = await poll(
      async () =>
        Object.values((await hub.call<Record<string, { excerpt: string }>>('GET', '/api/manager/notifications/notification')).body).map((n) => n.excerpt),
      (n) => n.some((t) => t.startsWith('Home at')),
      'the flow to say the home passed 50 W',
      600,
    );
    const watts = Number(/Home at ([\d.]+) W/.exec(said.find((t) => t.startsWith('Home at'))!)![1]);
    expect(watts).toBeGreaterThan(50);
    const tokens = (await hub.call<Record<string, { value: unknown; title: string }>>('GET', '/api/manager/flowtoken/flowtoken')).body;
    expect(tokens['homey:manager:energy:power']).toMatchObject({ title: 'Power of the home (W)', value: expect.any(Number) });
  });

  it("the home's totals as the hub keeps them (each device's share, as it changes) are what a live report of the whole home sums to", async () => {
    const energy = (client as unknown as Record<string, { connect(): Promise<void>; on(e: string, f: (x: unknown) => void): void }>).energy!;
    await energy.connect();
    type Heard = { consumed: number; generated: number; cumulative: number | null };
    let heard: Heard | null = null;
    energy.on('live.update', (x) => {
      heard = x as Heard;
    });
    /** The last totals heard and a report's (the plug's power moves: until one moment they meet). */
    const agree = (what: string) =>
      poll(
        async () => ({ heard: heard as Heard | null, report: await live() }),
        ({ heard: h, report: r }) =>
          h !== null && h.consumed === r.totalConsumed.W && h.generated === r.totalGenerated.W && h.cumulative === r.totalCumulative.W,
        `the totals heard to be the report's ${what}`,
        600,
      );
    await agree('at first');
    // A second plug: its share comes in; removed, its share goes (a share kept would stay behind).
    const plug2 = await pair('plug', ids.living);
    await set(plug2, 'onoff', true);
    const withPlug = await agree('with a second plug on');
    expect((await live(ids.living)).items.some((i) => i.id === plug2)).toBe(true);
    expect((await hub.call('DELETE', `/api/manager/devices/device/${plug2}`)).status).toBe(204);
    const without = await agree('with the second plug gone');
    expect(without.report.totalConsumed.W!).toBeLessThan(withPlug.report.totalConsumed.W! - 20);
  });
});
