/**
 * The Devices page in Chromium against a real hub running the lamp app (test/managers/devices/lamp-app.ts,
 * written from Homey's docs): add a device by listing what the driver finds, switch it from its
 * tile and see the value its app reports, see another client's change live, and see the device
 * go unavailable when its app stops; pair the cloud app's lamp (test/managers/devices/cloud-app.ts) through
 * its login and its own pairing view; pair a keypad lock by its code (the pincode view, with the app's title and hint).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { writeHomeyApp } from '../homey/apps.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { CLOUD_APP, writeCloudApp } from '../managers/devices/cloud-app.js';
import { APP, type Device, writeLampApp } from '../managers/devices/lamp-app.js';
import { type Browser, launch, screenshots, signedIn } from './browser.js';

const PANEL = 'com.example.panel';
/** A keypad lock paired with the code on its back: Homey's system pincode view, with the app's title and hint. */
const KEYPAD = 'com.example.keypad';

let hub: RunningHub;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-web-devices-');
  await writeLampApp(appsDir);
  await writeCloudApp(appsDir);
  // A widget from Homey's widget docs that shows the lamps the person picks (its `devices` key).
  await writeHomeyApp(appsDir, PANEL, {
    json: { widgets: { lamps: { name: { en: 'Lamps' }, height: 60, devices: { type: 'global', singular: false, filter: { class: 'light' } } } } },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      'widgets/lamps/public/index.html':
        '<html><body><p id="ids"></p><script>function onHomeyReady(Homey) { document.getElementById("ids").textContent = JSON.stringify(Homey.getDeviceIds()); Homey.ready(); }</script></body></html>',
    },
  });
  await writeHomeyApp(appsDir, KEYPAD, {
    json: {
      drivers: [
        {
          id: 'keypad',
          name: { en: 'Keypad lock' },
          class: 'lock',
          capabilities: ['locked'],
          platforms: ['local'],
          connectivity: ['lan'],
          pair: [
            {
              id: 'pincode',
              template: 'pincode',
              options: { type: 'number', title: { en: "The lock's code" }, hint: { en: 'Four digits, on a sticker on its back.' } },
              navigation: { next: 'list_devices' },
            },
            { id: 'list_devices', template: 'list_devices', navigation: { next: 'add_devices' } },
            { id: 'add_devices', template: 'add_devices' },
          ],
        },
      ],
    },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      'drivers/keypad/driver.js': `const Homey = require('homey');
module.exports = class extends Homey.Driver {
  async onPair(session) {
    // A wrong code takes the lock a moment to refuse (the page says it is checking meanwhile).
    session.setHandler('pincode', async (digits) => digits.join('') === '1234' || new Promise((r) => setTimeout(() => r(false), 1500)));
    session.setHandler('list_devices', async () => [{ name: 'Front keypad', data: { id: 'front' } }]);
  }
};
`,
      'drivers/keypad/device.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.Device {};\n",
    },
  });
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  await waitAppRunning(hub, CLOUD_APP);
  await waitAppRunning(hub, PANEL);
  await waitAppRunning(hub, KEYPAD);
  browser = await launch();
  page = await signedIn(browser.context, hub.url, OWNER, '#/devices');
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await hub?.cleanup();
});

const lamp = async (): Promise<Device> =>
  Object.values((await hub.call<Record<string, Device>>('GET', '/api/manager/devices/device')).body).find((d) => d.name === 'Lamp 1')!;

