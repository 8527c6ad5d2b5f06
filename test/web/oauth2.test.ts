/**
 * The login_oauth2 pairing view in Chromium: the app's sign-in page opens from the view, the
 * provider (a server the test runs) ends the sign-in on Athom's callback page, and the address
 * pasted into the view signs the driver in; the pairing goes on to the devices it lists.
 */
import type { Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { OAUTH_APP, startProvider, writeOAuthApp } from '../managers/devices/oauth2-app.js';
import { type Browser, launch, screenshots, shown, signedIn } from './browser.js';

let hub: RunningHub;
let browser: Browser;
let page: Page;
let provider: { server: Server; url: string };

beforeAll(async () => {
  provider = await startProvider();
  const appsDir = await tempDir('hearth-web-oauth2-');
  await writeOAuthApp(appsDir, provider.url, 'showView');
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, OAUTH_APP);
  browser = await launch();
  page = await signedIn(browser.context, hub.url, OWNER, '#/devices');
}, 90_000);

afterAll(async () => {
  await browser?.close();
  provider?.server.close();
  await hub?.cleanup();
});

describe('login_oauth2 in the browser', () => {
  test("signs in at the provider, takes the pasted address, and adds the driver's device", { timeout: 60_000 }, async () => {
    // The drivers socket opens late: its first connection is held until the driver has sent its
    // sign-in address (on showView, after the page loaded the session), then dropped; the page
    // reconnects. The address was sent while no socket listened: the page must load it again.
    let first = true;
    await page.routeWebSocket(
      (url) => url.pathname.startsWith('/api/manager/drivers'),
      async (ws) => {
        if (!first) {
          ws.connectToServer();
          return;
        }
        first = false;
        await poll(
          async () => (await hub.call<{ stdout: { text: string } }>('GET', `/api/manager/apps/app/${OAUTH_APP}/log`)).body,
          (log) => log.stdout?.text.includes('sent the sign-in address') === true,
          'the driver sending its sign-in address',
        );
        await ws.close();
      },
    );
    await page.getByTestId('add-device').click();
    await page.getByTestId('pair-driver').selectOption({ label: `Cloud thermostat (${OAUTH_APP})` });
    await page.getByTestId('pair-start').click();
    const view = page.getByTestId('pair-oauth2');
    expect(await view.locator('p').first().textContent()).toBe('Sign in with your Thermo account');
    const link = view.getByTestId('pair-oauth2-open');
    const href = (await link.getAttribute('href'))!;
    expect(href.startsWith(`${provider.url}/authorize?`)).toBe(true);
    expect(await link.getAttribute('target')).toBe('_blank');
    await screenshots(page, 'pair-oauth2');
    // The person signs in in another tab; it ends on Athom's callback page, which cannot reach the hub.
    const landed = (await fetch(href, { redirect: 'manual' })).headers.get('location')!;
    await view.getByTestId('pair-oauth2-address').fill(landed);
    await view.getByTestId('pair-oauth2-continue').click();
    // Signed in: the pairing goes on to the devices the driver lists.
    await shown(page, 'pair-device-Thermostat');
    await page.getByTestId('pair-add').click();
    await shown(page, 'pair-done');
    expect(await page.getByTestId('pair-done').textContent()).toBe('Added Thermostat.');
    const devices = await hub.call<Record<string, { name: string }>>('GET', '/api/manager/devices/device');
    expect(Object.values(devices.body).map((d) => d.name)).toEqual(['Thermostat']);
  });
});
