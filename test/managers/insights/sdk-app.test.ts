/**
 * An app writing through the SDK into a real hub: a real child process creates logs, writes a
 * burst faster than the per-log limit, a dated backfill and boolean entries; the hub answers
 * them over HTTP and publishes their events. The app's results come back through its settings.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, homeyApp, removeAll, writeApp } from '../../apps/helpers.js';
import { type EventClient, openEvents } from '../../helpers/events.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';

const METER = homeyApp(`
  async onInit() {
    const power = await this.homey.insights.createLog('power', { title: { en: 'Power', nl: 'Vermogen' }, type: 'number', units: 'W', decimals: 1 });
    const door = await this.homey.insights.createLog('door', { title: 'Door', type: 'boolean', titleTrue: 'Open', titleFalse: 'Closed' });
    const scratch = await this.homey.insights.createLog('scratch', { title: 'Scratch', type: 'number' });
    // A backfill: one point per minute over the last hour, dated by the app.
    const now = Date.now();
    for (let i = 60; i >= 1; i--) await power.createEntry(100 + i, new Date(now - i * 60000));
    // A burst far above 10 writes/s, all dated now (50 in flight at a time: the IPC limit is 64).
    const burstStart = Date.now();
    for (let i = 0; i < 500; i += 50) {
      const batch = [];
      for (let j = i; j < i + 50; j++) batch.push(power.createEntry(1000 + j));
      await Promise.all(batch);
    }
    const burstEnd = Date.now();
    await door.createEntry(true, new Date(now - 30000));
    await door.createEntry(false, new Date(now - 10000));
    await this.homey.insights.deleteLog(scratch);
    let refused = null;
    try { await door.createEntry(42); } catch (err) { refused = String(err.message || err); }
    const logs = (await this.homey.insights.getLogs()).map((l) => l.name).sort();
    const again = await this.homey.insights.getLog('power');
    let missing = null;
    try { await this.homey.insights.getLog('scratch'); } catch (err) { missing = err.code; }
    this.homey.settings.set('result', {
      logs,
      refused,
      uri: power.options.uri,
      again: { name: again.name, units: again.options.units, isLog: again instanceof Homey.InsightsLog },
      missing,
      burstStart,
      burstEnd,
    });
  }`);

type Json = Record<string, unknown>;
const P = '/api/manager/insights';

/** The app's name, which the hub's usage logs of it are titled by (not its id). */
const METER_NAME = 'Energy meter';