describe('the Devices page', () => {
  test('adds a device the driver lists, into the zone chosen', async () => {
    await page.getByTestId('no-devices').waitFor();
    await page.getByTestId('add-device').click();
    await page.getByTestId('pair-driver').selectOption({ label: `Lamp (${APP})` });
    await page.getByTestId('pair-start').click();
    await page.getByTestId('pair-device-Lamp 2').uncheck();
    await page.getByTestId('pair-add').click();
    expect(await page.getByTestId('pair-done').textContent()).toBe('Added Lamp 1.');
    await page.getByTestId('add-device-close').click();
    await page.getByTestId('zone-Home').getByTestId('device-Lamp 1').waitFor();
    const devices = await hub.call<Record<string, Device>>('GET', '/api/manager/devices/device');
    expect(Object.values(devices.body).map((d) => d.name)).toEqual(['Lamp 1']);
    const sessions = await hub.call<{ pairSessions: number }>('GET', '/api/manager/drivers/state');
    expect(sessions.body.pairSessions).toBe(0);
  });

  test("switches the lamp from its tile and shows the temperature its app reports, and another client's change", async () => {
    const tile = page.getByTestId('device-Lamp 1');
    await tile.getByRole('switch', { name: 'Turned on of Lamp 1' }).check();
    await poll(lamp, (d) => d.capabilitiesObj.onoff?.value === true, 'the lamp to be on');
    await expect.poll(() => tile.getByTestId('readout-measure_temperature').textContent()).toContain('21.5 °C');
    const id = (await lamp()).id;
    expect((await hub.call('PUT', `/api/manager/devices/device/${id}/capability/onoff`, { body: { value: false } })).status).toBe(200);
    await expect.poll(() => tile.getByRole('switch', { name: 'Turned on of Lamp 1' }).isChecked()).toBe(false);
    // Beside the switch its state, not onoff's title ("Turned on" beside a lamp that was off).
    expect(await tile.getByTestId('state-onoff').textContent()).toBe('Off');
    await expect.poll(() => tile.getByTestId('readout-measure_temperature').textContent()).toContain('18 °C');
    await screenshots(page, 'devices');
  });

  test('the home screen switches the lamp with one large button and follows its state', async () => {
    const home = await signedIn(browser.context, hub.url, OWNER, '#/home');
    const button = home.getByTestId('home-device-Lamp 1').getByRole('button').first();
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('false');
    const state = button.getByTestId('home-device-state');
    expect(await state.textContent()).toBe('Off');
    // Its other reading, small.
    expect(await button.textContent()).toBe('Lamp 1OffTemperature 18 °C');
    // A touch target a finger finds: at least 88 px tall.
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(88);
    await button.click();
    await poll(lamp, (d) => d.capabilitiesObj.onoff?.value === true, 'the lamp on from the home screen');
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
    // Another client's change shows here too.
    expect((await hub.call('PUT', `/api/manager/devices/device/${(await lamp()).id}/capability/onoff`, { body: { value: false } })).status).toBe(200);
    await expect.poll(() => state.textContent()).toBe('Off');
    await screenshots(home, 'home-devices');
    await home.close();
  });

  test("insights shows the lamp's dim level as the Devices page does (90 %, not 0.90 %)", async () => {
    const id = (await lamp()).id;
    expect((await hub.call('PUT', `/api/manager/devices/device/${id}/capability/dim`, { body: { value: 0.9 } })).status).toBe(200);
    const insights = await signedIn(browser.context, hub.url, OWNER, '#/insights');
    const last = insights.getByTestId(`last-homey:device:${id}:dim`);
    await expect.poll(() => last.textContent()).toBe('90 %');
    await insights.close();
  });

  test('shows the lamp unavailable, with the reason, while its app is stopped', async () => {
    expect((await hub.call('PUT', `/api/manager/apps/app/${APP}/disable`)).status).toBe(200);
    const badge = page.getByTestId('device-Lamp 1').getByTestId('device-unavailable');
    await expect.poll(() => badge.textContent()).toBe(`unavailable: its app '${APP}' is not running`);
    expect(await page.getByTestId('device-Lamp 1').getByRole('switch').isDisabled()).toBe(true);
    expect((await hub.call('PUT', `/api/manager/apps/app/${APP}/enable`)).status).toBe(200);
    await expect.poll(() => badge.count()).toBe(0);
  });

  test("pairs the cloud lamp: the driver's login view, then the app's own view, which adds the device", async () => {
    await page.getByTestId('add-device').click();
    await page.getByTestId('pair-driver').selectOption({ label: `Cloud lamp (${CLOUD_APP})` });
    await page.getByTestId('pair-start').click();
    await page.getByTestId('pair-username').fill('bob');
    await page.getByTestId('pair-password').fill('wrong');
    await page.getByTestId('pair-login').click();
    await expect
      .poll(() => page.getByTestId('pair-view-login_credentials').getByRole('alert').textContent())
      .toBe('The app did not accept this username and password.');
    await page.getByTestId('pair-password').fill('secret');
    await page.getByTestId('pair-login').click();
    await page.getByTestId('pair-view-choose').waitFor();
    await expect.poll(() => page.locator('.pair-flow h3').textContent()).toBe('Pick your lamp');
    const view = page.frameLocator('[data-testid=pair-frame]');
    // The driver emitted 'hello' when the view was shown; the view heard it.
    await expect.poll(() => view.locator('#who').textContent()).toBe('bob');
    await screenshots(page, 'pair-custom-view');
    await view.getByRole('button', { name: "bob's lamp" }).click();
    await expect.poll(() => page.getByTestId('pair-done').textContent()).toBe("Added bob's lamp.");
    const devices = await hub.call<Record<string, Device>>('GET', '/api/manager/devices/device');
    expect(
      Object.values(devices.body)
        .map((d) => d.name)
        .sort(),
    ).toEqual(['Lamp 1', "bob's lamp"]);
    await page.getByTestId('add-device-close').click();
    await page.getByTestId("device-bob's lamp").waitFor();
  });

  test("repairs the cloud lamp from its tile's menu through the driver's repair view", async () => {
    const tile = page.getByTestId("device-bob's lamp");
    await tile.locator('summary').click();
    await tile.getByTestId('device-repair').click();
    await tile.getByTestId('pair-username').fill('bob');
    await tile.getByTestId('pair-password').fill('secret');
    await tile.getByTestId('pair-login').click();
    await tile.locator('summary').click();
    await expect.poll(() => tile.getByText('Repaired.').count()).toBe(1);
    const log = (await hub.call<{ stdout: string }>('POST', `/api/manager/apps/app/${CLOUD_APP}/crashlog`, { body: {} })).body.stdout;
    expect(log).toContain("repaired bob's lamp renewed-for-bob");
  });
  test("changes a device's settings from its tile's menu; the app's refusal is shown as it said it", async () => {
    const tile = page.getByTestId('device-Lamp 1');
    await tile.locator('summary').click();
    await tile.getByTestId('device-settings-open').click();
    const ip = tile.getByTestId('device-setting-ip');
    await expect.poll(() => ip.inputValue()).toBe('0.0.0.0');
    await ip.fill('bad');
    await tile.getByTestId('device-settings-save').click();
    await expect
      .poll(() => tile.getByTestId('device-settings').getByRole('alert').textContent())
      .toBe("'Lamp 1' refused the settings: That is not an IP address");
    expect((await lamp()).settings.ip).toBe('0.0.0.0');
    await ip.fill('10.0.0.9');
    await tile.getByTestId('device-settings-save').click();
    await expect.poll(() => tile.getByTestId('device-settings').getByRole('status').textContent()).toBe('Saved.');
    expect((await lamp()).settings.ip).toBe('10.0.0.9');
    await screenshots(page, 'device-settings');
    await tile.getByRole('button', { name: 'Close' }).click();
    await tile.locator('summary').click();
  });
});

