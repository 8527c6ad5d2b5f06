/**
 * Moods in Chromium: a room's page saves how the room is now as a mood; the room changes; the
 * mood's tile on the home screen puts it back with one tap, and says which device did not follow.
 * Alarms: one added for weekdays, shown with its days in words and when it goes off next, turned off.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { APP, type Device, pairLamp, writeLampApp } from '../managers/devices/lamp-app.js';
import { accessibilityViolations } from './a11y.js';
import { type Browser, launch, screenshots, signedIn } from './browser.js';

let hub: RunningHub;
let browser: Browser;
let page: Page;
let room: string;
let lamp: Device;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-web-moods-');
  await writeLampApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  const root = Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/zones/zone')).body)[0]!;
  room = (await hub.call<{ id: string }>('POST', '/api/manager/zones/zone', { body: { name: 'Study', parent: root } })).body.id;
  lamp = await pairLamp(hub, 0);
  await hub.call('PUT', `/api/manager/devices/device/${lamp.id}`, { body: { zone: room, name: 'Desk lamp' } });
  browser = await launch();
  page = await signedIn(browser.context, hub.url, OWNER, '#/home');
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await hub?.cleanup();
});

const lampId = () => lamp.id;
const dim = async () => (await hub.call<number>('GET', `/api/manager/devices/device/${lamp.id}/capability/dim`)).body;

describe('moods', { timeout: 60_000 }, () => {
  test("saved from a room's page, put back with one tap on the home screen", async () => {
    await hub.call('PUT', `/api/manager/devices/device/${lamp.id}/capability/onoff`, { body: { value: true } });
    await hub.call('PUT', `/api/manager/devices/device/${lamp.id}/capability/dim`, { body: { value: 0.25 } });
    await page.goto(`${hub.url}/#/home/room/${room}`);
    await page.getByTestId('save-mood').click();
    await page.getByTestId('mood-name').fill('Reading');
    await page.getByRole('button', { name: 'Save how the room is now' }).click();
    await expect.poll(() => page.getByTestId('mood-Reading').count()).toBe(1);
    await hub.call('PUT', `/api/manager/devices/device/${lamp.id}/capability/dim`, { body: { value: 1 } });
    await page.goto(`${hub.url}/#/home`);
    await page.getByTestId('mood-Reading').click();
    await expect.poll(dim).toBe(0.25);
    expect(await page.getByTestId('mood-failed').count()).toBe(0);
    // The lamp's app stops: the tile says the lamp did not follow.
    await hub.call('PUT', `/api/manager/apps/app/${APP}/disable`, { body: {} });
    await page.getByTestId('mood-Reading').click();
    await expect.poll(async () => page.getByTestId('mood-failed').textContent()).toBe('Desk lamp did not follow');
  });

  test("a mood's values changed on its room's page: what it sets next", async () => {
    await hub.call('PUT', `/api/manager/apps/app/${APP}/enable`, { body: {} });
    await waitAppRunning(hub, APP);
    await page.goto(`${hub.url}/#/home/room/${room}`);
    await page.getByTestId('edit-mood-Reading').click();
    const editor = page.getByTestId('mood-editor-Reading');
    const lamp = editor.getByTestId('mood-device-Desk lamp');
    await lamp.locator('input[type=number]').fill('50');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'mood-editor');
    await editor.getByRole('button', { name: 'Save the mood' }).click();
    await expect.poll(() => editor.count()).toBe(0);
    const mood = Object.values(
      (await hub.call<Record<string, { name: string; devices: Record<string, { state: Record<string, unknown> }> }>>('GET', '/api/manager/moods/mood')).body,
    )[0]!;
    expect(mood.devices[lampId()]?.state).toMatchObject({ onoff: true, dim: 0.5 });
    await page.getByTestId('mood-Reading').click();
    await expect.poll(dim).toBe(0.5);
  });

  test('an alarm for weekdays, its next time, turned off', async () => {
    await page.goto(`${hub.url}/#/alarms`);
    await page.getByTestId('alarm-name').fill('School');
    await page.getByTestId('alarm-time').fill('07:15');
    await page.getByTestId('add-alarm').click();
    const row = page.getByTestId('alarm-School');
    await expect.poll(async () => row.textContent()).toContain('weekdays');
    expect(await row.textContent()).toContain('next:');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'alarms');
    await row.getByRole('switch').click();
    await expect.poll(async () => row.textContent()).toContain('off');
    const alarm = Object.values((await hub.call<Record<string, { name: string; enabled: boolean; time: string }>>('GET', '/api/manager/alarms/alarm')).body)[0];
    expect(alarm).toMatchObject({ name: 'School', time: '07:15', enabled: false });
  });
});
