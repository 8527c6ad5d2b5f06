/**
 * Dashboards on a real hub with the fixture app installed: every dashboard operation, the
 * validation errors, the events on the dashboards namespace (with the update `info`), widget
 * stores following the widgets on dashboards, the state counts, and durability across a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventClient, type EventFrame, openEvents } from '../../helpers/events.js';
import { startHub } from '../../helpers/hub.js';
import { BASE, body, CLOCK, type DashboardView, type ErrorBody, NOTE, OWNER, startWithApp, type TestHub, waitAppRunning, widgetIds } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestHub;
let events: EventClient;

beforeAll(async () => {
  t = await startWithApp();
  events = await openEvents(t.hub.wsUrl, 'dashboards', OWNER);
});
afterAll(async () => {
  events?.close();
  await t?.close();
});

const create = (b: unknown) => t.hub.call<DashboardView>('POST', `${BASE}/dashboard`, { body: b });
const update = (id: string, b: unknown) => t.hub.call<DashboardView>('PUT', `${BASE}/dashboard/${id}`, { body: b });
const error = async (p: Promise<{ status: number; body: unknown }>) => {
  const r = await p;
  return { status: r.status, ...(r.body as ErrorBody) };
};
/** Frames about one of `ids` (dashboard or widget store ids), in arrival order. */
const framesAbout = (ids: string[]): EventFrame[] => events.frames.filter((f) => ids.includes((f.args[0] as { id: string }).id));

describe('getDashboards while a change is being written', () => {
  // Reads see what is on disk; a list asked for while a change is written shows the dashboards
  // before it, and must not be what later reads get once the change is on disk.
  it('lists every dashboard whose create has answered, however reads and writes interleave', async () => {
    const lost: string[] = [];
    for (let i = 0; i < 20; i++) {
      let done = false;
      const made = create(body(`Interleaved ${i}`, [CLOCK], [])).finally(() => (done = true));
      while (!done) await t.hub.call('GET', `${BASE}/dashboard`);
      const { body: createdBody } = await made;
      const listed = (await t.hub.call<Record<string, DashboardView>>('GET', `${BASE}/dashboard`)).body;
      if (!listed[createdBody.id]) lost.push(createdBody.name);
    }
    expect(lost).toEqual([]);
  });
});