describe('devices on dashboards', () => {
  test("a device tile, and an app's widget given the lamps picked for it", async () => {
    const lamps = Object.values((await hub.call<Record<string, Device>>('GET', '/api/manager/devices/device')).body).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    const lamp1 = lamps.find((d) => d.name === 'Lamp 1')!;
    const bobs = lamps.find((d) => d.name === "bob's lamp")!;
    await page.goto(`${hub.url}/#/dashboards`);
    await page.getByTestId('new-dashboard').click();
    await page.getByTestId('new-dashboard-name').fill('Hall');
    const before = page.url();
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.url()).not.toBe(before);
    await page.getByTestId('dashboard').getByRole('heading', { name: 'Hall' }).waitFor();
    await page.getByTestId('arrange').click();
    await page.getByTestId('add-widget-select-0').selectOption('hearth:device');
    await page.getByTestId('add-widget-0').click();
    await page.getByTestId('widget-device').selectOption({ label: 'Lamp 1' });
    await page.getByTestId('add-widget-select-1').selectOption(`${PANEL}:lamps`);
    await page.getByTestId('add-widget-1').click();
    const picker = page.getByTestId('widget-devices');
    await picker.getByLabel("bob's lamp").check();
    await picker.getByLabel('Lamp 1').check();
    // Ticked bob's lamp first; Lamp 1 is moved before it.
    expect(await picker.getByRole('button', { name: "Move bob's lamp earlier" }).isDisabled()).toBe(true);
    await picker.getByRole('button', { name: 'Move Lamp 1 earlier' }).click();
    await expect.poll(() => picker.getByRole('button', { name: 'Move Lamp 1 earlier' }).isDisabled()).toBe(true);
    expect(await picker.getByText('#1').count()).toBe(1);
    await screenshots(page, 'dashboard-devices-arrange');
    await page.getByTestId('save-dashboard').click();
    await page.getByTestId('arrange').waitFor();

    const saved = Object.values(
      (
        await hub.call<Record<string, { name: string; columns: Array<{ widgets: Array<{ appWidgetId: string; devices?: string[] }> }> }>>(
          'GET',
          '/api/manager/dashboards/dashboard',
        )
      ).body,
    ).find((d) => d.name === 'Hall')!;
    expect(saved.columns.map((c) => c.widgets.map((w) => [w.appWidgetId, w.devices]))).toEqual([
      [['hearth:device', [lamp1.id]]],
      [[`${PANEL}:lamps`, [lamp1.id, bobs.id]]],
    ]);

    // The app's page reads the ids in the order they were given.
    const frame = page.frameLocator('iframe[title="Lamps"]');
    await expect.poll(() => frame.locator('#ids').textContent(), { timeout: 15_000 }).toBe(JSON.stringify([lamp1.id, bobs.id]));

    // The tile switches the lamp, and follows a change made elsewhere.
    const tile = page.getByTestId('device-widget-Lamp 1');
    const onoff = tile.getByRole('switch', { name: 'Turned on of Lamp 1' });
    const wasOn = await onoff.isChecked();
    await onoff.click(); // the switch shows the value the hub publishes back, not the click
    await poll(lamp, (d) => d.capabilitiesObj.onoff?.value === !wasOn, 'the lamp to switch from its dashboard tile');
    expect((await hub.call('PUT', `/api/manager/devices/device/${lamp1.id}/capability/onoff`, { body: { value: wasOn } })).status).toBe(200);
    await expect.poll(() => onoff.isChecked()).toBe(wasOn);
    await screenshots(page, 'dashboard-devices');
  });

  test("pairs a keypad lock by its code: the pincode view shows the app's title and hint, and says when the code is wrong", async () => {
    await page.goto(`${hub.url}/#/devices`);
    await page.reload();
    await page.getByTestId('add-device').click();
    await page.getByTestId('pair-driver').selectOption({ label: `Keypad lock (${KEYPAD})` });
    await page.getByTestId('pair-start').click();
    expect(await page.getByTestId('pair-pincode-title').textContent()).toBe("The lock's code");
    expect(await page.getByTestId('pair-view-pincode').textContent()).toContain('Four digits, on a sticker on its back.');
    await page.getByTestId('pair-pincode').fill('9999');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.getByRole('button', { name: 'Checking the code…' }).isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('pair-view-pincode').getByRole('alert').textContent()).toBe('The app did not accept this code.');
    await page.getByTestId('pair-pincode').fill('1234');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByTestId('pair-add').click();
    expect(await page.getByTestId('pair-done').textContent()).toBe('Added Front keypad.');
  });
});
