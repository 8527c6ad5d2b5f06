/**
 * Widgets that show devices (Homey's widget manifest `devices` key: its own app's or any, one or
 * several, filtered by class and capabilities) and the hub's own device tile (`hearth:device`):
 * what a dashboard may give each, checked on a real hub with the lamp app's devices and a panel
 * app written from Homey's widget docs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { writeHomeyApp } from '../../homey/apps.js';
import { type Device, APP as LAMP_APP, pairLamp, writeLampApp } from '../devices/lamp-app.js';
import { type DashboardView, type ErrorBody, waitAppRunning } from './helpers.js';

const PANEL = 'com.example.panel';
const BASE = '/api/manager/dashboards';
const page = '<html><body><script>function onHomeyReady(Homey) { Homey.ready(); }</script></body></html>';

let hub: RunningHub;
let lamp1: Device;
let lamp2: Device;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-widget-devices-');
  await writeLampApp(appsDir);
  await writeHomeyApp(appsDir, PANEL, {
    json: {
      widgets: {
        lamps: {
          name: { en: 'Lamps' },
          devices: { type: 'global', singular: false, filter: { class: 'socket|light', capabilities: 'onoff,light_hue|dim' } },
        },
        heaters: { name: { en: 'Heaters' }, devices: { type: 'global', singular: false, filter: { class: 'heater' } } },
        mine: { name: { en: 'Mine' }, devices: { type: 'app', singular: true } },
        plain: { name: { en: 'Plain' } },
      },
    },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      ...Object.fromEntries(['lamps', 'heaters', 'mine', 'plain'].map((w) => [`widgets/${w}/public/index.html`, page])),
    },
  });
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, LAMP_APP);
  await waitAppRunning(hub, PANEL);
  lamp1 = await pairLamp(hub, 0);
  lamp2 = await pairLamp(hub, 1);
}, 60_000);

afterAll(async () => {
  await hub?.stop();
  await hub?.cleanup();
});

const put = (widgets: Array<Record<string, unknown>>, id = 'home') =>
  hub.call<DashboardView & ErrorBody>('PUT', `${BASE}/dashboard/${id}`, { body: { name: 'Home', columns: [{ id: 'c', widgets }] } });

describe('widgets that show devices', () => {
  beforeAll(async () => {
    expect((await hub.call('POST', `${BASE}/dashboard`, { body: { id: 'home', name: 'Home', columns: [] } })).status).toBe(201);
  });

  it("lists each app widget's devices picker as its manifest declares it, and null for one without", async () => {
    const widgets = (await hub.call<Record<string, { devices: unknown }>>('GET', `${BASE}/appwidget`)).body;
    expect(widgets[`${PANEL}:lamps`]!.devices).toEqual({
      type: 'global',
      singular: false,
      filter: { class: 'socket|light', capabilities: 'onoff,light_hue|dim' },
    });
    expect(widgets[`${PANEL}:mine`]!.devices).toEqual({ type: 'app', singular: true });
    expect(widgets[`${PANEL}:plain`]!.devices).toBeNull();
  });

  it('keeps the devices chosen, in their order, and gives them back', async () => {
    const r = await put([{ id: 'w1', appWidgetId: `${PANEL}:lamps`, devices: [lamp2.id, lamp1.id] }]);
    expect(r.status).toBe(200);
    expect(r.body.columns[0]!.widgets[0]).toEqual({ id: 'w1', appWidgetId: `${PANEL}:lamps`, devices: [lamp2.id, lamp1.id] });
    const again = await hub.call<DashboardView>('GET', `${BASE}/dashboard/home`);
    expect(again.body.columns[0]!.widgets[0]!).toMatchObject({ devices: [lamp2.id, lamp1.id] });
  });

  it('refuses, with the reason, devices a widget cannot show', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ appWidgetId: `${PANEL}:plain`, devices: [lamp1.id] }, /widget 'com.example.panel:plain' shows no devices/],
      [{ appWidgetId: `${PANEL}:lamps`, devices: [lamp1.id, lamp1.id] }, /names a device twice/],
      [{ appWidgetId: `${PANEL}:lamps`, devices: ['no-such-device'] }, /devices.0': device 'no-such-device' does not exist/],
      [{ appWidgetId: `${PANEL}:heaters`, devices: [lamp1.id] }, /'Lamp 1' is a light; this widget shows heater/],
      [{ appWidgetId: `${PANEL}:mine`, devices: [lamp1.id] }, /'Lamp 1' is not a device of com.example.panel/],
      [{ appWidgetId: `${PANEL}:mine`, devices: [lamp1.id, lamp2.id] }, /shows one device, not 2/],
      [{ appWidgetId: 'hearth:device', devices: [lamp1.id, lamp2.id] }, /widget 'hearth:device' shows one device, not 2/],
    ];
    for (const [widget, reason] of cases) {
      const r = await put([{ id: 'bad', ...widget }]);
      expect([r.status, r.body.error_description]).toEqual([400, expect.stringMatching(reason)]);
    }
    // Nothing of it was kept.
    const kept = await hub.call<DashboardView>('GET', `${BASE}/dashboard/home`);
    expect(kept.body.columns[0]!.widgets.map((w) => w.id)).toEqual(['w1']);
  });

  it("places the hub's own device tile with one device of any app, never shown as missing", async () => {
    const r = await put([
      { id: 'w1', appWidgetId: `${PANEL}:lamps`, devices: [lamp2.id, lamp1.id] },
      { id: 'tile', appWidgetId: 'hearth:device', devices: [lamp1.id] },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.columns[0]!.widgets[1]).toEqual({ id: 'tile', appWidgetId: 'hearth:device', devices: [lamp1.id] });
    // It is no app's widget: Homey's list of app widgets does not hold it.
    expect(Object.keys((await hub.call<Record<string, unknown>>('GET', `${BASE}/appwidget`)).body)).not.toContain('hearth:device');
  });

  it('keeps a deleted device in a list it already held (the page is told only of those that exist), but never adds one', async () => {
    expect((await hub.call('DELETE', `/api/manager/devices/device/${lamp2.id}`)).status).toBe(204);
    const same = await put([
      { id: 'w1', appWidgetId: `${PANEL}:lamps`, devices: [lamp2.id, lamp1.id] },
      { id: 'tile', appWidgetId: 'hearth:device', devices: [lamp1.id] },
    ]);
    expect(same.status).toBe(200);
    const added = await put([{ id: 'tile', appWidgetId: 'hearth:device', devices: [lamp2.id] }]);
    expect([added.status, added.body.error_description]).toEqual([400, expect.stringContaining(`device '${lamp2.id}' does not exist`)]);
  });
});