describe('createDashboard', () => {
  it('answers 201 with the dashboard, filling missing column and widget ids with uuids', async () => {
    const r = await create(body('Living room', [CLOCK, NOTE], []));
    expect(r.status).toBe(201);
    expect(r.body.id).toMatch(UUID);
    expect(r.body.name).toBe('Living room');
    expect(r.body.columns).toHaveLength(2);
    expect(r.body.columns[0]!.id).toMatch(UUID);
    expect(r.body.columns[0]!.widgets.map((w) => w.appWidgetId)).toEqual([CLOCK, NOTE]);
    for (const id of widgetIds(r.body)) expect(id).toMatch(UUID);
    expect(r.body.columns[1]).toEqual({ id: r.body.columns[1]!.id, widgets: [] });
    expect((await t.hub.call('GET', `${BASE}/dashboard/${r.body.id}`)).body).toEqual(r.body);
  });

  it('accepts the body wrapped as {"dashboard": {...}} and keeps ids, settings and height it is given', async () => {
    const r = await create({
      dashboard: {
        name: 'Kitchen',
        columns: [{ id: 'col-a', widgets: [{ id: 'kitchen-clock', appWidgetId: CLOCK, settings: { seconds: true }, height: 200 }] }],
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.columns).toEqual([{ id: 'col-a', widgets: [{ id: 'kitchen-clock', appWidgetId: CLOCK, settings: { seconds: true }, height: 200 }] }]);
  });

  it('publishes dashboard.create, then a widgetstore.create per widget', async () => {
    const r = await create(body('Events', [CLOCK], [NOTE]));
    const [w1, w2] = widgetIds(r.body);
    await events.next((f) => f.event === 'widgetstore.create' && (f.args[0] as { id: string }).id === w2);
    const frames = framesAbout([r.body.id, w1!, w2!]);
    expect(frames.map((f) => f.event)).toEqual(['dashboard.create', 'widgetstore.create', 'widgetstore.create']);
    expect(frames[0]!.args).toEqual([r.body]);
    expect(frames[1]!.args).toEqual([{ id: w1, ownerUri: 'homey:app:com.test.widgets', state: {} }]);
  });

  it('refuses bad dashboards with a 400 naming the problem', async () => {
    const long = 'x'.repeat(101);
    const cases: Array<[unknown, RegExp]> = [
      [{ columns: [] }, /'name' is required/],
      [{ name: 'No columns' }, /'columns' is required/],
      [{ name: '', columns: [] }, /name.*must not be empty/],
      [{ name: '   ', columns: [] }, /name.*must not be empty/],
      [{ name: long, columns: [] }, /at most 100 characters/],
      [{ name: 'Wide', columns: Array.from({ length: 21 }, () => ({ widgets: [] })) }, /at most 20 columns/],
      [
        body(
          'Tall',
          Array.from({ length: 101 }, () => NOTE),
        ),
        /at most 100 widgets/,
      ],
      [body('Unknown widget', ['com.test.widgets:nope']), /app widget 'com\.test\.widgets:nope' does not exist/],
      [body('Unknown app', ['com.nobody.here:clock']), /app widget 'com\.nobody\.here:clock' does not exist/],
      [body('Bad id', ['no-colon']), /columns\.0\.widgets\.0\.appWidgetId/],
      [{ ...body('Extra', []), owner: 'me' }, /'owner' is not allowed/],
      [{ name: 'Extra widget field', columns: [{ widgets: [{ appWidgetId: CLOCK, colour: 'red' }] }] }, /'columns\.0\.widgets\.0\.colour' is not allowed/],
      [
        {
          name: 'Twice',
          columns: [
            {
              widgets: [
                { id: 'same', appWidgetId: CLOCK },
                { id: 'same', appWidgetId: NOTE },
              ],
            },
          ],
        },
        /widget id 'same' is used twice/,
      ],
      [
        {
          name: 'Twice',
          columns: [
            { id: 'c', widgets: [] },
            { id: 'c', widgets: [] },
          ],
        },
        /column id 'c' is used twice/,
      ],
      [{ name: 'Stolen', columns: [{ widgets: [{ id: 'kitchen-clock', appWidgetId: CLOCK }] }] }, /widget id 'kitchen-clock' is used by dashboard/],
      [{ name: 'Bad height', columns: [{ widgets: [{ appWidgetId: CLOCK, height: -5 }] }] }, /height/],
      [{ name: 'Big settings', columns: [{ widgets: [{ appWidgetId: CLOCK, settings: { blob: 'x'.repeat(17_000) } }] }] }, /larger than 16 KiB/],
      [
        { name: 'Word in a checkbox', columns: [{ widgets: [{ appWidgetId: CLOCK, settings: { seconds: 'yes' } }] }] },
        /'columns\.0\.widgets\.0\.settings\.seconds': setting 'Show seconds' \(seconds\) is a checkbox: send true or false/,
      ],
    ];
    const before = (await t.hub.call<Record<string, unknown>>('GET', `${BASE}/dashboard`)).body;
    for (const [b, message] of cases) {
      const e = await error(create(b));
      expect({ b, status: e.status, error: e.error }).toEqual({ b, status: 400, error: 'invalid_parameter' });
      expect(e.error_description).toMatch(message);
    }
    // Nothing was half-created.
    expect((await t.hub.call('GET', `${BASE}/dashboard`)).body).toEqual(before);
  });

  it('refuses malformed JSON, a non-object body and an id that is taken', async () => {
    expect(await error(t.hub.call('POST', `${BASE}/dashboard`, { rawBody: '{"name": ', headers: { 'content-type': 'application/json' } }))).toMatchObject({
      status: 400,
      error: 'invalid_json',
    });
    expect((await create([1, 2])).status).toBe(400);
    const first = await create({ id: 'fixed-id', ...body('Fixed', []) });
    expect(first.status).toBe(201);
    expect(first.body.id).toBe('fixed-id');
    expect(await error(create({ id: 'fixed-id', ...body('Again', []) }))).toMatchObject({ status: 409, error: 'conflict' });
  });
});

describe('concurrent writes', () => {
  it('lets exactly one of many racing creates claim a widget id', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => create({ name: `Race ${i}`, columns: [{ widgets: [{ id: 'contested', appWidgetId: CLOCK }] }] })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(9);
    const stores = (await t.hub.call<Record<string, unknown>>('GET', `${BASE}/widgetstore`)).body;
    expect(stores.contested).toEqual({ id: 'contested', ownerUri: 'homey:app:com.test.widgets', state: {} });
  });
});

describe('getDashboards / getDashboard', () => {
  it('lists dashboards keyed by id; 404 for an unknown one', async () => {
    const a = await create(body('Listed', [NOTE]));
    const all = await t.hub.call<Record<string, DashboardView>>('GET', `${BASE}/dashboard/`);
    expect(all.status).toBe(200);
    expect(all.body[a.body.id]).toEqual(a.body);
    for (const [id, d] of Object.entries(all.body)) expect(d.id).toBe(id);
    expect(await error(t.hub.call('GET', `${BASE}/dashboard/does-not-exist`))).toMatchObject({ status: 404, error: 'not_found' });
  });
});

describe('updateDashboard', () => {
  it('changes only the name when only the name is sent, and publishes the diff', async () => {
    const d = (await create(body('Old name', [CLOCK]))).body;
    const r = await update(d.id, { name: 'New name' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...d, name: 'New name' });
    const frame = await events.next((f) => f.event === 'dashboard.update' && (f.args[0] as DashboardView).id === d.id);
    expect(frame.args).toEqual([r.body, { changedKeys: ['name'], oldValues: { name: 'Old name' }, newValues: { name: 'New name' } }]);
    expect((await t.hub.call('GET', `${BASE}/dashboard/${d.id}`)).body).toEqual(r.body);
  });

  it('replaces the columns, keeping ids sent back, and moves the widget stores with the widgets', async () => {
    const d = (await create(body('Edited', [CLOCK, NOTE]))).body;
    const [keep, drop] = widgetIds(d);
    const columns = [{ id: d.columns[0]!.id, widgets: [d.columns[0]!.widgets[0]!, { appWidgetId: NOTE, settings: { text: 'hi' } }] }];
    const r = await update(d.id, { dashboard: { columns } });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('Edited');
    const [kept, added] = widgetIds(r.body);
    expect(kept).toBe(keep);
    expect(added).not.toBe(drop);
    await events.next((f) => f.event === 'widgetstore.create' && (f.args[0] as { id: string }).id === added);
    const frames = framesAbout([d.id, drop!, added!]).filter((f) => f.event !== 'widgetstore.create' || (f.args[0] as { id: string }).id === added);
    expect(frames.map((f) => f.event).slice(-3)).toEqual(['dashboard.update', 'widgetstore.delete', 'widgetstore.create']);
    const info = frames.at(-3)!.args[1] as { changedKeys: string[]; oldValues: Record<string, unknown>; newValues: Record<string, unknown> };
    expect(info.changedKeys).toEqual(['columns']);
    expect(info.oldValues).toEqual({ columns: d.columns });
    expect(info.newValues).toEqual({ columns: r.body.columns });
    const stores = (await t.hub.call<Record<string, unknown>>('GET', `${BASE}/widgetstore`)).body;
    expect(Object.keys(stores)).toContain(keep);
    expect(Object.keys(stores)).toContain(added);
    expect(Object.keys(stores)).not.toContain(drop);
  });

  it('accepts the dashboard sent back as it was answered, and publishes nothing when nothing changed', async () => {
    const d = (await create(body('Round trip', [CLOCK]))).body;
    const r = await update(d.id, d);
    expect(r.body).toEqual(d);
    await update(d.id, { name: 'Round trip 2' });
    await events.next((f) => f.event === 'dashboard.update' && (f.args[0] as DashboardView).name === 'Round trip 2');
    expect(framesAbout([d.id]).map((f) => f.event)).toEqual(['dashboard.create', 'dashboard.update']);
  });

  it('refuses bad updates with 400, an unknown dashboard with 404', async () => {
    const d = (await create(body('Strict', [CLOCK]))).body;
    expect(await error(update(d.id, { name: '' }))).toMatchObject({ status: 400, error: 'invalid_parameter' });
    expect((await error(update(d.id, { title: 'x' }))).error_description).toMatch(/'title' is not allowed/);
    expect((await error(update(d.id, { id: 'other', name: 'x' }))).error_description).toMatch(/ids cannot change/);
    expect((await error(update(d.id, body('x', ['com.test.widgets:gone'])))).error_description).toMatch(/does not exist/);
    expect(await error(update('does-not-exist', { name: 'x' }))).toMatchObject({ status: 404, error: 'not_found' });
    expect((await t.hub.call('GET', `${BASE}/dashboard/${d.id}`)).body).toEqual(d);
  });
});

describe('deleteDashboard', () => {
  it('answers 204, publishes dashboard.delete and removes the widget stores of its widgets', async () => {
    const d = (await create(body('Doomed', [CLOCK], [NOTE]))).body;
    const ids = widgetIds(d);
    const r = await t.hub.call('DELETE', `${BASE}/dashboard/${d.id}`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    await events.next((f) => f.event === 'widgetstore.delete' && (f.args[0] as { id: string }).id === ids[1]);
    expect(framesAbout([d.id, ...ids]).map((f) => f.event)).toEqual([
      'dashboard.create',
      'widgetstore.create',
      'widgetstore.create',
      'dashboard.delete',
      'widgetstore.delete',
      'widgetstore.delete',
    ]);
    expect((await t.hub.call('GET', `${BASE}/dashboard/${d.id}`)).status).toBe(404);
    for (const id of ids) expect((await t.hub.call('GET', `${BASE}/widgetstore/${id}`)).status).toBe(404);
    expect(await error(t.hub.call('DELETE', `${BASE}/dashboard/${d.id}`))).toMatchObject({ status: 404, error: 'not_found' });
  });
});

describe('getState', () => {
  it('counts dashboards, widgets, widget stores and app widgets', async () => {
    const all = (await t.hub.call<Record<string, DashboardView>>('GET', `${BASE}/dashboard`)).body;
    const widgets = Object.values(all).reduce((n, d) => n + widgetIds(d).length, 0);
    const stores = (await t.hub.call<Record<string, unknown>>('GET', `${BASE}/widgetstore`)).body;
    const r = await t.hub.call('GET', `${BASE}/state`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      dashboards: Object.keys(all).length,
      widgets,
      widgetStores: Object.keys(stores).length,
      appWidgets: 2,
      appWidgetsNotRunning: 0,
      missingWidgets: 0,
    });
    expect(widgets).toBe(Object.keys(stores).length);
  });

  it('counts the app widgets whose app is not running', async () => {
    expect((await t.hub.call('PUT', '/api/manager/apps/app/com.test.widgets/disable')).status).toBe(200);
    try {
      expect((await t.hub.call('GET', `${BASE}/state`)).body).toMatchObject({ appWidgets: 2, appWidgetsNotRunning: 2 });
    } finally {
      expect((await t.hub.call('PUT', '/api/manager/apps/app/com.test.widgets/enable')).status).toBe(200);
      await waitAppRunning(t.hub, 'com.test.widgets');
    }
    expect((await t.hub.call('GET', `${BASE}/state`)).body).toMatchObject({ appWidgetsNotRunning: 0 });
  });
});

describe('durability', () => {
  it('keeps dashboards and widget stores across a hub restart', async () => {
    const d = (await create(body('Survivor', [CLOCK]))).body;
    const [w] = widgetIds(d);
    await t.hub.call('POST', `${BASE}/widgetstore/${w}/state`, { body: { state: { kept: true } } });
    const dashboards = (await t.hub.call('GET', `${BASE}/dashboard`)).body;
    const stores = (await t.hub.call('GET', `${BASE}/widgetstore`)).body;
    // SIGKILL: a 2xx answer means the change is on disk already.
    await t.hub.kill('SIGKILL');
    const again = await startHub({ dataDir: t.hub.dataDir, appsDir: t.appsDir });
    try {
      expect((await again.call('GET', `${BASE}/dashboard`)).body).toEqual(dashboards);
      expect((await again.call('GET', `${BASE}/widgetstore`)).body).toEqual(stores);
      expect((await again.call('GET', `${BASE}/widgetstore/${w}/state`)).body).toEqual({ kept: true });
    } finally {
      await again.kill();
    }
  });
});
