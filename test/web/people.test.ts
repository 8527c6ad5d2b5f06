/**
 * A family of four in Chromium (issue 42), each on their own phone (375 px) but the owner: the
 * owner names themselves and adds Dad and Kid on the People page and a guest, the sitter, limited
 * to the living room; each phone signs in from its QR code's link as its person. The sitter's
 * phone shows only the living room's lamp and its own account, switches the lamp, and finds
 * nothing else; Dad and Kid tap "I'm home", the owner's page shows it live; Kid leaves, then Dad
 * as the last one home taps "I'm away", the last-person-left flow runs and the timeline names
 * him. The owner disables Dad and his phone is signed out at once. Axe-clean and Tab-reachable.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { APP, pairLamp, writeLampApp } from '../managers/devices/lamp-app.js';
import { accessibilityViolations, unreachableByTab } from './a11y.js';
import { type Browser, launch, launchPhones, screenshots, signedIn } from './browser.js';

let hub: RunningHub;
let owner: Browser;
let phones: Awaited<ReturnType<typeof launchPhones>>;
let page: Page;
let living: string;
/** A PNG of one pixel. */
const PHOTO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

beforeAll(async () => {
  const appsDir = await tempDir('hearth-web-people-');
  await writeLampApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  const root = Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/zones/zone')).body)[0]!;
  living = (await hub.call<{ id: string }>('POST', '/api/manager/zones/zone', { body: { name: 'Living room', parent: root } })).body.id;
  const kitchen = (await hub.call<{ id: string }>('POST', '/api/manager/zones/zone', { body: { name: 'Kitchen', parent: root } })).body.id;
  const [cosy, oven] = [await pairLamp(hub, 0), await pairLamp(hub, 1)];
  await hub.call('PUT', `/api/manager/devices/device/${cosy.id}`, { body: { zone: living, name: 'Reading lamp' } });
  await hub.call('PUT', `/api/manager/devices/device/${oven.id}`, { body: { zone: kitchen, name: 'Cooker hood' } });
  owner = await launch();
  phones = await launchPhones();
  page = await signedIn(owner.context, hub.url, OWNER, '#/people');
}, 90_000);
afterAll(async () => {
  await phones?.close();
  await owner?.close();
  await hub?.cleanup();
});

/** Adds someone on the People page: the link their phone signs in with. */
async function add(name: string, role: string, rooms: string[] = []): Promise<string> {
  await page.getByTestId('new-person-name').fill(name);
  await page.getByTestId('new-person-role').selectOption(role);
  for (const room of rooms) await page.getByTestId('rooms-the guest').getByLabel(room).check();
  await page.getByTestId('add-person').click();
  await expect.poll(() => page.getByTestId(`people-${name}`).count()).toBe(1);
  // The person's row comes with the users event, their link with the answer: until it has come,
  // the link shown is the one before (already used: the phone would not sign in).
  await expect.poll(async () => page.getByTestId('invite').last().textContent()).toContain(`${name}'s phone`);
  const link = (await page.getByTestId('invite-url').last().textContent())!;
  expect(link).toMatch(new RegExp(`^${hub.url}/#login=`));
  return link;
}

/** A phone signed in from `link`, checked to be `name`'s. */
async function phoneOf(name: string, link: string): Promise<Page> {
  const phone = await phones.phone();
  await phone.goto(link);
  await phone.locator('nav').waitFor();
  await expect.poll(async () => phone.getByTestId('signed-in-as').textContent()).toBe(`Signed in as ${name}`);
  await phone.goto(`${hub.url}/#/home`);
  return phone;
}

