/**
 * Alarms (issue 43) on the minute clock of a zone with daylight saving (Europe/Amsterdam), its
 * time given by the test: an alarm keeps its wall time across both changes, the hour the clocks go
 * back rings it once, the hour they skip does not ring it, one set once rings once and turns
 * itself off, and a minute the hub did not see is not caught up. Then through the hub: Homey's
 * client lists them and the flow trigger names the alarm that went off.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zoneClock } from '../../../src/core/cron.js';
import { EventBus } from '../../../src/core/events.js';
import { Store } from '../../../src/core/store.js';
import { AlarmsService } from '../../../src/managers/alarms/service.js';
import type { HubEventMaps } from '../../../src/managers/bus.js';
import { loadHomeyApi } from '../../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';

const EVERY_DAY = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: true };
const MINUTE = 60_000;

/** Runs the clock minute by minute from `from` to `to` (UTC): the UTC minutes each alarm rang at. */
async function run(service: AlarmsService, clockNow: { t: number }, from: string, to: string): Promise<Record<string, string[]>> {
  const rang: Record<string, string[]> = {};
  const off = service.onRing((a) => (rang[a.name] ??= []).push(new Date(clockNow.t).toISOString().slice(0, 16)));
  for (let m = Date.parse(from); m < Date.parse(to); m += MINUTE) {
    clockNow.t = m + 500;
    await service.tick(m);
  }
  off();
  return rang;
}

