/**
 * A family in Chromium (issue 42): the owner names themselves and adds Dad on the People page,
 * Dad's phone (375 px) signs in from the QR code's link as Dad, taps "I'm home" on the home
 * screen and the owner's page shows it live; as the last one home Dad taps "I'm away", the
 * last-person-left flow runs and the timeline says his name; the owner disables Dad and his phone
 * is signed out at once. The People page is axe-clean and Tab-reachable.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER, type RunningHub, startHub } from '../helpers/hub.js';
import { accessibilityViolations, unreachableByTab } from './a11y.js';
import { type Browser, launch, screenshots, signedIn } from './browser.js';

let hub: RunningHub;
let owner: Browser;
let phone: Browser;
let page: Page;

beforeAll(async () => {
  hub = await startHub();
  owner = await launch();
  phone = await launch();
  page = await signedIn(owner.context, hub.url, OWNER, '#/people');
}, 90_000);
afterAll(async () => {
  await phone?.close();
  await owner?.close();
  await hub?.cleanup();
});

describe('people', () => {
  test('the owner adds Dad, whose phone signs in as him and says he is home and away; disabled, it is signed out', async () => {
    await expect.poll(async () => page.getByTestId('signed-in-as').textContent()).toBe('Signed in as Owner');
    await page.getByTestId('my-name').fill('Mum');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => page.getByTestId('signed-in-as').textContent()).toBe('Signed in as Mum');
    await expect.poll(async () => (await hub.call<{ name: string }>('GET', '/api/manager/users/user/me')).body.name).toBe('Mum');

    await page.getByTestId('new-person-name').fill('Dad');
    await page.getByTestId('new-person-role').selectOption('user');
    await page.getByTestId('add-person').click();
    const link = (await page.getByTestId('invite-url').textContent())!;
    expect(link).toMatch(new RegExp(`^${hub.url}/#login=`));
    await expect.poll(() => page.getByTestId('people-Dad').count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await unreachableByTab(page)).toEqual([]);
    await screenshots(page, 'people');

    // The flow the family made: the last one out is named on the timeline.
    await hub.call('POST', '/api/manager/flow/flow', {
      body: {
        name: 'last out',
        trigger: { id: 'homey:manager:presence:last_user_leave', args: {} },
        actions: [{ id: 'homey:manager:notifications:create_notification', args: { text: '[[name]] left last' } }],
      },
    });

    // Dad's phone.
    const dad = await phone.context.newPage();
    await dad.setViewportSize({ width: 375, height: 740 });
    await dad.goto(link);
    await dad.locator('nav').waitFor();
    await expect.poll(async () => dad.getByTestId('signed-in-as').textContent()).toBe('Signed in as Dad');
    await dad.goto(`${hub.url}/#/home`);
    await dad.getByTestId('presence-toggle').click();
    await expect.poll(async () => dad.getByTestId('person-Dad').getAttribute('data-state')).toBe('home');
    // Live on the owner's page.
    await expect.poll(async () => page.getByTestId('people-Dad').textContent()).toContain('home');
    await screenshots(dad, 'home-presence');
    await dad.getByTestId('presence-toggle').click();
    await expect.poll(async () => dad.getByTestId('person-Dad').getAttribute('data-state')).toBe('away');
    await expect.poll(async () => Object.values(await hub.op('notifications', 'getNotifications')).map((n) => n.excerpt)).toContain('Dad left last');

    // Disabled: his phone is signed out at once, and says why.
    await page.getByTestId('enabled-Dad').click();
    await expect.poll(async () => page.getByTestId('people-Dad').textContent()).toContain('disabled');
    await expect.poll(() => dad.locator('input[name=token]').count(), { timeout: 15_000 }).toBe(1);
  });
});
