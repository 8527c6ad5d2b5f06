/**
 * Widget store state on a real hub: merge and replace over HTTP with widgetstore.update events,
 * the 64 KiB bound, input errors. (Apps have no SDK call for widget stores: Homey's SDK has none.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventClient, openEvents } from '../../helpers/events.js';
import { BASE, body, CLOCK, type DashboardView, type ErrorBody, NOTE, OWNER, startWithApp, type TestHub, widgetIds } from './helpers.js';

let t: TestHub;
let events: EventClient;
let storeA: string;
let storeB: string;

beforeAll(async () => {
  t = await startWithApp();
  events = await openEvents(t.hub.wsUrl, 'dashboards', OWNER);
  const d = await t.hub.call<DashboardView>('POST', `${BASE}/dashboard`, { body: body('Stores', [CLOCK, NOTE]) });
  [storeA, storeB] = widgetIds(d.body) as [string, string];
});
afterAll(async () => {
  events?.close();
  await t?.close();
});

const setState = (id: string, b: unknown, token?: string) =>
  t.hub.call<Record<string, unknown>>('POST', `${BASE}/widgetstore/${id}/state`, { body: b, ...(token ? { token } : {}) });
const getState = async (id: string) => (await t.hub.call<Record<string, unknown>>('GET', `${BASE}/widgetstore/${id}/state`)).body;

describe('widget stores over HTTP', () => {
  it('lists the stores keyed by widget id, each owned by its app with an empty state', async () => {
    const all = await t.hub.call<Record<string, unknown>>('GET', `${BASE}/widgetstore/`);
    expect(all.status).toBe(200);
    expect(all.body[storeA]).toEqual({ id: storeA, ownerUri: 'homey:app:com.test.widgets', state: {} });
    expect((await t.hub.call('GET', `${BASE}/widgetstore/${storeB}`)).body).toEqual({ id: storeB, ownerUri: 'homey:app:com.test.widgets', state: {} });
    expect(await getState(storeA)).toEqual({});
    for (const path of ['/widgetstore/nope', '/widgetstore/nope/state']) {
      const r = await t.hub.call<ErrorBody>('GET', `${BASE}${path}`);
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('not_found');
    }
    expect((await setState('nope', { state: {} })).status).toBe(404);
  });

  it('merges state by default and publishes widgetstore.update with the diff', async () => {
    const first = await setState(storeA, { state: { city: 'Paris', zoom: 3 } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ city: 'Paris', zoom: 3 });
    const second = await setState(storeA, { state: { zoom: 4, nested: { a: [1, 2] } } });
    expect(second.body).toEqual({ city: 'Paris', zoom: 4, nested: { a: [1, 2] } });
    expect(await getState(storeA)).toEqual(second.body);
    await events.next((f) => f.event === 'widgetstore.update' && JSON.stringify(f.args[0]).includes('"zoom":4'));
    const updates = events.frames.filter((f) => f.event === 'widgetstore.update' && (f.args[0] as { id: string }).id === storeA);
    expect(updates).toHaveLength(2);
    expect(updates[1]!.args).toEqual([
      { id: storeA, ownerUri: 'homey:app:com.test.widgets', state: second.body },
      { changedKeys: ['state'], oldValues: { state: first.body }, newValues: { state: second.body } },
    ]);
  });

  it('replaces the state with replace: true, and publishes nothing for a write that changes nothing', async () => {
    const r = await setState(storeB, { state: { only: 'this' }, replace: true });
    expect(r.body).toEqual({ only: 'this' });
    await setState(storeB, { state: { gone: true } });
    const replaced = await setState(storeB, { state: { only: 'that' }, replace: true });
    expect(replaced.body).toEqual({ only: 'that' });
    await setState(storeB, { state: { only: 'that' } });
    await setState(storeB, { state: {}, replace: true });
    expect(await getState(storeB)).toEqual({});
    await events.next(
      (f) =>
        f.event === 'widgetstore.update' &&
        (f.args[0] as { id: string; state: object }).id === storeB &&
        JSON.stringify((f.args[0] as { state: object }).state) === '{}',
    );
    const states = events.frames
      .filter((f) => f.event === 'widgetstore.update' && (f.args[0] as { id: string }).id === storeB)
      .map((f) => (f.args[0] as { state: unknown }).state);
    expect(states).toEqual([{ only: 'this' }, { only: 'this', gone: true }, { only: 'that' }, {}]);
  });

  it('refuses a state beyond 64 KiB with 400 and keeps the old one', async () => {
    await setState(storeB, { state: { keep: 1 }, replace: true });
    const big = await setState(storeB, { state: { blob: 'x'.repeat(70_000) } });
    expect(big.status).toBe(400);
    expect((big.body as unknown as ErrorBody).error_description).toMatch(/limit is 65536/);
    // Each half fits; merged they do not.
    expect((await setState(storeB, { state: { a: 'x'.repeat(40_000) } })).status).toBe(200);
    expect((await setState(storeB, { state: { b: 'x'.repeat(40_000) } })).status).toBe(400);
    expect(Object.keys(await getState(storeB)).sort()).toEqual(['a', 'keep']);
  });

  it('loses no key when many merges race, and publishes one update per write', async () => {
    await setState(storeB, { state: {}, replace: true });
    const before = events.frames.length;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => setState(storeB, { state: { [`k${i}`]: i } })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const expected = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i]));
    expect(await getState(storeB)).toEqual(expected);
    await events.next((f) => f.event === 'widgetstore.update' && Object.keys((f.args[0] as { state: object }).state).length === 20);
    const updates = events.frames.slice(before).filter((f) => f.event === 'widgetstore.update');
    expect(updates).toHaveLength(20);
    // Each event's info is its own write: exactly one key appears.
    for (const u of updates) {
      const info = u.args[1] as { oldValues: { state: object }; newValues: { state: object } };
      expect(Object.keys(info.newValues.state).length - Object.keys(info.oldValues.state).length).toBe(1);
    }
  });

  it('refuses malformed bodies with 400', async () => {
    for (const b of [{}, { state: [1] }, { state: 'x' }, { state: {}, replace: 'yes' }, { state: {}, extra: 1 }]) {
      const r = await setState(storeA, b);
      expect({ b, status: r.status }).toEqual({ b, status: 400 });
    }
  });

  it('lets a token holding only service.dashboard.readonly set state (the contract says so)', async () => {
    const tok = await t.hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'reader', scopes: ['service.dashboard.readonly'] } });
    const r = await setState(storeA, { state: { reader: true } }, tok.body.token);
    expect(r.status).toBe(200);
    expect(r.body.reader).toBe(true);
  });
});
