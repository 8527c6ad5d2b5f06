/**
 * The finish of the web app in Chromium against a real hub: arranging widgets by drag and drop
 * and by keyboard, app pictures and icons (only files the manifest names), units beside number
 * settings and errors naming a setting by its label, the insights periods and app names in words.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packApp } from '../../src/apps/catalogue/pack.js';
import { OWNER } from '../helpers/hub.js';
import { screenshots, signedIn, startWebHub, type WebHub, widgetsListed } from './browser.js';

let web: WebHub;
beforeAll(async () => {
  web = await startWebHub([join(import.meta.dirname, 'fixtures/com.test.panel')]);
}, 90_000);
afterAll(async () => {
  await web?.close();
});

type Columns = Array<{ widgets: Array<{ id: string; appWidgetId: string }> }>;
const LOAD = 'com.hearth.sysmon:load';
const GREETING = 'com.hearth.greeter:greeting';

describe('web app polish in Chromium', { timeout: 120_000 }, () => {
  test('arranges widgets by drag and drop, and the same by keyboard', async () => {
    const { hub, browser } = web;
    await widgetsListed(hub, [LOAD, GREETING]);
    const made = await hub.call<{ id: string; columns: Columns }>('POST', '/api/manager/dashboards/dashboard', {
      body: { name: 'Moves', columns: [{ widgets: [{ appWidgetId: LOAD }, { appWidgetId: GREETING }] }, { widgets: [] }] },
    });
    const [a, b] = made.body.columns[0]!.widgets.map((w) => w.id) as [string, string];
    const order = async (): Promise<string[][]> =>
      (await hub.call<{ columns: Columns }>('GET', `/api/manager/dashboards/dashboard/${made.body.id}`)).body.columns.map((c) => c.widgets.map((w) => w.id));
    const page = await signedIn(browser.context, hub.url, OWNER, `#/dashboards/${made.body.id}`);
    await page.getByTestId('arrange').click();

    // Mouse: B onto A goes before it; A onto the second column's free space goes last there.
    await page.locator(`[data-handle="${b}"]`).dragTo(page.locator(`[data-placed="${a}"] b`));
    await expect
      .poll(() =>
        page.locator('[data-column="0"] [data-placed]').evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { placed: string } }).dataset.placed)),
      )
      .toEqual([b, a]);
    await page.locator(`[data-handle="${a}"]`).dragTo(page.locator('[data-column="1"]'), { targetPosition: { x: 40, y: 120 } });
    await expect.poll(() => page.locator('[data-column="1"] [data-placed]').count()).toBe(1);
    await page.getByTestId('save-dashboard').click();
    await page.getByTestId('arrange').waitFor();
    expect(await order()).toEqual([[b], [a]]);

    // Keyboard: Space picks B up, the arrows move it, Space puts it down; Escape puts one back.
    await page.getByTestId('arrange').click();
    await page.locator(`[data-handle="${b}"]`).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    expect(await page.getByTestId('arrange-status').textContent()).toMatch(/put down/);
    await page.locator(`[data-handle="${a}"]`).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByTestId('arrange-status').textContent()).toBe('column 1 of 2, position 1 of 1');
    await page.keyboard.press('Escape');
    await screenshots(page, 'dashboard-arrange-dnd');
    await page.getByTestId('save-dashboard').click();
    await page.getByTestId('arrange').waitFor();
    expect(await order()).toEqual([[], [a, b]]);
    await page.close();
  });

  test('apps show their picture and icon; a number setting has its unit; a refused value names the setting by its label', async () => {
    const { hub, browser } = web;
    // Only what the manifest names, and only a picture inside the app folder ("large" points outside).
    const small = await fetch(`${hub.url}/app/com.test.panel/image/small`);
    expect(small.status).toBe(200);
    expect(small.headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${hub.url}/app/com.test.panel/image/large`)).status).toBe(404);
    expect((await fetch(`${hub.url}/app/com.test.panel/image/app.json`)).status).toBe(404);
    expect((await fetch(`${hub.url}/app/com.test.panel/image/icon`)).headers.get('content-security-policy')).toBe('sandbox');

    // The store shows a release's icon before install: `hearth app pack` inlines it as a data URL;
    // anything else an index says is dropped.
    const store = join(hub.dataDir, 'store');
    await packApp(join(import.meta.dirname, 'fixtures/com.test.panel'), store);
    const index = JSON.parse(await readFile(join(store, 'index.json'), 'utf8')) as { apps: Record<string, { icon?: string; channels: unknown }> };
    expect(index.apps['com.test.panel']!.icon).toMatch(/^data:image\/svg\+xml;base64,/);
    index.apps['com.test.other'] = { icon: 'javascript:alert(1)', channels: index.apps['com.test.panel']!.channels };
    await writeFile(join(store, 'index.json'), JSON.stringify(index));
    const listed = (await hub.call<{ apps: Record<string, { icon: string | null; brandColor: string | null }> }>('GET', '/api/manager/apps/store/')).body.apps;
    expect(listed['com.test.panel']).toMatchObject({ icon: index.apps['com.test.panel']!.icon, brandColor: '#0f766e' });
    expect(listed['com.test.other']!.icon).toBeNull();

    const page = await signedIn(browser.context, hub.url, OWNER, '#/apps');
    const storeIcon = page.locator('[data-store-app="com.test.panel"] [data-testid=app-icon]');
    await expect.poll(() => storeIcon.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    const panel = page.getByTestId('app-com.test.panel');
    const loaded = (sel: string) =>
      panel
        .locator(sel)
        .evaluate(
          (img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth > 0,
        );
    await expect.poll(() => loaded('[data-testid=app-image]')).toBe(true);
    await expect.poll(() => loaded('[data-testid=app-icon]')).toBe(true);
    expect(await panel.getByTestId('app-description').textContent()).toMatch(/Test fixture/);

    const sysmon = page.getByTestId('app-com.hearth.sysmon');
    // "Configure" opens its own page; "Settings" is the form of what its manifest declares.
    expect(await sysmon.getByTestId('settings-page-link').textContent()).toBe('Configure');
    await sysmon.getByRole('button', { name: 'Settings' }).click();
    const interval = sysmon.locator('label', { hasText: 'Sample every (seconds)' });
    expect(await interval.locator('.unit').textContent()).toBe('s');
    await interval.locator('input').fill('1');
    await interval.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => interval.locator('.err').textContent()).toBe("setting 'Sample every (seconds)' (interval) must be at least 5");
    await page.close();
  });

  test('insights name their periods and the apps their logs come from', async () => {
    const { hub, browser } = web;
    const page = await signedIn(browser.context, hub.url, OWNER, '#/insights');
    const options = await page.getByTestId('resolution').locator('option').allTextContents();
    expect(options.slice(0, 3)).toEqual(['Last hour', 'Last 6 hours', 'Last 24 hours']);
    await expect
      .poll(async () => (await hub.call<Record<string, unknown>>('GET', '/api/manager/insights/log')).body, { timeout: 60_000 })
      .toHaveProperty(['homey:app:com.hearth.sysmon:cpu-load']);
    await page.reload();
    await expect.poll(() => page.getByTestId('owner-homey:app:com.hearth.sysmon:cpu-load').textContent()).toBe('System monitor');
    expect(await page.getByTestId('owner-homey:manager:system:cpu').textContent()).toBe('the hub');
    await page.close();
  });
});
