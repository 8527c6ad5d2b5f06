/**
 * App widgets on a real hub: derived from installed apps' manifests, named in the hub's
 * language, and followed through store install, upgrade and uninstall with appwidget events;
 * a dashboard keeps a widget whose app went away and shows it as missing.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packApp } from '../../../src/apps/catalogue/pack.js';
import { type EventClient, type EventFrame, openEvents } from '../../helpers/events.js';
import { tempDir } from '../../helpers/hub.js';
import { BASE, body, CLOCK, copyFixture, type DashboardView, NOTE, OWNER, startWithApp, type TestHub, waitAppRunning, widgetIds } from './helpers.js';

const EXTRA = 'com.test.extra';
const GAUGE = `${EXTRA}:gauge`;
const METER = `${EXTRA}:meter`;
const DIAL = `${EXTRA}:dial`;

let t: TestHub;
let events: EventClient;
let srcDir: string;

beforeAll(async () => {
  t = await startWithApp();
  srcDir = await tempDir('hearth-dash-src-');
  events = await openEvents(t.hub.wsUrl, 'dashboards', OWNER);
});
afterAll(async () => {
  events?.close();
  await t?.close();
  if (srcDir) await rm(srcDir, { recursive: true, force: true });
});

const SETTINGS = (ids: string[]) => ids.map((id) => expect.objectContaining({ id }));
const appWidgetFrames = (): EventFrame[] => events.frames.filter((f) => f.event.startsWith('appwidget.'));
const summary = (frames: EventFrame[]) => frames.map((f) => `${f.event} ${(f.args[0] as { id: string }).id}`);

/** Packs the extra app at `version` with `widgets` into the hub's store and installs it. */
async function installExtra(version: string, widgets: Record<string, unknown>): Promise<void> {
  const folder = await copyFixture(srcDir, EXTRA, { version, name: { en: 'Extra' }, widgets });
  await packApp(folder, join(t.hub.dataDir, 'store'));
  await rm(folder, { recursive: true, force: true });
  const r = await t.hub.call<{ version: string }>('POST', '/api/manager/apps/store/', { body: { id: EXTRA } });
  expect(r.status).toBe(200);
  expect(r.body.version).toBe(version);
}

