/**
 * One-time link sign-in in Chromium against a real hub: the link `hearth login` prints signs a
 * browser in (a session named after it, listed and revocable), works once, and expires; a
 * signed-in browser shows such a link as a QR code for a phone.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI, OWNER, tempDir } from '../helpers/hub.js';
import { pause } from '../helpers/poll.js';
import { type BrowserGlobals, screenshots, signedIn, startWebHub, type WebHub } from './browser.js';

const exec = promisify(execFile);
let web: WebHub;

beforeAll(async () => {
  web = await startWebHub([]);
}, 90_000);
afterAll(async () => {
  await web?.close();
});

interface Token {
  id: string;
  name: string;
  scopes: string[];
  session: boolean;
}

/** A fresh page with nothing stored, opened at `url` (a sign-in link). */
async function openSignedOut(url: string): Promise<Page> {
  const page = await web.browser.context.newPage();
  await page.goto(`${web.hub.url}/#/`);
  await page.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.clear());
  await page.goto('about:blank'); // a real load of the link, not a hash change in the open page
  await page.goto(url);
  return page;
}

const stored = (page: Page): Promise<string | null> => page.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.getItem('hearth.token'));

describe('sign-in by one-time link in Chromium', { timeout: 120_000 }, () => {
  test('the link hearth login prints signs a browser in once, as a session named after it', async () => {
    const { hub } = web;
    const { stdout } = await exec(
      process.execPath,
      [CLI, 'login', '--port', String(hub.port), '--scope', 'service.dashboard.readonly', '--scope', 'service.system.readonly'],
      {
        env: { PATH: process.env.PATH, HEARTH_TOKEN: OWNER },
      },
    );
    const code = /#login=([A-Za-z0-9_-]+)\s*$/.exec(stdout)![1]!;
    // The printed host is this machine's LAN address; the test's browser reaches the hub on loopback.
    const page = await openSignedOut(`${hub.url}/#login=${code}`);
    await page.locator('nav').waitFor();
    expect(page.url()).toBe(`${hub.url}/#/dashboards`); // the code left the address bar
    const token = await stored(page);
    expect(token).toMatch(/^hth_/);
    const sessions = Object.values((await hub.call<Record<string, Token>>('GET', '/api/manager/tokens/token')).body).filter((t) => t.session);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ name: 'Chrome on Linux (signed in by link)', scopes: ['service.dashboard.readonly', 'service.system.readonly'] });
    await page.close();

    // Once only: the same link again lands on the sign-in form with the hub's sentence.
    const again = await openSignedOut(`${hub.url}/#login=${code}`);
    await again.locator('input[name=token]').waitFor();
    await expect.poll(() => again.locator('.signin .err').textContent()).toMatch(/already used/);
    expect(await stored(again)).toBeNull();
    await screenshots(again, 'signin-link-used');
    await again.close();
  });

  test('an expired link says so', async () => {
    const { hub } = web;
    const made = await hub.call<{ code: string }>('POST', '/api/manager/tokens/login', { body: { scopes: ['service.dashboard.readonly'], ttlSeconds: 1 } });
    await pause(1200, 'the 1 s code expired (redeeming it to see would use it up)');
    // Pasted into a tab that is already open at the sign-in form: a hash change, not a load.
    const page = await openSignedOut(`${hub.url}/#/`);
    await page.locator('input[name=token]').waitFor();
    await page.evaluate((c) => void ((globalThis as unknown as { location: { hash: string } }).location.hash = `#login=${c}`), made.body.code);
    await expect.poll(() => page.locator('.signin .err').textContent()).toMatch(/expired/);
    expect(await stored(page)).toBeNull();
    await page.close();
  });

  test('a signed-in browser shows a QR code of a new link; the link signs another browser in; its session is revoked from the list', async () => {
    const { hub, browser } = web;
    const page = await signedIn(browser.context, hub.url, OWNER, '#/system');
    const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Sign in a phone' }) });
    await card.getByTestId('make-login').click();
    const qr = card.getByTestId('qr');
    await qr.waitFor();
    const link = (await card.getByTestId('login-url').textContent())!;
    expect(link).toMatch(new RegExp(`^${hub.url}/#login=[A-Za-z0-9_-]+$`));
    expect(Number(await qr.getAttribute('data-modules'))).toBeGreaterThanOrEqual(21);
    await screenshots(page, 'system-phone-login');
    // Where zbar is installed, the picture is read back as the link (the encoder's own test checks its parts).
    if (existsSync('/usr/bin/zbarimg')) {
      const png = join(await tempDir('hearth-qr-'), 'qr.png');
      await qr.screenshot({ path: png });
      expect(spawnSync('/usr/bin/zbarimg', ['-q', '--raw', png], { encoding: 'utf8' }).stdout.trim()).toBe(link);
    }

    const phone = await openSignedOut(link);
    await phone.locator('nav').waitFor();
    const phoneToken = await stored(phone);
    await phone.close();
    // Signed in with the default choices, a phone sees the devices and the zones of the home.
    for (const path of ['/api/manager/devices/device', '/api/manager/zones/zone']) {
      expect((await hub.call('GET', path, { token: phoneToken })).status, path).toBe(200);
    }

    // One profile, one localStorage: the phone's sign-in replaced the owner's token there.
    await page.close();
    const admin = await signedIn(browser.context, hub.url, OWNER, '#/system');
    const tokens = admin.locator('.card', { has: admin.getByRole('heading', { name: 'API tokens' }) });
    const row = tokens.locator('li', { hasText: '(signed in by link)' }).filter({ hasText: 'session' }).last();
    await row.waitFor();
    admin.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(async () => (await hub.call('GET', '/api/manager/dashboards/dashboard', { token: phoneToken })).status).toBe(401);
    await admin.close();
  });
});
