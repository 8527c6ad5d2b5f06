/**
 * The home as a picture, in Chromium on a wall tablet (1024x768) and a phone (375 px): a room of
 * five devices of the example virtual app and one of an app whose lamp is out of reach. Each tile
 * shows its app's icon (or its class's when the app ships none), a lit light in its own colour
 * with its brightness, a sensor's reading large with its others small, a door open as something to
 * see to, and an unreachable device greyed with the reason; what needs a look stands first, one
 * line each. A tap on the tablet switches the lamp, and the phone sees it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER } from '../helpers/hub.js';
import { pairDevice } from '../helpers/pair.js';
import { poll } from '../helpers/poll.js';
import { accessibilityViolations, unreachableByTab } from './a11y.js';
import { screenshot, screenshots, signedIn, startWebHub, type WebHub } from './browser.js';

const VIRTUAL = 'com.hearth.virtual';
const FAR = 'com.test.faraway';
let w: WebHub;
const ids: Record<string, string> = {};

beforeAll(async () => {
  // An app whose lamp is out of reach (and that ships no icon: its tile shows the light class's).
  w = await startWebHub([join(import.meta.dirname, 'fixtures', FAR)]);
  const { hub } = w;
  await poll(
    () => hub.op('drivers', 'getDrivers'),
    (d) => Object.hasOwn(d, `homey:app:${FAR}:bulb`) && Object.hasOwn(d, `homey:app:${VIRTUAL}:door`),
    'both apps listing their drivers',
  );
  const zones = await hub.op('zones', 'getZones');
  const home = Object.values(zones).find((z) => z.parent === null)!.id;
  const room = (await hub.op('zones', 'createZone', { body: { name: 'Living room', parent: home } })).id;
  const porch = (await hub.op('zones', 'createZone', { body: { name: 'Porch', parent: home } })).id;
  const pair = async (app: string, driver: string, name: string, zoneId = room): Promise<void> => {
    ids[name] = await pairDevice(hub, `homey:app:${app}:${driver}`, { name, zoneId });
  };
  await pair(VIRTUAL, 'lamp', 'Reading lamp');
  await pair(VIRTUAL, 'plug', 'Coffee machine');
  await pair(VIRTUAL, 'climate', 'Living room climate');
  await pair(VIRTUAL, 'door', 'Front door');
  await pair(VIRTUAL, 'thermostat', 'Thermostat');
  await pair(FAR, 'bulb', 'Porch light', porch);
  const set = (name: string, capabilityId: string, value: boolean | number | string) =>
    hub.op('devices', 'setCapabilityValue', { params: { deviceId: ids[name]!, capabilityId }, body: { value } });
  await set('Reading lamp', 'onoff', true);
  await set('Reading lamp', 'light_mode', 'color');
  await set('Reading lamp', 'light_hue', 0.6);
  await set('Reading lamp', 'light_saturation', 1);
  await set('Reading lamp', 'dim', 0.6);
  await set('Coffee machine', 'onoff', true);
  await hub.op('flow', 'runFlowCardAction', {
    params: { uri: `homey:app:${VIRTUAL}`, id: 'simulate_open' },
    body: { args: { device: { id: ids['Front door']!, name: 'Front door' } } },
  });
}, 120_000);
afterAll(() => w?.close());

describe('the home as a picture', () => {
  it('serves a driver its icon, from its manifest or from the assets folder, and nothing else of the app', async () => {
    const { hub } = w;
    const icon = await hub.call('GET', `/app/${VIRTUAL}/drivers/lamp/icon`, { token: null });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('content-security-policy')).toBe('sandbox');
    expect((await hub.call('GET', `/app/${VIRTUAL}/drivers/lamp/assets/icon.svg`, { token: null })).text).toBe(icon.text);
    // The bulb's app ships no icon; a driver that does not exist has none.
    for (const path of [`/app/${FAR}/drivers/bulb/icon`, `/app/${VIRTUAL}/drivers/nope/icon`, `/app/${VIRTUAL}/drivers/lamp/assets/nope.svg`])
      expect((await hub.call('GET', path, { token: null })).status, path).toBe(404);
    // Only pictures, only from the driver's assets folder.
    for (const path of [
      `/app/${VIRTUAL}/drivers/lamp/assets/../device.js`,
      `/app/${VIRTUAL}/drivers/lamp/assets/%2e%2e/device.js`,
      `/app/${VIRTUAL}/drivers/lamp/assets/..%2f..%2fapp.json`,
      `/app/${VIRTUAL}/drivers/lamp/assets/%2e%2e/%2e%2e/app.json`,
      `/app/${VIRTUAL}/drivers/lamp/assets/icon.svg%00.js`,
    ]) {
      const r = await hub.call('GET', path, { token: null });
      expect(r.status === 404 || r.status === 400, `${path}: ${r.status}`).toBe(true);
      expect(r.text).not.toContain('registerMultipleCapabilityListener');
    }
  });

  it('draws each device as a family reads it, what needs a look first, on a tablet and a phone, light and dark', { timeout: 120_000 }, async () => {
    const { context } = w.browser;
    const page = await signedIn(context, w.hub.url, OWNER, '#/home');
    await page.setViewportSize({ width: 1024, height: 768 });
    try {
      const tile = (name: string) => page.getByTestId(`home-device-${name}`);
      await tile('Porch light').waitFor();
      // The lamp: on, at 60 %, in its own colour (hue 0.6 is a blue), drawn with its app's icon.
      await expect.poll(() => tile('Reading lamp').getByTestId('home-device-state').textContent()).toBe('On · 60 %');
      expect(await tile('Reading lamp').getAttribute('class')).toContain('on');
      expect(await tile('Reading lamp').getAttribute('style')).toMatch(/--tint:\s*hsl\(216 100% 50%\)/);
      expect(await tile('Reading lamp').locator('[data-icon]').getAttribute('data-icon')).toBe('app');
      // The plug: on, its power beside.
      expect(await tile('Coffee machine').getByTestId('home-device-state').textContent()).toBe('On');
      expect(await tile('Coffee machine').textContent()).toMatch(/Power \d+(\.\d+)? W/);
      // The climate sensor: its temperature large, its humidity small.
      expect(await tile('Living room climate').getByTestId('home-device-state').textContent()).toMatch(/^\d+(\.\d+)? °C$/);
      expect(await tile('Living room climate').textContent()).toMatch(/Humidity \d+ %/);
      // The door: open, as something to see to.
      expect(await tile('Front door').getByTestId('home-device-state').textContent()).toBe('Open');
      expect(await tile('Front door').getAttribute('class')).toContain('alert');
      // Out of reach: greyed, with the app's reason, and not a button that does nothing.
      expect(await tile('Porch light').getByTestId('home-device-state').textContent()).toBe('Unavailable');
      expect(await tile('Porch light').textContent()).toContain('out of reach: check its power');
      expect(await tile('Porch light').locator('button').first().isDisabled()).toBe(true);
      // Its app ships no icon: the light class's is drawn instead.
      await expect.poll(() => tile('Porch light').locator('[data-icon]').getAttribute('data-icon')).toBe('class');
      // What needs a look, first: the open door and the light out of reach, each a link.
      const state = page.getByTestId('home-state');
      expect(await state.locator('li').allTextContents()).toEqual(['Front door is open', 'Porch light is unavailable: out of reach: check its power']);
      // A tablet's fingers: every tile is at least 64 px each way.
      for (const name of Object.keys(ids)) {
        const box = await tile(name).locator('button, a').first().boundingBox();
        expect(Math.min(box!.width, box!.height), name).toBeGreaterThanOrEqual(64);
      }
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(await unreachableByTab(page)).toEqual([]);
      await screenshots(page, 'home-room');

      // The lamp's second tap target opens its full controls in a sheet, live; Escape shuts it.
      await tile('Reading lamp').getByRole('button', { name: 'All controls of Reading lamp' }).click();
      const sheet = page.getByTestId('device-sheet');
      await sheet.getByTestId('control-dim').waitFor();
      expect(await sheet.getByTestId('control-light_hue').count()).toBe(1);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'home-sheet');
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });
      // A sensor's tile opens its readings; the porch light's sheet says why it is out of reach.
      await tile('Living room climate').locator('button').first().click();
      await sheet.getByTestId('readout-measure_humidity').waitFor();
      await sheet.getByRole('button', { name: 'Close' }).click();
      await sheet.waitFor({ state: 'detached' });
      await tile('Porch light').getByRole('button', { name: 'All controls of Porch light' }).click();
      await sheet.getByTestId('device-unavailable').waitFor();
      expect(await sheet.getByTestId('device-unavailable').textContent()).toBe('unavailable: out of reach: check its power');
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });

      // The rooms in the order the family sets: by name at first, then Porch moved up; it stays.
      const rooms = () => page.locator('h2.room-head').allTextContents();
      expect(await rooms()).toEqual(['Living room', 'Porch']);
      await page.getByTestId('arrange-rooms').click();
      await page.getByRole('button', { name: 'Move Porch up' }).click();
      await expect.poll(rooms).toEqual(['Porch', 'Living room']);
      await expect.poll(async () => (await w.hub.op('zones', 'getOptionRoomOrder')).value).toHaveLength(2);
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.getByTestId('arrange-rooms').click();
      await page.reload();
      await tile('Reading lamp').waitFor();
      await expect.poll(rooms).toEqual(['Porch', 'Living room']);
      // The wall shows the same order (the order comes just after the devices).
      await page.goto(`${w.hub.url}/#/wall`);
      await page.getByTestId('wall').waitFor();
      await expect.poll(rooms).toEqual(['Porch', 'Living room']);
      await page.goto(`${w.hub.url}/#/home`);
      await tile('Reading lamp').waitFor();

      // A room's name opens its own page: its devices, what needs a look in it, the way back.
      await page.getByRole('link', { name: 'Living room' }).click();
      await page.getByTestId('room').waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Living room');
      // What needs a look there: the open door (the porch light is in another room).
      expect(await page.getByTestId('home-state').locator('li').allTextContents()).toEqual(['Front door is open']);
      await tile('Reading lamp').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'home-room-page');
      await page.getByRole('link', { name: 'All rooms' }).click();
      await page.getByTestId('home').waitFor();

      // A tap on the tablet switches the lamp off; a phone on the same home sees it within a second or so.
      const onPhone = await context.newPage();
      try {
        await onPhone.setViewportSize({ width: 375, height: 740 });
        await onPhone.goto(`${w.hub.url}/#/home`);
        await onPhone.getByTestId('home-device-Reading lamp').waitFor();
        await tile('Reading lamp').locator('button').first().click();
        await expect.poll(() => onPhone.getByTestId('home-device-Reading lamp').getByTestId('home-device-state').textContent(), { timeout: 5_000 }).toBe('Off');
        expect(await accessibilityViolations(onPhone)).toEqual([]);
        await screenshots(onPhone, 'home-room-phone');
      } finally {
        await onPhone.close();
      }
    } finally {
      await page.close();
    }
  });
});