describe('getAppWidgets / getAppWidget', () => {
  it("lists the installed apps' widgets with their owner, settings and layout fields", async () => {
    const r = await t.hub.call<Record<string, Record<string, unknown>>>('GET', `${BASE}/appwidget/`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([CLOCK, NOTE]);
    expect(r.body[NOTE]).toEqual({
      id: NOTE,
      ownerId: 'com.test.widgets',
      ownerUri: 'homey:app:com.test.widgets',
      ownerName: 'Widget test app',
      name: 'Note',
      settings: [],
      height: '50%',
      transparent: true,
      deprecated: false,
      devices: null,
      preview: { light: null, dark: null },
    });
    expect(r.body[CLOCK]).toMatchObject({ name: 'Clock', height: 120, transparent: false, deprecated: false });
    // Homey's convention: widgets/<id>/preview-light.png (and -dark) beside the widget, for the picker.
    expect(r.body[CLOCK]!.preview).toEqual({ light: '/app/com.test.widgets/widget-preview/clock/light', dark: null });
    const picture = await fetch(`${t.hub.url}/app/com.test.widgets/widget-preview/clock/light`);
    expect([picture.status, picture.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(
      Buffer.from(await picture.arrayBuffer())
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
    for (const missing of ['clock/dark', 'note/light', 'clock/other']) {
      expect((await fetch(`${t.hub.url}/app/com.test.widgets/widget-preview/${missing}`)).status).toBe(404);
    }
    expect(r.body[CLOCK]!.settings).toEqual(SETTINGS(['city', 'slow', 'broken', 'crash', 'many', 'unheard', 'malformed', 'seconds']));
    expect((r.body[CLOCK]!.settings as Array<Record<string, unknown>>)[7]).toEqual({
      id: 'seconds',
      type: 'checkbox',
      label: { en: 'Show seconds' },
      default: false,
    });
    expect((await t.hub.call('GET', `${BASE}/appwidget/${CLOCK}`)).body).toEqual(r.body[CLOCK]);
    for (const id of ['com.test.widgets:nope', 'com.nobody.here:clock', 'nonsense']) {
      expect((await t.hub.call('GET', `${BASE}/appwidget/${id}`)).status).toBe(404);
    }
  });

  it('does not announce the widgets of apps present at start-up, nor app state changes', async () => {
    expect((await t.hub.call('POST', '/api/manager/apps/app/com.test.widgets/restart')).status).toBe(200);
    await waitAppRunning(t.hub, 'com.test.widgets');
    // Events arrive in order: anything the restart caused comes before this dashboard's create.
    const marker = await t.hub.call<DashboardView>('POST', `${BASE}/dashboard`, { body: body('Marker', []) });
    await events.next((f) => f.event === 'dashboard.create' && (f.args[0] as DashboardView).id === marker.body.id);
    expect(appWidgetFrames()).toEqual([]);
    expect((await t.hub.call('DELETE', `${BASE}/dashboard/${marker.body.id}`)).status).toBe(204);
  });

  it("names widgets in the hub's language and publishes appwidget.update when it changes", async () => {
    expect((await t.hub.call('PUT', '/api/manager/i18n/option/language', { body: { value: 'nl' } })).status).toBe(200);
    try {
      expect((await t.hub.call('GET', `${BASE}/appwidget/${CLOCK}`)).body).toMatchObject({ name: 'Klok', ownerName: 'Widget-testapp' });
      const frame = await events.next((f) => f.event === 'appwidget.update' && (f.args[0] as { id: string }).id === CLOCK);
      expect(frame.args[1]).toEqual({
        changedKeys: ['ownerName', 'name'],
        oldValues: { ownerName: 'Widget test app', name: 'Clock' },
        newValues: { ownerName: 'Widget-testapp', name: 'Klok' },
      });
    } finally {
      expect((await t.hub.call('DELETE', '/api/manager/i18n/option/language')).status).toBe(204);
    }
    await events.next((f) => f.event === 'appwidget.update' && (f.args[0] as { name: string }).name === 'Clock');
    expect((await t.hub.call('GET', `${BASE}/appwidget/${NOTE}`)).body).toMatchObject({ name: 'Note' });
  });
});

describe('app install, upgrade and uninstall', () => {
  let dashboard: DashboardView;

  it('install: appwidget.create for each widget of the new app', async () => {
    const before = appWidgetFrames().length;
    await installExtra('1.0.0', { gauge: { name: { en: 'Gauge' } }, meter: { name: { en: 'Meter' }, deprecated: true } });
    await events.next((f) => f.event === 'appwidget.create' && (f.args[0] as { id: string }).id === METER);
    expect(summary(appWidgetFrames().slice(before))).toEqual([`appwidget.create ${GAUGE}`, `appwidget.create ${METER}`]);
    expect(appWidgetFrames().at(-1)!.args[0]).toEqual({
      id: METER,
      ownerId: EXTRA,
      ownerUri: `homey:app:${EXTRA}`,
      ownerName: 'Extra',
      name: 'Meter',
      settings: [],
      height: null,
      transparent: false,
      deprecated: true,
      devices: null,
      preview: { light: null, dark: null },
    });
    const list = (await t.hub.call<Record<string, unknown>>('GET', `${BASE}/appwidget`)).body;
    expect(Object.keys(list).sort()).toEqual([GAUGE, METER, CLOCK, NOTE].sort());
    const created = await t.hub.call<DashboardView>('POST', `${BASE}/dashboard`, { body: body('Extra', [GAUGE, METER, CLOCK]) });
    expect(created.status).toBe(201);
    dashboard = created.body;
  });

  it('upgrade: appwidget.delete/update/create for removed, changed and new widgets; a removed one shows as missing', async () => {
    const before = appWidgetFrames().length;
    await installExtra('1.1.0', { gauge: { name: { en: 'Gauge 2' } }, dial: { name: { en: 'Dial' }, height: 300 } });
    await events.next((f) => f.event === 'appwidget.create' && (f.args[0] as { id: string }).id === DIAL);
    const frames = appWidgetFrames().slice(before);
    expect(summary(frames)).toEqual([`appwidget.delete ${METER}`, `appwidget.update ${GAUGE}`, `appwidget.create ${DIAL}`]);
    expect(frames[1]!.args[1]).toEqual({ changedKeys: ['name'], oldValues: { name: 'Gauge' }, newValues: { name: 'Gauge 2' } });
    const d = (await t.hub.call<DashboardView>('GET', `${BASE}/dashboard/${dashboard.id}`)).body;
    expect(d.columns[0]!.widgets.map((w) => [w.appWidgetId, w.missing ?? false])).toEqual([
      [GAUGE, false],
      [METER, true],
      [CLOCK, false],
    ]);
    expect((await t.hub.call('GET', `${BASE}/state`)).body).toMatchObject({ missingWidgets: 1 });
  });

  it('uninstall: appwidget.delete for each widget; dashboards keep the widgets, marked missing, with their stores', async () => {
    const before = appWidgetFrames().length;
    expect((await t.hub.call('DELETE', `/api/manager/apps/app/${EXTRA}`)).status).toBe(204);
    await events.next((f) => f.event === 'appwidget.delete' && (f.args[0] as { id: string }).id === DIAL);
    expect(summary(appWidgetFrames().slice(before))).toEqual([`appwidget.delete ${GAUGE}`, `appwidget.delete ${DIAL}`]);
    expect((await t.hub.call('GET', `${BASE}/appwidget/${GAUGE}`)).status).toBe(404);

    const all = (await t.hub.call<Record<string, DashboardView>>('GET', `${BASE}/dashboard`)).body;
    const d = all[dashboard.id]!;
    expect(d.columns[0]!.widgets.map((w) => [w.appWidgetId, w.missing ?? false])).toEqual([
      [GAUGE, true],
      [METER, true],
      [CLOCK, false],
    ]);
    const [gaugeWidget] = widgetIds(d);
    expect((await t.hub.call('GET', `${BASE}/widgetstore/${gaugeWidget}`)).body).toEqual({ id: gaugeWidget, ownerUri: `homey:app:${EXTRA}`, state: {} });
    expect((await t.hub.call('GET', `${BASE}/state`)).body).toMatchObject({ missingWidgets: 2, appWidgets: 2 });
  });

  it('an update may keep a missing widget (sent back as answered) but not add one', async () => {
    const d = (await t.hub.call<DashboardView>('GET', `${BASE}/dashboard/${dashboard.id}`)).body;
    const kept = await t.hub.call<DashboardView>('PUT', `${BASE}/dashboard/${d.id}`, { body: { name: 'Renamed', columns: d.columns } });
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual({ ...d, name: 'Renamed' });
    const added = await t.hub.call<{ error_description: string }>('PUT', `${BASE}/dashboard/${d.id}`, {
      body: { columns: [{ id: d.columns[0]!.id, widgets: [...d.columns[0]!.widgets, { appWidgetId: DIAL }] }] },
    });
    expect(added.status).toBe(400);
    expect(added.body.error_description).toMatch(/app widget 'com\.test\.extra:dial' does not exist/);
    // Pointing a missing widget at an installed app widget is a change, so it must exist: it does.
    const [gauge, meter, clock] = d.columns[0]!.widgets;
    const swapped = await t.hub.call<DashboardView>('PUT', `${BASE}/dashboard/${d.id}`, {
      body: { columns: [{ id: d.columns[0]!.id, widgets: [{ id: gauge!.id, appWidgetId: NOTE }, meter, clock] }] },
    });
    expect(swapped.status).toBe(200);
    expect(swapped.body.columns[0]!.widgets.map((w) => w.missing ?? false)).toEqual([false, true, false]);
    // The widget now belongs to another app: its store was replaced by a fresh one of that app.
    expect((await t.hub.call('GET', `${BASE}/widgetstore/${gauge!.id}`)).body).toEqual({ id: gauge!.id, ownerUri: 'homey:app:com.test.widgets', state: {} });
  });
});
