/**
 * The timeline in Chromium against a real hub: what flows say shows newest first with who said
 * it, live; the home screen links to it with how much it holds and a mark for what is new since
 * this screen last saw it; one is deleted with its button; it is axe-clean and Tab-reachable.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER, type RunningHub, startHub } from '../helpers/hub.js';
import { accessibilityViolations, unreachableByTab } from './a11y.js';
import { type Browser, launch, screenshots, signedIn } from './browser.js';

let hub: RunningHub;
let browser: Browser;
let page: Page;
const say = async (text: string) =>
  expect(
    (await hub.call('POST', '/api/manager/flow/flowcardaction/homey:manager:notifications/create_notification/run', { body: { args: { text } } })).status,
  ).toBe(200);

beforeAll(async () => {
  hub = await startHub();
  await hub.call('PUT', '/api/manager/system/option/setupDone', { body: { value: true } });
  browser = await launch();
  page = await signedIn(browser.context, hub.url, OWNER, '#/home');
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await hub?.cleanup();
});

describe('the timeline', () => {
  test('is linked from the home with what is new, lists what was said newest first, live, and deletes one', async () => {
    await say('The washing is done');
    await say('The front door was left open');
    const link = page.getByTestId('timeline-link');
    await expect.poll(async () => (await link.textContent())?.trim()).toBe('Timeline · 2new');
    await link.click();
    const items = page.getByTestId('timeline-item');
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.locator('p').allTextContents()).toEqual(['The front door was left open', 'The washing is done']);
    expect(await items.first().locator('strong').textContent()).toBe('Flows');
    // Live: a new one comes in on top.
    await say('A backup was made');
    await expect.poll(() => items.first().locator('p').textContent()).toBe('A backup was made');
    // Shown once: no toast of it over the timeline that already shows it.
    expect(await page.getByTestId('toast').filter({ hasText: 'A backup was made' }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await unreachableByTab(page)).toEqual([]);
    await screenshots(page, 'timeline');
    await items.filter({ hasText: 'The washing is done' }).getByRole('button', { name: 'Delete “The washing is done”' }).click();
    await expect.poll(() => items.count()).toBe(2);
    expect(Object.values(await hub.op('notifications', 'getNotifications')).map((n) => n.excerpt)).not.toContain('The washing is done');
    // Seen: the home's link no longer marks anything new.
    await page.goto(`${hub.url}/#/home`);
    await expect.poll(async () => (await link.textContent())?.trim()).toBe('Timeline · 2');
  });
});
