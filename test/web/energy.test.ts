/**
 * The Energy page in Chromium with the virtual devices: a plug at work in the living room, an
 * estimated lamp in the kitchen and the home's meter. The power now as one number with what no
 * device accounts for, a bar per room, live as the plug goes off; today's chart by hour and this
 * month's by day; a price makes costs. Axe-clean, every control reachable by Tab; pictures light
 * and dark, desktop and phone.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../apps/helpers.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { pairDevice } from '../helpers/pair.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { accessibilityViolations, unreachableByTab } from './a11y.js';
import { type Browser, launch, screenshots, signedIn } from './browser.js';

const APP = 'com.hearth.virtual';
let hub: RunningHub;
let browser: Browser;
let page: Page;
let plug: string;

const pair = (driver: string, zone: string, name: string): Promise<string> => pairDevice(hub, `homey:app:${APP}:${driver}`, { zoneId: zone, name });
const set = (id: string, capability: string, value: unknown) =>
  hub.call('PUT', `/api/manager/devices/device/${id}/capability/${capability}`, { body: { value } });

beforeAll(async () => {
  const appsDir = await tempDir('hearth-web-energy-');
  await cp(join(ROOT, 'examples', APP), join(appsDir, APP), { recursive: true });
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  const root = Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/zones/zone')).body)[0]!;
  const zone = async (name: string) => (await hub.call<{ id: string }>('POST', '/api/manager/zones/zone', { body: { name, parent: root } })).body.id;
  const [living, kitchen] = [await zone('Living room'), await zone('Kitchen')];
  plug = await pair('plug', living, 'Television');
  const lamp = await pair('lamp', kitchen, 'Kitchen lights');
  await pair('meter', root, 'Smart meter');
  await set(plug, 'onoff', true);
  await set(lamp, 'onoff', true);
  browser = await launch();
  page = await signedIn(browser.context, hub.url, OWNER, '#/energy');
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await hub?.cleanup();
});

describe('the Energy page', { timeout: 120_000 }, () => {
  test('the power now, by room and live; today by hour and the month by day; a price makes costs', async () => {
    await page.goto(`${hub.url}/#/energy`);
    // The meter reads the house every 10 s: the base load it sees beyond the devices (150 W, give or
    // take the plug's wander between the meter's reading and the plug's), shown live.
    const unaccounted = async () => Math.abs(Number.parseFloat((await page.getByTestId('energy-unaccounted').textContent()) ?? '') - 150);
    await expect.poll(unaccounted, { timeout: 30_000 }).toBeLessThanOrEqual(3);
    expect(await page.getByTestId('energy-devices').textContent()).toMatch(/^6\d W$/);
    expect(await page.getByTestId('energy-room-Living room').textContent()).toMatch(/^Living room(5[89]|6[01]) W$/);
    expect(await page.getByTestId('energy-room-Kitchen').textContent()).toContain('8 W');
    expect(await page.getByTestId('energy-chart').getAttribute('data-parts')).toMatch(/^2[345]$/);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await unreachableByTab(page)).toEqual([]);
    await screenshots(page, 'energy');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshots(page, 'energy-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByRole('button', { name: 'This month' }).click();
    const days = new Date(new Date().getFullYear(), new Date().getMonth() + 1, 0).getDate();
    await expect.poll(async () => page.getByTestId('energy-chart').getAttribute('data-parts')).toBe(String(days));
    await screenshots(page, 'energy-month');

    // A price: the period's cost appears.
    await page.locator('summary', { hasText: 'Price' }).click();
    await page.getByTestId('energy-price').fill('0.30');
    await page.getByTestId('energy-price-save').click();
    await expect.poll(async () => page.getByTestId('energy-period-total').textContent(), { timeout: 10_000 }).toContain('€');

    // Live: the television off, the living room's bar says so.
    await set(plug, 'onoff', false);
    await expect.poll(async () => page.getByTestId('energy-room-Living room').textContent(), { timeout: 15_000 }).toMatch(/0 W$/);
  });
});
