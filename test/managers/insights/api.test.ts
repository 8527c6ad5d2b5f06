/**
 * The insights API of a real hub (dist/): every operation with its scope, the hub's own logs
 * out of the box, every resolution over HTTP, the events over WebSocket, and a SIGKILLed hub
 * that restarts with its logs intact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOLUTIONS } from '../../../src/managers/insights/resolutions.js';
import { openEvents } from '../../helpers/events.js';
import { type RunningHub, startHub } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { SPEC } from '../../helpers/spec.js';

const P = '/api/manager/insights';
const RSS = 'homey:manager:system:rss';

interface Log {
  id: string;
  ownerId: string;
  uri: string;
  type: string;
  lastValue: number | null;
  lastUpdated: string | null;
}
interface Entries {
  id: string;
  uri: string;
  step: number;
  updatesIn: number;
  values: Array<{ t: string; v: number | null }>;
}

let hub: RunningHub;
let reader: string;
let writer: string;
let system: string;

async function token(scopes: string[]): Promise<string> {
  const res = await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: scopes.join('+'), scopes } });
  expect(res.status).toBeLessThan(300);
  return res.body.token;
}

beforeAll(async () => {
  hub = await startHub({ env: { HEARTH_TIME_ZONE: 'Europe/Amsterdam' } });
  reader = await token(['service.insights.readonly']);
  writer = await token(['service.insights']);
  system = await token(['service.system.readonly']);
  // The first sample is taken at start and committed within a second: wait for it.
  await poll(
    () => hub.call<Log>('GET', `${P}/log/${RSS}`, { token: reader }),
    (rss) => rss.status === 200 && rss.body.lastValue !== null,
    "the hub's first RSS sample",
    50,
    100,
  );
});
afterAll(() => hub.cleanup());

describe('insights over HTTP', () => {
  it('mounts the six seed operations with their ids and scopes, and GET /log/:uri/:id as an extension', async () => {
    const doc = (
      await hub.call<{ paths: Record<string, Record<string, { operationId: string; security: unknown; 'x-hearth-extension'?: boolean }>> }>(
        'GET',
        '/api/openapi.json',
        { token: null },
      )
    ).body;
    const ops = SPEC.operations.filter((o) => o.manager === 'insights');
    expect(ops).toHaveLength(6);
    for (const op of ops) {
      const entry = doc.paths[op.path.replace(/:([A-Za-z]+)/g, '{$1}')]?.[op.method.toLowerCase()];
      expect(entry?.operationId).toBe(op.operationId);
      expect(entry?.security).toEqual([{ bearer: [op.scope] }]);
    }
    expect(doc.paths[`${P}/log/{uri}/{id}`]?.get?.['x-hearth-extension']).toBe(true);
  });

  it('has the hub own logs out of the box, keyed by <uri>:<id>', async () => {
    const res = await hub.call<Record<string, Log>>('GET', `${P}/log`, { token: reader });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(
      expect.arrayContaining([RSS, 'homey:manager:system:eventLoopLag', 'homey:manager:system:cpu', 'homey:manager:system:load']),
    );
    expect(res.body[RSS]).toMatchObject({
      id: RSS,
      ownerId: 'rss',
      uri: 'homey:manager:system',
      type: 'number',
      units: 'MB',
      ownerUri: 'homey:manager:system',
    });
    expect(res.body[RSS]!.lastValue).toBeGreaterThan(10);
  });

  it('answers one log by key and by uri/id, and a JSON 404 for an unknown one', async () => {
    const byKey = await hub.call<Log>('GET', `${P}/log/${RSS}`, { token: reader });
    const byPath = await hub.call<Log>('GET', `${P}/log/homey:manager:system/rss`, { token: reader });
    expect(byKey.status).toBe(200);
    expect(byPath.body).toEqual(byKey.body);
    const missing = await hub.call<{ error: string; statusCode: number }>('GET', `${P}/log/homey:app:x:nothing`, { token: reader });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'not_found', statusCode: 404 });
  });

  it('answers getLogEntries for every resolution, last24Hours by default', async () => {
    const def = await hub.call<Entries>('GET', `${P}/log/homey:manager:system/rss/entry`, { token: reader });
    expect(def.status).toBe(200);
    expect(def.body).toMatchObject({ id: 'rss', uri: 'homey:manager:system', step: 300_000 });
    expect(def.body.values).toHaveLength(288);
    expect(def.body.values.at(-1)!.v).toBeGreaterThan(10);
    for (const resolution of RESOLUTIONS) {
      const res = await hub.call<Entries>('GET', `${P}/log/homey:manager:system/rss/entry?resolution=${resolution}`, { token: reader });
      expect(res.status, resolution).toBe(200);
      expect(res.body.values.length).toBeLessThanOrEqual(300);
      expect(res.body.values.length).toBe(
        Math.ceil((Date.parse((res.body as unknown as { end: string }).end) - Date.parse(res.body.values[0]!.t)) / res.body.step),
      );
      expect(
        res.body.values.some((v) => v.v !== null),
        resolution,
      ).toBe(!['yesterday', 'lastWeek', 'lastMonth', 'lastYear'].includes(resolution));
    }
    const bad = await hub.call<{ error: string; error_description: string }>('GET', `${P}/log/homey:manager:system/rss/entry?resolution=lastDecade`, {
      token: reader,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_parameter');
    expect(bad.body.error_description).toContain('lastHour, last6Hours, last24Hours');
  });

  it('needs service.insights to delete and service.system.readonly for the state', async () => {
    expect((await hub.call('DELETE', `${P}/log/homey:manager:system/cpu/entry`, { token: reader })).status).toBe(403);
    expect((await hub.call('DELETE', `${P}/log/homey:manager:system/cpu`, { token: reader })).status).toBe(403);
    expect((await hub.call('GET', `${P}/state`, { token: reader })).status).toBe(403);
    expect((await hub.call('GET', `${P}/log`, { token: system })).status).toBe(403);
    expect((await hub.call('GET', `${P}/log`, { token: writer })).status).toBe(200);
  });

  it('reports its state', async () => {
    const res = await hub.call<{ logs: number; entries: number; dbSizeBytes: number; oldestEntry: string; retention: unknown[] }>('GET', `${P}/state`, {
      token: system,
    });
    expect(res.status).toBe(200);
    expect(res.body.logs).toBeGreaterThanOrEqual(4);
    expect(res.body.entries).toBeGreaterThanOrEqual(4);
    expect(res.body.dbSizeBytes).toBeGreaterThan(0);
    expect(Date.parse(res.body.oldestEntry)).toBeLessThanOrEqual(Date.now());
    expect(res.body.retention).toHaveLength(5);
  });

  it('clears entries and deletes logs with their events; the hub brings its own logs back', async () => {
    const events = await openEvents(hub.wsUrl, 'insights', reader);
    try {
      const cleared = await hub.call<Log>('DELETE', `${P}/log/homey:manager:system/load/entry`, { token: writer });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ id: 'homey:manager:system:load', ownerId: 'load', lastValue: null, lastUpdated: null });
      const update = await events.next((f) => f.event === 'log.update' && (f.args[0] as Log).ownerId === 'load' && (f.args[0] as Log).lastValue === null);
      expect(update.args[1]).toMatchObject({ changedKeys: expect.arrayContaining(['lastValue', 'lastUpdated']) });

      const deleted = await hub.call('DELETE', `${P}/log/homey:manager:system/cpu`, { token: writer });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      const gone = await events.next((f) => f.event === 'log.delete');
      expect(gone.args[0]).toMatchObject({ id: 'homey:manager:system:cpu', ownerId: 'cpu', uri: 'homey:manager:system' });
      expect((await hub.call('GET', `${P}/log/homey:manager:system:cpu`, { token: reader })).status).toBe(404);
      // The next sample (every 10 s) creates it again.
      const back = await events.next((f) => f.event === 'log.create' && (f.args[0] as Log).ownerId === 'cpu', 25_000);
      expect(back.args[0]).toMatchObject({ id: 'homey:manager:system:cpu', ownerId: 'cpu', uri: 'homey:manager:system', lastValue: null });
    } finally {
      events.close();
    }
  }, 40_000);

  it('keeps its logs when the hub is killed with SIGKILL and restarted', async () => {
    const before = (await hub.call<Record<string, Log>>('GET', `${P}/log`, { token: reader })).body;
    await hub.kill('SIGKILL');
    const again = await startHub({ dataDir: hub.dataDir, appsDir: hub.appsDir });
    try {
      const after = (await again.call<Record<string, Log>>('GET', `${P}/log`)).body;
      expect(Object.keys(after)).toEqual(expect.arrayContaining(Object.keys(before)));
      expect(after[RSS]!.lastValue).toBeGreaterThan(10);
    } finally {
      await again.kill();
    }
  }, 40_000);
});