/** The alarm clocks' stores, closed and removed after the tests. */
const opened: Array<{ store: Store; dir: string }> = [];
afterAll(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

/** An alarm clock of Amsterdam on a data dir of its own, its time `clockNow.t` (the test moves it). */
async function amsterdam(start: string): Promise<{ service: AlarmsService; clockNow: { t: number } }> {
  const clockNow = { t: Date.parse(start) };
  const dir = await tempDir('hearth-alarms-');
  const store = await Store.open(dir);
  opened.push({ store, dir });
  const service = new AlarmsService(store, new EventBus<HubEventMaps>(), zoneClock('Europe/Amsterdam'), () => clockNow.t);
  service.open();
  return { service, clockNow };
}

describe('the alarm clock', () => {
  it('keeps wall time across both daylight-saving changes, rings once in the doubled hour and not in the skipped one', async () => {
    const { service, clockNow } = await amsterdam('2026-10-24T20:00:00Z');
    await service.create({ name: 'Night', time: '02:30', enabled: true, repetition: EVERY_DAY });
    await service.create({ name: 'Wake', time: '07:00', enabled: true, repetition: EVERY_DAY });
    const once = await service.create({ name: 'Once', time: '07:05', enabled: true });
    expect(once.nextOccurrence).toBe('2026-10-25T06:05:00.000Z');
    // The clocks go back on 25 October 2026 at 03:00 CEST: 02:30 comes twice (00:30 and 01:30 UTC).
    const autumn = await run(service, clockNow, '2026-10-24T22:00:00Z', '2026-10-26T22:00:00Z');
    expect(autumn.Night).toEqual(['2026-10-25T00:30', '2026-10-26T01:30']);
    expect(autumn.Wake).toEqual(['2026-10-25T06:00', '2026-10-26T06:00']);
    expect(autumn.Once).toEqual(['2026-10-25T06:05']);
    expect(service.get(once.id)).toMatchObject({ enabled: false, nextOccurrence: null });
    // They go forward on 28 March 2027 at 02:00 CET: no 02:30 that day; 07:00 is 05:00 UTC from then.
    clockNow.t = Date.parse('2027-03-27T23:00:00Z');
    const spring = await run(service, clockNow, '2027-03-27T23:00:00Z', '2027-03-29T22:00:00Z');
    expect(spring.Night).toEqual(['2027-03-29T00:30']);
    expect(spring.Wake).toEqual(['2027-03-28T05:00', '2027-03-29T05:00']);
  });

  it('does not ring late for a minute the hub did not see', async () => {
    const { service, clockNow } = await amsterdam('2026-11-30T06:59:30Z');
    await service.create({ name: 'Wake', time: '08:00', enabled: true, repetition: EVERY_DAY });
    const rang: string[] = [];
    service.onRing((a) => rang.push(a.name));
    // The hub was down at 08:00 (07:00 UTC); it sees the minute an hour late.
    clockNow.t = Date.parse('2026-11-30T08:00:10Z');
    await service.tick(Date.parse('2026-11-30T07:00:00Z'));
    expect(rang).toEqual([]);
  });
});

describe('alarms through the hub', () => {
  let hub: RunningHub;
  beforeAll(async () => {
    hub = await startHub();
  }, 60_000);
  afterAll(() => hub?.cleanup());

  it("Homey's client lists them; bad ones are refused", async () => {
    const made = await hub.call<{ id: string; nextOccurrence: string }>('POST', '/api/manager/alarms/alarm', {
      body: { name: 'School', time: '07:15', repetition: { ...EVERY_DAY, saturday: false, sunday: false } },
    });
    expect(made.status, made.text).toBe(201);
    expect(Date.parse(made.body.nextOccurrence)).toBeGreaterThan(Date.now());
    const client = await (await loadHomeyApi()).HomeyAPI.createLocalAPI({ address: hub.url, token: OWNER });
    try {
      const alarms = client.alarms as unknown as { getAlarms(): Promise<Record<string, { name: string; time: string }>> };
      expect(Object.values(await alarms.getAlarms()).map((a) => [a.name, a.time])).toEqual([['School', '07:15']]);
    } finally {
      client.destroy();
    }
    expect((await hub.call('POST', '/api/manager/alarms/alarm', { body: { name: 'X', time: '25:00' } })).status).toBe(400);
    expect((await hub.call('POST', '/api/manager/alarms/alarm', { body: { name: 'X', time: '07:00', repetition: { monday: true } } })).status).toBe(400);
    expect((await hub.call('PUT', `/api/manager/alarms/alarm/${made.body.id}`, { body: { enabled: false } })).status).toBe(200);
    expect((await hub.call<{ nextOccurrence: null }>('GET', `/api/manager/alarms/alarm/${made.body.id}`)).body.nextOccurrence).toBeNull();
  });

  it('goes off at its minute and runs the flow that waits for it, with its name', { timeout: 100_000 }, async () => {
    // The next minute that is at least 5 s away, in the hub's zone (the machine's: the hub runs with no other).
    const at = new Date(Math.ceil((Date.now() + 5_000) / MINUTE) * MINUTE);
    const time = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
    const alarm = await hub.call<{ id: string; nextOccurrence: string }>('POST', '/api/manager/alarms/alarm', { body: { name: 'Tea', time } });
    expect(Date.parse(alarm.body.nextOccurrence)).toBe(at.getTime());
    const flow = await hub.call('POST', '/api/manager/flow/flow', {
      body: {
        name: 'tea time',
        trigger: { id: 'homey:manager:alarms:alarm_goes_off_specific', args: { alarm: { id: alarm.body.id, name: 'Tea' } } },
        actions: [{ id: 'homey:manager:notifications:create_notification', args: { text: '[[name]] went off' } }],
      },
    });
    expect(flow.status, flow.text).toBe(201);
    const said = await poll(
      async () =>
        Object.values((await hub.call<Record<string, { excerpt: string }>>('GET', '/api/manager/notifications/notification')).body).map((n) => n.excerpt),
      (n) => n.includes('Tea went off'),
      'the alarm to go off and its flow to run',
      1_800,
    );
    expect(said).toContain('Tea went off');
    // Set once: it rang, and it is off.
    expect((await hub.call<{ enabled: boolean; nextOccurrence: null }>('GET', `/api/manager/alarms/alarm/${alarm.body.id}`)).body).toMatchObject({
      enabled: false,
      nextOccurrence: null,
    });
  });
});
