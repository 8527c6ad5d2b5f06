/**
 * The web app end to end: Debian's Chromium against a real hub running copies of the example
 * apps, speaking into a WAV folder. Each test signs in on its own page, so they do not depend on
 * each other's order. Screenshots of every page (desktop and 375 px) land in test/artifacts/.
 */
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packApp } from '../../src/apps/catalogue/pack.js';
import { SCOPES } from '../../src/core/scopes.js';
import { OWNER, ROOT, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { ARTIFACTS, type Browser, type BrowserGlobals, screenshot, screenshots, signedIn, startWebHub, type WebHub } from './browser.js';

let web: WebHub;
let hub: RunningHub;
let browser: Browser;
let audioOut: string;
/** Temp folders the tests made (the hub helper removes only its own). */
const made: string[] = [];

beforeAll(async () => {
  web = await startWebHub([join(import.meta.dirname, 'fixtures/com.test.door')]);
  ({ hub, browser, audioOut } = web);
}, 90_000);

afterAll(async () => {
  await web?.close();
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

async function appState(page: Page, id: string): Promise<string> {
  return (await page.locator(`[data-testid="app-${id}"] [data-testid=app-state]`).textContent()) ?? '';
}

// Browser steps wait up to 60 s each (a backup, an insights sample): longer than vitest's
// default test timeout when the whole suite shares two cores.
describe('web app in Chromium', { timeout: 120_000 }, () => {
  test('signs in with a pasted token; a wrong token shows the API sentence', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${hub.url}/`);
    await page.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.clear());
    await page.reload();
    await screenshots(page, 'signin');
    await page.locator('input[name=token]').fill('hth_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('.err').textContent()).toMatch(/token/i);
    await page.locator('input[name=token]').fill(OWNER);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('nav').waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.getItem('hearth.token'))).toBe(OWNER);
    // Signed in, the first screen is Home.
    expect(await page.locator('[data-testid=nav-home]').getAttribute('class')).toBe('active');
    await page.getByTestId('home').waitFor();
    await page.close();
  });

  test('at phone width the menu button opens the navigation', async () => {
    const page = await signedIn(browser.context, hub.url, OWNER);
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.getByTestId('nav-apps').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'menu' }).click();
    await screenshot(page, 'menu-375');
    await page.getByTestId('nav-apps').click();
    await page.locator('main[data-page=apps]').waitFor();
    expect(await page.getByTestId('nav-apps').isVisible()).toBe(false);
    expect(
      await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(375);
    await page.close();
  });

  test('the first page loads under 300 KB transferred, signed out and signed in', async () => {
    const created = await hub.call<{ id: string }>('POST', '/api/manager/dashboards/dashboard', {
      body: { name: 'Weight check', columns: [{ widgets: [{ appWidgetId: 'com.hearth.sysmon:load' }, { appWidgetId: 'com.hearth.greeter:greeting' }] }] },
    });
    const page = await browser.context.newPage();
    // The profile is shared with the other tests: switch the cache off so every byte is counted.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    let bytes = 0;
    cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => void (bytes += e.encodedDataLength));
    const load = async (hash: string): Promise<number> => {
      await page.goto('about:blank'); // a real load, not a hash change within the page
      bytes = 0;
      await page.goto(`${hub.url}/${hash}`, { waitUntil: 'networkidle' });
      return bytes;
    };
    await page.goto(`${hub.url}/`);
    await page.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.clear());
    const signedOut = await load('#/');
    expect(signedOut).toBeGreaterThan(10_000);
    expect(signedOut).toBeLessThan(300 * 1024);
    await page.evaluate(
      (t) => (globalThis as unknown as BrowserGlobals & { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('hearth.token', t),
      OWNER,
    );
    const dashboard = await load(`#/dashboards/${created.body.id}`);
    await page.frameLocator('iframe[title="System load"]').locator('#value').waitFor();
    expect(dashboard).toBeGreaterThan(signedOut);
    expect(dashboard).toBeLessThan(300 * 1024);
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(join(ARTIFACTS, 'web-transfer.json'), JSON.stringify({ signedOutBytes: signedOut, dashboardBytes: dashboard }, null, 2));
    await page.close();
  });

  test("creates a dashboard with example widgets that render through Homey's widget API", async () => {
    const page = await signedIn(browser.context, hub.url, OWNER);
    await page.getByTestId('new-dashboard').click();
    await page.getByTestId('new-dashboard-name').fill('Living room');
    const before = page.url();
    await page.getByRole('button', { name: 'Create' }).click();
    // Arrange only once the new dashboard is shown: clicked earlier, it arranges the one before.
    await expect.poll(() => page.url()).not.toBe(before);
    await page.getByTestId('dashboard').getByRole('heading', { name: 'Living room' }).waitFor();
    await page.getByTestId('arrange').click();
    expect(await page.getByTestId('dashboard-name').inputValue()).toBe('Living room');
    await page.getByTestId('add-widget-select-0').selectOption('com.hearth.greeter:greeting');
    await page.getByTestId('add-widget-0').click();
    await page.getByTestId('autocomplete-person').fill('ada');
    await page.getByRole('option', { name: /Ada/ }).click();
    await page.getByTestId('add-widget-select-1').selectOption('com.hearth.sysmon:load');
    await page.getByTestId('add-widget-1').click();
    await screenshots(page, 'dashboard-arrange');
    await page.getByTestId('save-dashboard').click();
    await page.getByTestId('arrange').waitFor();

    const dashboards = await hub.call<
      Record<string, { name: string; columns: Array<{ widgets: Array<{ appWidgetId: string; settings: Record<string, unknown> }> }> }>
    >('GET', '/api/manager/dashboards/dashboard');
    const saved = Object.values(dashboards.body).find((d) => d.name === 'Living room');
    expect(saved?.columns[0]?.widgets[0]?.appWidgetId).toBe('com.hearth.greeter:greeting');
    // The chosen autocomplete result is stored whole.
    expect(saved?.columns[0]?.widgets[0]?.settings.person).toEqual({ id: 'ada', name: 'Ada', description: 'Lovelace' });

    // The greeter's page reads the person from Homey.getSettings() and shows what its Web API answers.
    const greeter = page.frameLocator('iframe[title="Greeting"]');
    const expected = async (): Promise<string> =>
      (await hub.call<{ text: string }>('GET', '/api/app/com.hearth.greeter/widgets/greeting/?person=Ada')).body.text;
    await expect.poll(async () => (await greeter.locator('#greeting').textContent()) === (await expected()), { timeout: 15_000 }).toBe(true);
    expect(await greeter.locator('#greeting').textContent()).toContain('Ada');
    const load = page.frameLocator('iframe[title="System load"]');
    await expect.poll(() => load.locator('#value').textContent(), { timeout: 15_000 }).toMatch(/^\d+\.\d\d$/);
    expect(await page.locator('iframe[title="Greeting"]').getAttribute('sandbox')).toBe('allow-scripts allow-forms');
    expect(
      await page
        .locator('iframe[title="Greeting"]')
        .evaluate((f) => (f as unknown as { getBoundingClientRect(): { height: number } }).getBoundingClientRect().height),
    ).toBe(80);
    await screenshots(page, 'dashboards');
    await page.close();
  });

  test('disabling and enabling an app shows its state change live', async () => {
    const page = await signedIn(browser.context, hub.url, OWNER, '#/apps');
    const card = page.getByTestId('app-com.hearth.greeter');
    await expect.poll(() => appState(page, 'com.hearth.greeter'), { timeout: 15_000 }).toBe('running');
    await card.getByTestId('disable').click();
    // It passes through 'stopping' to 'stopped', each step pushed over the apps namespace.
    await expect.poll(() => appState(page, 'com.hearth.greeter'), { timeout: 15_000 }).toBe('stopped');
    expect((await hub.call<{ state: string; enabled: boolean }>('GET', '/api/manager/apps/app/com.hearth.greeter')).body).toMatchObject({
      enabled: false,
      state: 'stopped',
    });
    await card.getByTestId('enable').click();
    await expect.poll(() => appState(page, 'com.hearth.greeter'), { timeout: 15_000 }).toBe('running');
    // Settings come from the manifest's definitions; a saved value reaches the app's settings.
    await card.getByRole('button', { name: 'Settings' }).click();
    const who = card.locator('label', { hasText: 'Who to greet' });
    await who.locator('input').fill('Grace');
    await who.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await hub.call('GET', '/api/manager/apps/app/com.hearth.greeter/setting/name')).body, { timeout: 15_000 }).toBe('Grace');
    await card.locator('label', { hasText: 'Style' }).locator('select').selectOption('formal');
    await expect.poll(async () => (await hub.call('GET', '/api/manager/apps/app/com.hearth.greeter/setting/style')).body, { timeout: 15_000 }).toBe('formal');
    // The raw output and a garbage collection are behind "Advanced".
    expect(await card.getByRole('button', { name: 'Collect garbage' }).isVisible()).toBe(false);
    await card.locator('summary', { hasText: 'Advanced' }).click();
    await card.getByRole('button', { name: 'Collect garbage' }).waitFor();
    await expect.poll(() => card.locator('pre').first().textContent(), { timeout: 15_000 }).toMatch(/starting com\.hearth\.greeter/);
    await screenshots(page, 'apps');
    await page.close();
  });

  test('charts an insights log with data', async () => {
    const page = await signedIn(browser.context, hub.url, OWNER, '#/insights');
    // The hub samples its own CPU every 10 s: wait until the log has its first value.
    await expect
      .poll(async () => (await hub.call<{ lastValue: number | null }>('GET', '/api/manager/insights/log/homey:manager:system:cpu')).body.lastValue, {
        timeout: 30_000,
      })
      .not.toBeNull();
    await page.reload();
    // Opened for the first time here, the page charts a log without being asked.
    const chart = page.getByTestId('chart');
    await expect.poll(() => chart.getAttribute('data-points'), { timeout: 15_000 }).toMatch(/^[1-9]\d*$/);
    expect(await page.getByTestId('log-homey:manager:system:rss').isChecked()).toBe(true);
    await page.getByTestId('log-homey:manager:system:cpu').check();
    await page.getByTestId('log-homey:manager:system:load').check();
    // An axis for every unit, each labelled: MB, %, and the unitless load by its title.
    await expect
      .poll(async () => JSON.parse((await chart.getAttribute('data-axes')) ?? '[]'), { timeout: 15_000 })
      .toEqual([
        { label: 'MB', side: 'left' },
        { label: '%', side: 'right' },
        { label: 'System load (1 min)', side: 'left' },
      ]);
    expect(await page.getByTestId('owner-homey:manager:system:cpu').textContent()).toBe('the hub');
    expect(await chart.locator('canvas').count()).toBe(1);
    expect(await page.locator('.u-legend').textContent()).toContain('Hub CPU use');
    // The list follows the insights namespace: the hub's next sample moves the time without a reload.
    const stamp = page.getByTestId('updated-homey:manager:system:cpu');
    const shown = await stamp.textContent();
    await expect.poll(() => stamp.textContent(), { timeout: 30_000 }).not.toBe(shown);
    await screenshots(page, 'insights');
    await page.getByTestId('resolution').selectOption('last24Hours');
    await expect.poll(() => chart.getAttribute('data-points')).toMatch(/^[1-9]\d*$/);
    await page.close();
  }, 90_000);

  test('charts a boolean log as bands beside a number log', async () => {
    const door = 'homey:app:com.test.door:front-door';
    await expect
      .poll(async () => (await hub.call<{ lastValue: boolean | null }>('GET', `/api/manager/insights/log/${door}`)).body.lastValue, { timeout: 30_000 })
      .toBe(true);
    const page = await signedIn(browser.context, hub.url, OWNER, '#/insights');
    await page.getByTestId(`log-${door}`).check();
    await page.getByTestId('log-homey:app:com.test.door:hall-temperature').check();
    const chart = page.getByTestId('chart');
    // 11 temperatures in their own buckets; the door's state carries over into every later bucket.
    await expect.poll(async () => Number(await chart.getAttribute('data-points')), { timeout: 15_000 }).toBeGreaterThan(22);
    expect(await page.getByTestId(`last-${door}`).textContent()).toBe('open');
    expect(await page.locator('.u-legend').textContent()).toContain('Front door');
    await screenshots(page, 'insights-bands');
    await page.close();
  }, 90_000);

  test('says a sentence into the audio-out folder and runs a backup that gets listed', async () => {
    const page = await signedIn(browser.context, hub.url, OWNER, '#/system');
    const before = (await readdir(audioOut)).filter((f) => f.endsWith('.wav')).length;
    await page.getByTestId('say-text').fill('Hello from the web app');
    await page.getByTestId('say').click();
    await page.getByTestId('spoken').waitFor({ timeout: 30_000 });
    const wavs = (await readdir(audioOut)).filter((f) => f.endsWith('.wav'));
    expect(wavs.length).toBe(before + 1);

    await page.getByTestId('backup-now').click();
    const rows = page.getByTestId('backups').locator('tr td.num');
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBeGreaterThan(0);
    const state = await hub.call<{ backups: Array<{ file: string; size: number }> }>('GET', '/api/manager/backup/state');
    expect(state.body.backups.length).toBeGreaterThan(0);
    const name = state.body.backups[0]!.file.split('/').pop()!;
    expect(await page.getByTestId('backups').textContent()).toContain(name);
    await screenshots(page, 'system');
    await page.close();
  }, 120_000);

  test('renames and deletes a dashboard; another client sees the rename live', async () => {
    const created = await hub.call<{ id: string }>('POST', '/api/manager/dashboards/dashboard', {
      body: { name: 'Kitchen', columns: [{ widgets: [{ appWidgetId: 'com.hearth.sysmon:load' }] }] },
    });
    const page = await signedIn(browser.context, hub.url, OWNER, `#/dashboards/${created.body.id}`);
    await page.getByTestId('arrange').click();
    await page.getByTestId('dashboard-name').fill('Kitchen wall');
    const height = page.locator('.placed label', { hasText: 'Height' }).locator('input');
    await height.fill('tall');
    await height.blur();
    await page.getByTestId('save-dashboard').click();
    await expect.poll(() => page.locator('.arrange .toolbar .err').textContent()).toMatch(/pixels or a percentage/);
    await height.fill('200');
    await height.blur();
    await page.getByTestId('save-dashboard').click();
    await page.locator('.dashboard h2', { hasText: 'Kitchen wall' }).waitFor();
    const saved = await hub.call<{ name: string; columns: Array<{ widgets: Array<{ height: unknown }> }> }>(
      'GET',
      `/api/manager/dashboards/dashboard/${created.body.id}`,
    );
    expect(saved.body.name).toBe('Kitchen wall');
    expect(saved.body.columns[0]?.widgets[0]?.height).toBe(200);
    const frame = page.locator('iframe[title="System load"]');
    await expect.poll(() => frame.evaluate((f) => (f as unknown as { getBoundingClientRect(): { height: number } }).getBoundingClientRect().height)).toBe(200);
    // A change made elsewhere (here: straight through the API) arrives over the WebSocket.
    await hub.call('PUT', `/api/manager/dashboards/dashboard/${created.body.id}`, { body: { name: 'Kitchen tablet' } });
    await page.locator('.dashboard h2', { hasText: 'Kitchen tablet' }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('dashboard-more').locator('summary').click();
    await page.locator('.dashboard').getByRole('button', { name: 'Delete this dashboard' }).click();
    await expect.poll(async () => (await hub.call('GET', `/api/manager/dashboards/dashboard/${created.body.id}`)).status).toBe(404);
    await expect.poll(() => page.locator('.tabs').textContent()).not.toContain('Kitchen');
    await page.close();
  });

  test("shows the API's error sentence next to the control that caused it", async () => {
    const page = await signedIn(browser.context, hub.url, OWNER, '#/system');
    const pinForm = page.getByTestId('pin-state').locator('xpath=..');
    await pinForm.locator('input[type=password]').fill('12');
    await pinForm.getByRole('button', { name: 'Set PIN' }).click();
    await expect.poll(() => pinForm.locator('.err').textContent()).toBe('body field \'value\' is invalid: pinCode must be 4 to 8 digits, e.g. "1234"');
    await pinForm.locator('input[type=password]').fill('4321');
    await pinForm.getByRole('button', { name: 'Set PIN' }).click();
    await expect.poll(() => page.getByTestId('pin-state').textContent()).toBe('A PIN is set.');
    expect((await hub.call<{ pinCodeSet: boolean }>('GET', '/api/manager/google-assistant/state')).body.pinCodeSet).toBe(true);
    await pinForm.getByRole('button', { name: 'Remove PIN' }).click();
    await expect.poll(() => page.getByTestId('pin-state').textContent()).toBe('No PIN set.');
    await page.close();
  });

  test('saves location, language and units', async () => {
    const page = await signedIn(browser.context, hub.url, OWNER, '#/system');
    const location = page.locator('.card', { has: page.getByRole('heading', { name: 'Location' }) });
    await location.getByLabel('Latitude').fill('95');
    await location.getByLabel('Longitude').fill('5.12');
    await location.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => location.locator('.err').textContent()).toMatch(/latitude/i);
    await location.getByLabel('Latitude').fill('52.09');
    await location.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await hub.call<{ location: unknown }>('GET', '/api/manager/geolocation/state')).body.location)
      .toEqual({ latitude: 52.09, longitude: 5.12 });
    expect(await location.locator('.err').count()).toBe(0);

    const lang = page.locator('.card', { has: page.getByRole('heading', { name: 'Language and units' }) });
    await lang.getByLabel('Units').selectOption('imperial');
    await expect.poll(async () => (await hub.call<{ units: string }>('GET', '/api/manager/i18n/state')).body.units).toBe('imperial');
    await lang.getByLabel('Units').selectOption('metric');
    await expect.poll(async () => (await hub.call<{ units: string }>('GET', '/api/manager/i18n/state')).body.units).toBe('metric');
    await page.close();
  });

  test('creates a token with chosen scopes (each in words), shows its secret once with a copy button, and revokes it', async () => {
    const page = await signedIn(browser.context, hub.url, OWNER, '#/system');
    const card = page.locator('.card', { has: page.getByRole('heading', { name: 'API tokens' }) });
    await card.getByPlaceholder(/kitchen-tablet/).fill('kitchen-tablet');
    // The scopes are folded under what is chosen; each: a label, its raw name, and one sentence.
    expect(await card.locator('details.scopes > summary').textContent()).toBe(`What it may do: nothing yet (choose) (0 of ${SCOPES.length})`);
    await card.locator('details.scopes > summary').click();
    await card.getByLabel('View dashboards service.dashboard.readonly See dashboards and their widgets, without changing them.').check();
    await card.getByLabel('Speech service.speech Make the hub say things out loud.').check();
    await card.getByRole('button', { name: 'Create token' }).click();
    const secret = (await card.getByTestId('secret').textContent()) ?? '';
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: hub.url });
    await card.getByRole('button', { name: 'Copy the token' }).click();
    await card.getByText('copied').waitFor();
    expect(
      await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()),
    ).toBe(secret);
    expect(await card.locator('li', { hasText: 'kitchen-tablet' }).textContent()).toContain('View dashboards, Speech');
    expect(secret.length).toBeGreaterThan(20);
    const tokens = await hub.call<Record<string, { id: string; name: string; scopes: string[] }>>('GET', '/api/manager/tokens/token');
    const token = Object.values(tokens.body).find((t) => t.name === 'kitchen-tablet');
    expect(token?.scopes.sort()).toEqual(['service.dashboard.readonly', 'service.speech']);
    expect((await hub.call('GET', '/api/manager/dashboards/dashboard', { token: secret })).status).toBe(200);
    page.once('dialog', (d) => void d.accept());
    await card.locator('li', { hasText: 'kitchen-tablet' }).getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => card.locator('li', { hasText: 'kitchen-tablet' }).count()).toBe(0);
    expect((await hub.call('GET', '/api/manager/dashboards/dashboard', { token: secret })).status).toBe(401);
    await page.close();
  });

  test('lists the store catalogue with each release’s permissions and installs from it; an upgrade marks new permissions; an unknown id shows the sentence', async () => {
    const packDir = await tempDir('hearth-web-pack-');
    made.push(packDir);
    const folder = join(packDir, 'com.hearth.hello');
    await cp(join(ROOT, 'examples/com.hearth.greeter'), folder, { recursive: true });
    const manifest = JSON.parse(await readFile(join(folder, 'app.json'), 'utf8')) as {
      id: string;
      version: string;
      name: Record<string, string>;
      permissions: string[];
    };
    manifest.id = 'com.hearth.hello';
    manifest.name = { en: 'Hello' };
    manifest.permissions = ['homey:manager:speech-output', 'hearth:network:access'];
    await writeFile(join(folder, 'app.json'), JSON.stringify(manifest));
    await packApp(folder, join(hub.dataDir, 'store'));
    const speech = 'speak through the hub (this.homey.speechOutput.say) homey:manager:speech-output';

    const page = await signedIn(browser.context, hub.url, OWNER, '#/apps');
    // How apps are contained here, as the hub says.
    const state = await hub.call<{ containment: string }>('GET', '/api/manager/apps/state');
    expect(await page.getByTestId('containment').getAttribute('data-containment')).toBe(state.body.containment);
    // The catalogue lists the packed app by name, with what it asks for before its one button.
    const item = page.locator('[data-store-app="com.hearth.hello"]');
    await item.getByText(`stable ${manifest.version}`).waitFor();
    expect(await item.locator('strong').textContent()).toBe('Hello');
    expect(await item.locator('[data-permission="homey:manager:speech-output"]').textContent()).toBe(speech);
    expect(await item.locator('[data-network]').getAttribute('data-network')).toBe('yes');
    expect(await item.locator('[data-network]').textContent()).toBe('uses the network');
    await item.getByRole('button', { name: 'Install' }).click();
    // The new app's card arrived over the apps namespace, not from a reload.
    await expect.poll(() => appState(page, 'com.hearth.hello'), { timeout: 30_000 }).toBe('running');
    await item.getByText(`installed ${manifest.version}`).waitFor();
    expect(await item.getByRole('button').count()).toBe(0);
    // The installed app's card shows the same sentences.
    const card = page.getByTestId('app-com.hearth.hello');
    expect(await card.locator('[data-permission="homey:manager:speech-output"]').textContent()).toBe(speech);
    expect(await card.locator('[data-permission]').count()).toBe(2);
    await screenshots(page, 'apps-store');

    // An upgrade that asks for a permission the installed version does not have says so.
    manifest.version = '2.0.1';
    manifest.permissions = ['homey:manager:speech-output', 'hearth:network:access', 'homey:manager:geolocation'];
    await writeFile(join(folder, 'app.json'), JSON.stringify(manifest));
    await packApp(folder, join(hub.dataDir, 'store'));
    await page.reload();
    await item.getByRole('button', { name: 'Upgrade to 2.0.1' }).waitFor();
    expect(await item.getByTestId('new-permissions').textContent()).toBe('This upgrade asks for a new permission: homey:manager:geolocation.');
    expect(await item.locator('[data-permission="homey:manager:geolocation"] .badge').textContent()).toBe('new');
    await screenshots(page, 'apps-store-upgrade');

    // By id, for another channel: an unknown id shows the API's sentence.
    await page.getByText('Install by id').click();
    const form = page.locator('form', { has: page.getByPlaceholder(/app id/) });
    await form.getByPlaceholder(/app id/).fill('com.hearth.nothere');
    await form.getByRole('button', { name: 'Install' }).click();
    await expect.poll(() => form.locator('.err').textContent()).toMatch(/com\.hearth\.nothere/);
    await page.close();
  }, 90_000);
});

describe('web app when the hub goes away', { timeout: 120_000 }, () => {
  test('says the connection is lost when the live sockets drop', async () => {
    const own = await startHub();
    try {
      const page = await signedIn(browser.context, own.url, OWNER, '#/dashboards');
      await page.getByText('No dashboards yet: create one.').waitFor();
      // A dashboard made elsewhere shows up only over the socket: then it is surely open. The
      // page may show its list before its socket is open (a loaded machine): one made before
      // that is not heard, so another is made until one is.
      await expect
        .poll(
          async () => {
            await own.call('POST', '/api/manager/dashboards/dashboard', { body: { name: 'Hall', columns: [] } });
            return page.locator('.tabs a', { hasText: 'Hall' }).count();
          },
          { timeout: 30_000, interval: 500 },
        )
        .toBeGreaterThan(0);
      expect(await page.getByTestId('lost').count()).toBe(0);
      await own.kill();
      await page.getByTestId('lost').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('lost').textContent()).toBe('connection lost, reconnecting…');
      await page.close();
    } finally {
      await own.cleanup();
    }
  }, 60_000);
});
