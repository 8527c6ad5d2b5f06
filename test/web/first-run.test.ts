/**
 * The first-run setup in Chromium against a never-configured hub: language and units, the
 * browser's geolocation, a first dashboard with an app's widget; a reload mid-way resumes at its
 * step; the hub holds each choice after, and the setup does not come back. A hub configured another way never shows it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER } from '../helpers/hub.js';
import { type BrowserGlobals, lanUrl, screenshots, startWebHub, type WebHub } from './browser.js';

let web: WebHub;
beforeAll(async () => {
  web = await startWebHub([], { firstRun: true });
}, 90_000);
afterAll(async () => {
  await web?.close();
});

describe('first run in Chromium', { timeout: 120_000 }, () => {
  test('walks a never-configured hub through language, units, location and a first dashboard', async () => {
    const { hub, browser } = web;
    expect((await hub.call<{ firstRun: boolean }>('GET', '/api/manager/system/state')).body.firstRun).toBe(true);
    await browser.context.grantPermissions(['geolocation'], { origin: hub.url });
    await browser.context.setGeolocation({ latitude: 52.0907, longitude: 5.1214, accuracy: 20 });
    const page = await browser.context.newPage();
    await page.goto(`${hub.url}/`);
    await page.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.clear());
    await page.reload();
    await page.locator('input[name=token]').fill(OWNER);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('first-run').waitFor();
    await screenshots(page, 'first-run-language');

    await page.getByTestId('setup-language').selectOption('nl');
    await page.getByLabel(/Imperial/).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Location' }).waitFor();

    // Saving the language did not end the first run: a reload comes back to where it was.
    expect((await hub.call<{ firstRun: boolean; setupStep: number | null }>('GET', '/api/manager/system/state')).body).toMatchObject({
      firstRun: true,
      setupStep: 1,
    });
    await page.reload();
    await page.getByTestId('first-run').getByRole('heading', { name: 'Location' }).waitFor();
    expect(await page.locator('.steps [aria-current=step]').textContent()).toBe('Location');

    await page.getByTestId('use-browser-location').click();
    await expect.poll(() => page.getByTestId('setup-lat').inputValue()).toBe('52.09070');
    expect(await page.getByTestId('setup-lon').inputValue()).toBe('5.12140');
    await screenshots(page, 'first-run-location');
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByTestId('setup-dashboard-name').fill('Living room');
    // The hub speaks Dutch now: the widget's name comes in its app's Dutch.
    await page.getByLabel(/Systeembelasting/).check();
    await screenshots(page, 'first-run-dashboard');
    await page.getByTestId('setup-finish').click();
    await page.getByTestId('dashboard').getByRole('heading', { name: 'Living room' }).waitFor();

    const i18n = (await hub.call<{ language: string; units: string }>('GET', '/api/manager/i18n/state')).body;
    expect(i18n).toMatchObject({ language: 'nl', units: 'imperial' });
    const where = (await hub.call<{ value: { latitude: number; longitude: number } }>('GET', '/api/manager/geolocation/option/location')).body.value;
    expect(where).toEqual({ latitude: 52.0907, longitude: 5.1214 });
    const dashboards = Object.values(
      (await hub.call<Record<string, { name: string; columns: { widgets: { appWidgetId: string }[] }[] }>>('GET', '/api/manager/dashboards/dashboard')).body,
    );
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]!.columns.flatMap((c) => c.widgets.map((w) => w.appWidgetId))).toEqual(['com.hearth.sysmon:load']);
    expect((await hub.call<{ firstRun: boolean }>('GET', '/api/manager/system/state')).body.firstRun).toBe(false);

    // Not again.
    await page.reload();
    await page.locator('nav').waitFor();
    expect(await page.getByTestId('first-run').count()).toBe(0);
    await page.close();
  });

  test('a hub whose language was set another way does not ask', async () => {
    const { hub } = web;
    await hub.call('DELETE', '/api/manager/system/option/setupDone');
    // Begun and not finished, the setup is still asked for...
    expect((await hub.call<{ firstRun: boolean }>('GET', '/api/manager/system/state')).body.firstRun).toBe(true);
    // ...but never begun, not on a hub configured another way.
    await hub.call('DELETE', '/api/manager/system/option/setupStep');
    expect((await hub.call<{ firstRun: boolean }>('GET', '/api/manager/system/state')).body.firstRun).toBe(false); // language and location are set
    await hub.call('DELETE', '/api/manager/i18n/option/language');
    await hub.call('DELETE', '/api/manager/i18n/option/units');
    await hub.call('DELETE', '/api/manager/geolocation/option/location');
    expect((await hub.call<{ firstRun: boolean }>('GET', '/api/manager/system/state')).body.firstRun).toBe(true);
    await hub.call('PUT', '/api/manager/i18n/option/units', { body: { value: 'metric' } });
    expect((await hub.call<{ firstRun: boolean }>('GET', '/api/manager/system/state')).body.firstRun).toBe(false);
    const bad = await hub.call<{ error_description: string }>('PUT', '/api/manager/system/option/setupDone', { body: { value: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toMatch(/setupDone must be true or false/);
  });

  test("on the hub's plain-http LAN address, the location step says why the browser cannot tell it, instead of a button that fails", async () => {
    const { hub, browser } = web;
    await hub.call('DELETE', '/api/manager/i18n/option/units');
    const page = await browser.context.newPage();
    await page.goto(`${lanUrl(hub.port)}/`);
    expect(await page.evaluate(() => (globalThis as unknown as { isSecureContext: boolean }).isSecureContext)).toBe(false);
    await page.locator('input[name=token]').fill(OWNER);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('first-run').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('location-insecure').waitFor();
    expect(await page.getByTestId('location-insecure').textContent()).toContain('only to secure (https) pages');
    expect(await page.getByTestId('use-browser-location').count()).toBe(0);
    await page.close();
  });
});