describe('an app writing insights through the SDK', () => {
  let hub: RunningHub;
  let appsDir: string;
  let events: EventClient;
  let result: { logs: string[]; refused: string | null; uri: string; again: unknown; missing: unknown; burstStart: number; burstEnd: number };

  beforeAll(async () => {
    assertBuilt();
    appsDir = await tempDir('hearth-apps-');
    // Insights needs no permission.
    await writeApp(appsDir, 'com.test.meter', { code: METER, manifest: { name: { en: METER_NAME } } });
    hub = await startHub({ appsDir });
    events = await openEvents(hub.wsUrl, 'insights', OWNER);
    const setting = await poll(
      () => hub.call<{ value?: unknown } | unknown>('GET', '/api/manager/apps/app/com.test.meter/setting/result'),
      (r) => r.status === 200 && r.body !== null && JSON.stringify(r.body) !== '{}' && !JSON.stringify(r.body).includes('null}'),
      'the app result',
    ).catch(async (err: Error) => {
      const app = await hub.call('GET', '/api/manager/apps/app/com.test.meter');
      const log = await hub.call('POST', '/api/manager/apps/app/com.test.meter/crashlog');
      throw new Error(`${err.message}\napp: ${app.text}\ncrashlog: ${log.text}`);
    });
    const body = setting.body as Json;
    result = ('value' in body ? body.value : body) as typeof result;
  }, 60_000);
  afterAll(async () => {
    events?.close();
    await hub?.cleanup();
    await removeAll(appsDir);
  });

  it('creates the logs under the app own uri, and answers them over HTTP', async () => {
    expect(result).toMatchObject({
      logs: ['door', 'power'],
      uri: 'homey:app:com.test.meter',
      again: { name: 'power', units: 'W', isLog: true },
      missing: 'not_found',
    });
    const logs = (await hub.call<Record<string, Json>>('GET', `${P}/log`)).body;
    expect(logs['homey:app:com.test.meter:power']).toMatchObject({
      id: 'homey:app:com.test.meter:power',
      ownerId: 'power',
      uri: 'homey:app:com.test.meter',
      title: 'Power',
      units: 'W',
      decimals: 1,
      type: 'number',
    });
    expect(logs['homey:app:com.test.meter:door']).toMatchObject({ type: 'boolean', titleTrue: 'Open', titleFalse: 'Closed', lastValue: false });
    expect(logs['homey:app:com.test.meter:scratch']).toBeUndefined();
  });

  it('refuses a number for a boolean log with a sentence the app can act on', () => {
    expect(result.refused).toContain('boolean log');
  });

  it('coalesces the burst to at most one point per 100 ms slot and keeps the backfill', async () => {
    type Entries = { values: Array<{ t: string; v: number | null }>; step: number; lastValue: number; max: number };
    const read = async (): Promise<Entries> => (await hub.call<Entries>('GET', `${P}/log/homey:app:com.test.meter/power/entry?resolution=lastHour`)).body;
    // Entries are committed within 2 s of being written: wait for the burst's last one to land.
    const entries = await poll(read, (e) => e.lastValue === 1499, "the burst's last entry committed", 50, 200);
    expect(entries.step).toBe(15_000);
    const filled = entries.values.filter((v) => v.v !== null);
    // 60 backfilled minutes land in 59-60 of the 15 s buckets of the last hour, plus the burst.
    expect(filled.length).toBeGreaterThanOrEqual(59);
    expect(entries.lastValue).toBe(1499);
    expect(entries.max).toBe(1499);
    // The stored burst, read from the database file itself (WAL lets a reader in): one point
    // per 100 ms slot at most, whatever the burst's speed, each holding the slot's last write.
    const db = new Database(join(hub.dataDir, 'insights.db'), { readonly: true });
    try {
      const power = "(SELECT row FROM logs WHERE uri = 'homey:app:com.test.meter' AND id = 'power')";
      const points = db.prepare<[number], { t: number; v: number }>(`SELECT t, v FROM raw WHERE log = ${power} AND t >= ? ORDER BY t`).all(result.burstStart);
      const slots = points.map((p) => Math.floor(p.t / 100));
      expect(new Set(slots).size).toBe(points.length);
      expect(points.length).toBeLessThanOrEqual(Math.floor(result.burstEnd / 100) - Math.floor(result.burstStart / 100) + 1);
      expect(points.length).toBeLessThan(500);
      expect(points.at(-1)!.v).toBe(1499);
      const backfill = db
        .prepare<[number], { c: number }>(`SELECT count(*) AS c FROM raw WHERE log = ${power} AND t < ? AND v BETWEEN 101 AND 160`)
        .get(result.burstStart)!;
      expect(backfill.c).toBe(60);
    } finally {
      db.close();
    }
  });

  it('logs the cpu and memory of the running app under homey:manager:apps, titled by its name', async () => {
    // Sampled every 10 s: wait for the log of the app's memory to appear.
    const created = await events.next((f) => f.event === 'log.create' && (f.args[0] as Json).ownerId === 'com.test.meter.mem', 25_000);
    expect(created.args[0]).toMatchObject({ uri: 'homey:manager:apps', units: 'MB', title: `${METER_NAME} memory` });
    const update = await events.next((f) => f.event === 'log.update' && (f.args[0] as Json).ownerId === 'com.test.meter.mem', 5_000);
    expect((update.args[0] as Json).lastValue).toBeGreaterThan(5);
  }, 40_000);

  it('published log and logentryboolean events for what the app did', async () => {
    const created = await events.next((f) => f.event === 'logentryboolean.create' && (f.args[0] as Json).v === false, 10_000);
    expect(created.args[0]).toMatchObject({ log: 'homey:app:com.test.meter:door', uri: 'homey:app:com.test.meter' });
  });
});
