/**
 * The insights service with a real SQLite file, a real event bus and the apps runtime's real
 * SDK router: logs, entries, every event, and the four SDK calls an app makes.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CallerApp, SdkRouter } from '../../../src/apps/host/router.js';
import { diff } from '../../../src/core/diff.js';
import { HearthError } from '../../../src/core/errors.js';
import { EventBus, type HubEvent } from '../../../src/core/events.js';
import { lastPointMoved, toLog } from '../../../src/managers/insights/log-views.js';
import { serveSdk } from '../../../src/managers/insights/sdk.js';
import { InsightsService } from '../../../src/managers/insights/service.js';
import { InsightsStorage, type LogRow } from '../../../src/managers/insights/storage.js';

const T0 = Date.parse('2026-06-15T10:00:00.000Z');
let dir: string;
let bus: EventBus;
let events: HubEvent[];
let clock: number;
let service: InsightsService;

function open(): InsightsService {
  const s = new InsightsService({ dataDir: dir, zone: 'Europe/Amsterdam', bus, log: pino({ level: 'silent' }), now: () => clock });
  s.start();
  return s;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-insights-svc-'));
  bus = new EventBus();
  events = [];
  bus.subscribe((e) => events.push(e));
  clock = T0;
  service = open();
});
afterEach(() => {
  service.stop();
  rmSync(dir, { recursive: true, force: true });
});

const named = (name: string): HubEvent[] => events.filter((e) => e.event === name);
const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return err instanceof HearthError ? err.code : String(err);
  }
  return 'no error';
};

describe('insights service', () => {
  it('creates a log once, updates its metadata in place, and refuses a type change', () => {
    const log = service.createLog('homey:app:com.example', 'temp', { title: { en: 'Temperature', nl: 'Temperatuur' }, units: '°C', decimals: 1 });
    expect(log).toEqual({
      id: 'homey:app:com.example:temp',
      ownerId: 'temp',
      uri: 'homey:app:com.example',
      title: 'Temperature',
      type: 'number',
      units: '°C',
      decimals: 1,
      titleTrue: null,
      titleFalse: null,
      lastValue: null,
      lastUpdated: null,
      ownerUri: 'homey:app:com.example',
    });
    expect(named('log.create').map((e) => e.args[0])).toEqual([log]);
    service.createLog('homey:app:com.example', 'temp', { title: 'Temperature', units: '°C', decimals: 1 });
    expect(named('log.update')).toHaveLength(0);
    service.createLog('homey:app:com.example', 'temp', { title: 'Temp', units: '°C', decimals: 2 });
    expect(named('log.update')[0]!.args[1]).toEqual({
      changedKeys: ['title', 'decimals'],
      oldValues: { title: 'Temperature', decimals: 1 },
      newValues: { title: 'Temp', decimals: 2 },
    });
    expect(code(() => service.createLog('homey:app:com.example', 'temp', { title: 'x', type: 'boolean' }))).toBe('conflict');
    expect(code(() => service.createLog('homey:app:com.example', 'bad/id', { title: 'x' }))).toBe('invalid_parameter');
    expect(Object.keys(service.getLogs())).toEqual(['homey:app:com.example:temp']);
  });

  it('validates entries by the log type and date', () => {
    service.createLog('homey:app:a', 'n', { title: 'n' });
    service.createLog('homey:app:a', 'b', { title: 'b', type: 'boolean' });
    expect(code(() => service.createEntry('homey:app:a:n', true))).toBe('invalid_parameter');
    expect(code(() => service.createEntry('homey:app:a:n', Number.NaN))).toBe('invalid_parameter');
    expect(code(() => service.createEntry('homey:app:a:b', 1))).toBe('invalid_parameter');
    expect(code(() => service.createEntry('homey:app:a:n', 1, 'yesterday'))).toBe('invalid_parameter');
    expect(code(() => service.createEntry('homey:app:a:n', 1, new Date(T0 + 3_600_000)))).toBe('invalid_parameter');
    expect(code(() => service.createEntry('homey:app:a:missing', 1))).toBe('not_found');
    expect(code(() => service.createEntry('homey:app:a:n', 1, new Date(T0 - 1000)))).toBe('no error');
  });

  it('commits entries, updates the log and answers them through getLogEntries', () => {
    service.createLog('homey:app:a', 'n', { title: 'n', decimals: 1 });
    for (let i = 0; i < 10; i++) service.createEntry('homey:app:a:n', 20 + i / 7, new Date(T0 - 600_000 + i * 60_000));
    const answer = service.entries('homey:app:a:n', undefined);
    expect(answer.step).toBe(300_000);
    expect(answer.values).toHaveLength(288);
    const filled = answer.values.filter((v) => v.v !== null);
    expect(filled.map((v) => v.t)).toEqual(['2026-06-15T09:50:00.000Z', '2026-06-15T09:55:00.000Z']);
    expect(filled.map((v) => v.v)).toEqual([20.3, 21]);
    expect(answer).toMatchObject({ lastValue: 21.3, min: 20, max: 21.3 });
    expect(service.getLog('homey:app:a:n')).toMatchObject({ lastValue: 21.3, lastUpdated: '2026-06-15T09:59:00.000Z' });
    expect(named('log.update').at(-1)!.args[1]).toMatchObject({ changedKeys: ['lastValue', 'lastUpdated'] });
    expect(code(() => service.entries('homey:app:a:n', 'lastDecade'))).toBe('invalid_parameter');
  });

  it("says in a commit's log.update what diff() of the log's views before and after says, and each event keeps what it showed", () => {
    const row = (type: 'number' | 'boolean', decimals: number | null, lastValue: number | null, lastUpdated: number | null): LogRow => ({
      row: 1,
      id: 'n',
      uri: 'homey:app:a',
      ownerUri: 'homey:app:a',
      title: 'n',
      type,
      units: null,
      decimals,
      titleTrue: null,
      titleFalse: null,
      lastValue,
      lastUpdated,
    });
    const moves: Array<[LogRow, number, number]> = [
      [row('number', null, null, null), 1, T0],
      [row('number', 1, 20.01, T0), 20.02, T0 + 1000], // the same as shown (one decimal): only the time
      [row('number', 1, 20.01, T0), 20.2, T0], // the same time, another value
      [row('number', 2, 20.01, T0), 20.01, T0], // nothing
      [row('number', null, 0, T0), -0, T0 + 1],
      [row('boolean', null, 1, T0), 2, T0 + 1], // both true
      [row('boolean', null, 1, T0), 0, T0],
    ];
    for (const [before, v, t] of moves) {
      expect(lastPointMoved(before, v, t)).toEqual(diff(toLog(before), toLog({ ...before, lastValue: v, lastUpdated: t })));
    }
    // The row is moved in place: an event already published keeps the view it carried.
    service.createLog('homey:app:a', 'm', { title: 'm' });
    service.createEntry('homey:app:a:m', 1, new Date(T0 - 60_000));
    service.entries('homey:app:a:m', undefined);
    service.createEntry('homey:app:a:m', 2, new Date(T0 - 30_000));
    service.entries('homey:app:a:m', undefined);
    expect(
      named('log.update').map((e) => [(e.args[0] as { lastValue: number }).lastValue, (e.args[1] as { newValues: { lastValue: number } }).newValues.lastValue]),
    ).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it("keeps a log's last value as the database does: a point older than the last one leaves it, across a restart", () => {
    service.createLog('homey:app:a', 'n', { title: 'n' });
    const key = 'homey:app:a:n';
    service.createEntry(key, 5, new Date(T0 - 60_000));
    // Two in one commit, the newer first: the newer is the last value.
    service.createEntry(key, 6, new Date(T0 - 30_000));
    service.createEntry(key, 7, new Date(T0 - 40_000));
    service.entries(key, undefined);
    expect(service.getLog(key)).toMatchObject({ lastValue: 6, lastUpdated: '2026-06-15T09:59:30.000Z' });
    // A backfill older than the last value, in a commit of its own.
    service.createEntry(key, 9, new Date(T0 - 120_000));
    service.entries(key, undefined);
    const answered = service.getLog(key);
    expect(answered).toMatchObject({ lastValue: 6, lastUpdated: '2026-06-15T09:59:30.000Z' });
    // One update, for the first commit: the backfill changed nothing a client sees.
    expect(named('log.update').filter((e) => (e.args[0] as { id: string }).id === key)).toHaveLength(1);
    service.stop();
    service = open();
    expect(service.getLog(key)).toEqual(answered);
  });

  it('publishes logentryboolean create, update and delete for boolean logs', () => {
    service.createLog('homey:app:a', 'door', { title: 'Door', type: 'boolean', titleTrue: 'Open', titleFalse: 'Closed' });
    service.createEntry('homey:app:a:door', true, new Date(T0 - 5000));
    service.flush();
    const created = named('logentryboolean.create');
    expect(created.map((e) => e.args[0])).toEqual([
      { id: 'homey:app:a:door@2026-06-15T09:59:55.000Z', log: 'homey:app:a:door', uri: 'homey:app:a', t: '2026-06-15T09:59:55.000Z', v: true },
    ]);
    service.createEntry('homey:app:a:door', false, new Date(T0 - 5000));
    service.flush();
    const updated = named('logentryboolean.update');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.args).toEqual([
      { id: 'homey:app:a:door@2026-06-15T09:59:55.000Z', log: 'homey:app:a:door', uri: 'homey:app:a', t: '2026-06-15T09:59:55.000Z', v: false },
      { changedKeys: ['v'], oldValues: { v: true }, newValues: { v: false } },
    ]);
    const cleared = service.deleteEntries('homey:app:a:door');
    expect(cleared).toMatchObject({ lastValue: null, lastUpdated: null });
    expect(named('logentryboolean.delete').map((e) => e.args[0])).toEqual([
      { id: 'homey:app:a:door@*', log: 'homey:app:a:door', uri: 'homey:app:a', t: null, v: null },
    ]);
    expect(service.entries('homey:app:a:door', 'lastHour').values.every((v) => v.v === null)).toBe(true);
  });

  it('deletes a log with its entries, and keeps everything across a restart', () => {
    service.createLog('homey:app:a', 'keep', { title: 'keep' });
    service.createLog('homey:app:a', 'gone', { title: 'gone' });
    service.createEntry('homey:app:a:keep', 5, new Date(T0 - 1000));
    service.createEntry('homey:app:a:gone', 6, new Date(T0 - 1000));
    service.deleteLog('homey:app:a:gone');
    expect(named('log.delete').map((e) => (e.args[0] as { id: string }).id)).toEqual(['homey:app:a:gone']);
    expect(code(() => service.getLog('homey:app:a:gone'))).toBe('not_found');
    service.stop();
    service = open();
    expect(Object.keys(service.getLogs())).toEqual(['homey:app:a:keep']);
    expect(service.getLog('homey:app:a:keep').lastValue).toBe(5);
    const state = service.state();
    expect(state).toMatchObject({ logs: 1, entries: 1, oldestEntry: '2026-06-15T09:59:59.000Z' });
    expect(state.retention.map((r) => r.level)).toEqual(['raw', '1m', '5m', '1h', '1d']);
    expect(state.dbSizeBytes).toBeGreaterThan(0);
  });

  it('copies a consistent snapshot with queued entries committed first', async () => {
    service.createLog('homey:app:a', 'n', { title: 'n' });
    service.createEntry('homey:app:a:n', 4, new Date(T0 - 1000));
    const dest = join(dir, 'copy.db');
    await service.backup(dest);
    const copy = InsightsStorage.open(dest);
    try {
      expect(copy.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.listLogs()).toEqual([expect.objectContaining({ id: 'n', lastValue: 4 })]);
    } finally {
      copy.close();
    }
  });

  it('moves an unreadable database aside and starts a new one', () => {
    service.createLog('homey:app:a', 'n', { title: 'n' });
    service.stop();
    writeFileSync(join(dir, 'insights.db'), Buffer.alloc(8192, 0x5a));
    rmSync(join(dir, 'insights.db-wal'), { force: true });
    service = open();
    expect(service.getLogs()).toEqual({});
    service.createLog('homey:app:a', 'again', { title: 'again' });
    expect(readdirSync(dir).filter((f) => f.startsWith('insights.db.corrupt-'))).toHaveLength(1);
  });

  it('serves the SDK calls of an app, scoped to the app own logs', async () => {
    const router = new SdkRouter();
    const off = serveSdk(router, service);
    // Insights needs no permission.
    const app: CallerApp = { id: 'com.example', uri: 'homey:app:com.example', version: '1.0.0', permissions: [] };
    const other: CallerApp = { ...app, id: 'org.other', uri: 'homey:app:org.other' };
    const log = await router.dispatch(app, 'insights.createLog', { id: 'power', options: { title: 'Power', units: 'W', decimals: 0 } });
    expect(log).toMatchObject({ id: 'power', uri: 'homey:app:com.example', units: 'W' });
    await router.dispatch(app, 'insights.createEntry', { id: 'power', value: 1234, date: new Date(T0 - 2000).toISOString() });
    expect(await router.dispatch(other, 'insights.getLogs', {})).toEqual([]);
    await expect(router.dispatch(other, 'insights.createEntry', { id: 'power', value: 1 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(router.dispatch(other, 'insights.getLog', { id: 'power' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(router.dispatch(other, 'insights.deleteLog', { id: 'power' })).rejects.toMatchObject({ code: 'not_found' });
    service.flush();
    expect(await router.dispatch(app, 'insights.getLogs', {})).toEqual([expect.objectContaining({ id: 'power', lastValue: 1234 })]);
    expect(await router.dispatch(app, 'insights.getLog', { id: 'power' })).toMatchObject({ id: 'power', uri: 'homey:app:com.example', lastValue: 1234 });
    await router.dispatch(app, 'insights.deleteLog', { id: 'power' });
    expect(service.getLogs()).toEqual({});
    off();
    expect(router.has('insights.createLog')).toBe(false);
  });
});