// Four browsers at once: long on a busy machine.
describe('a family', { timeout: 120_000 }, () => {
  test('the owner adds three, the sitter reaches only the living room, the last one out is named, a disabled phone is signed out', async () => {
    await page.getByTestId('my-name').fill('Mum');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => page.getByTestId('signed-in-as').textContent()).toBe('Signed in as Mum');

    const dadLink = await add('Dad', 'user');
    const kidLink = await add('Kid', 'user');
    const sitterLink = await add('Sitter', 'guest', ['Living room']);
    expect(
      Object.values((await hub.call<Record<string, { name: string; zones: string[] }>>('GET', '/api/manager/users/user')).body).find((u) => u.name === 'Sitter')
        ?.zones,
    ).toEqual([living]);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await unreachableByTab(page)).toEqual([]);
    await screenshots(page, 'people');

    // The sitter: the living room's lamp, switched; the kitchen's is not there; two pages only.
    const sitter = await phoneOf('Sitter', sitterLink);
    const lamp = sitter.getByTestId('home-device-Reading lamp').locator('button[aria-pressed]');
    expect(await lamp.getAttribute('aria-pressed')).toBe('false');
    await lamp.click();
    await expect.poll(() => lamp.getAttribute('aria-pressed')).toBe('true');
    expect(await sitter.getByTestId('home-device-Cooker hood').count()).toBe(0);
    expect(await sitter.locator('nav ul a').allTextContents()).toEqual([' Home', ' People']);
    expect(await sitter.getByTestId('presence').count()).toBe(1);
    expect(await sitter.getByTestId('timeline-link').count()).toBe(0);
    await screenshots(sitter, 'home-guest');

    // The flow the family made: the last one out is named on the timeline.
    await hub.call('POST', '/api/manager/flow/flow', {
      body: {
        name: 'last out',
        trigger: { id: 'homey:manager:presence:last_user_leave', args: {} },
        actions: [{ id: 'homey:manager:notifications:create_notification', args: { text: '[[name]] left last' } }],
      },
    });
    const dad = await phoneOf('Dad', dadLink);
    // Dad's picture: a photo from his phone, made small in the browser, checked by the hub.
    await dad.goto(`${hub.url}/#/people`);
    await dad.getByTestId('my-picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PHOTO });
    await expect.poll(() => dad.locator('.avatar img').count()).toBeGreaterThan(0);
    await dad.goto(`${hub.url}/#/home`);
    await expect.poll(() => dad.getByTestId('person-Dad').locator('img').count()).toBe(1);
    const kid = await phoneOf('Kid', kidLink);
    for (const phone of [dad, kid]) await phone.getByTestId('presence-toggle').click();
    await expect.poll(async () => dad.getByTestId('person-Kid').getAttribute('data-state')).toBe('home');
    // Live on the owner's page.
    await expect.poll(async () => page.getByTestId('people-Dad').textContent()).toContain('home');
    await screenshots(dad, 'home-presence');
    await kid.getByTestId('presence-toggle').click();
    await expect.poll(async () => kid.getByTestId('person-Kid').getAttribute('data-state')).toBe('away');
    await dad.getByTestId('presence-toggle').click();
    await expect.poll(async () => dad.getByTestId('person-Dad').getAttribute('data-state')).toBe('away');
    await page.goto(`${hub.url}/#/timeline`);
    // Newest first: the flow's words, then who changed the family.
    await expect.poll(async () => (await page.getByTestId('timeline-item').allTextContents())[0]).toContain('Dad left last');
    expect((await page.getByTestId('timeline-item').allTextContents()).slice(1)).toEqual([
      expect.stringContaining('Mum added Sitter as a guest'),
      expect.stringContaining('Mum added Kid as a user'),
      expect.stringContaining('Mum added Dad as a user'),
    ]);

    // Disabled: his phone is signed out at once.
    await page.goto(`${hub.url}/#/people`);
    await page.getByTestId('enabled-Dad').click();
    await expect.poll(async () => page.getByTestId('people-Dad').textContent()).toContain('disabled');
    await expect.poll(() => dad.locator('input[name=token]').count(), { timeout: 15_000 }).toBe(1);
  });
});
