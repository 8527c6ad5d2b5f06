/**
 * Homey's page APIs in Chromium against a real hub running copies of the example apps and two
 * fixtures (test/web/fixtures: com.test.panel, a widget with every kind of setting, a settings
 * page and notifications; com.test.radio, an app hearth cannot run): widgets on a dashboard
 * (onHomeyReady, settings, Homey.api both ways, realtime, heights, isolation, the dark theme),
 * settings pages from the Apps page (Homey.get/set/api, settings.set live), and toasts.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type HomeySettings from 'homey-apps-sdk-v3-types/lib/HomeySettings.js';
import type HomeyWidget from 'homey-apps-sdk-v3-types/lib/HomeyWidget.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER, type RunningHub } from '../helpers/hub.js';
import { type Browser, type BrowserGlobals, frameAt, screenshots, signedIn, startWebHub, type WebHub } from './browser.js';

/** What the tests touch inside an app page (the Node type-check has no DOM lib). */
interface InPage extends BrowserGlobals {
  Homey: HomeyWidget & HomeySettings;
  hearth?: unknown;
  readyCalls?: number;
  document: { documentElement: Element; body: Element };
  getComputedStyle(e: Element): { backgroundColor: string };
}
interface Element {
  className: string;
}

let web: WebHub;
let hub: RunningHub;
let browser: Browser;
let audioOut: string;

const GREETER = '/app/com.hearth.greeter/widgets/greeting/';
const SYSMON = '/app/com.hearth.sysmon/widgets/load/';
const PANEL = '/app/com.test.panel/widgets/panel/';
const LIGHT_BACKGROUND = 'rgb(255, 255, 255)';
const DARK_BACKGROUND = 'rgb(37, 41, 47)';

beforeAll(async () => {
  web = await startWebHub(['com.test.panel', 'com.test.radio'].map((f) => join(import.meta.dirname, 'fixtures', f)));
  ({ hub, browser, audioOut } = web);
}, 90_000);

afterAll(() => web?.close());

/** A dashboard of one column holding `widgets`; answers its id, its column's and the placed widgets'. */
async function dashboard(
  name: string,
  widgets: Array<{ appWidgetId: string; settings?: Record<string, unknown> }>,
): Promise<{ id: string; columnId: string; widgetIds: string[] }> {
  const created = await hub.call<{ id: string; columns: Array<{ id: string; widgets: Array<{ id: string }> }> }>('POST', '/api/manager/dashboards/dashboard', {
    body: { name, columns: [{ widgets }] },
  });
  expect(created.status).toBe(201);
  const column = created.body.columns[0]!;
  return { id: created.body.id, columnId: column.id, widgetIds: column.widgets.map((w) => w.id) };
}

const wavs = async (): Promise<number> => (await readdir(audioOut)).filter((f) => f.endsWith('.wav')).length;
const frameHeight = (page: Page, title: string): Promise<number> =>
  page.locator(`iframe[title="${title}"]`).evaluate((f) => (f as unknown as { getBoundingClientRect(): { height: number } }).getBoundingClientRect().height);

describe("Homey's page APIs in Chromium", { timeout: 120_000 }, () => {
  test('a widget gets its settings, calls its Web API with GET and POST, and hears the app’s realtime events', async () => {
    const ada = { id: 'ada', name: 'Ada', description: 'Lovelace' };
    const board = await dashboard('Hall', [
      { appWidgetId: 'com.hearth.greeter:greeting', settings: { person: ada } },
      { appWidgetId: 'com.hearth.sysmon:load' },
    ]);
    const page = await signedIn(browser.context, hub.url, OWNER, `#/dashboards/${board.id}`);
    const greeter = page.frameLocator('iframe[title="Greeting"]');

    // GET: the page asks its Web API for the greeting of the person in its settings.
    const computed = async (): Promise<string> =>
      (await hub.call<{ text: string }>('GET', '/api/app/com.hearth.greeter/widgets/greeting/?person=Ada')).body.text;
    await expect.poll(async () => (await greeter.locator('#greeting').textContent()) === (await computed()), { timeout: 15_000 }).toBe(true);
    // Both pages called Homey.ready(): their frames are shown.
    for (const id of board.widgetIds) await expect.poll(() => page.getByTestId(`slot-${id}`).getAttribute('data-state')).toBe('ready');
    // Homey.__ gave the button its text from the app's locales.
    expect(await greeter.locator('#say').textContent()).toBe('Say it');

    // sysmon's widget shows the reading its app answers for the metric in its settings (the default).
    const load = page.frameLocator('iframe[title="System load"]');
    expect(await load.locator('#label').textContent()).toBe('CPU load (1 min)');
    const reading = async (): Promise<string> =>
      (await hub.call<{ value: number }>('GET', '/api/app/com.hearth.sysmon/widgets/load/?metric=cpu-load')).body.value.toFixed(2);
    await expect.poll(async () => (await load.locator('#value').textContent()) === (await reading()), { timeout: 15_000 }).toBe(true);

    // POST: "Say it" makes the app greet: it speaks (a WAV) and counts the greeting in insights.
    const log = '/api/manager/insights/log/homey:app:com.hearth.greeter:greetings';
    const countBefore = (await hub.call<{ lastValue: number | null }>('GET', log)).body.lastValue ?? 0;
    const wavsBefore = await wavs();
    await greeter.locator('#say').click();
    await expect.poll(wavs, { timeout: 30_000 }).toBe(wavsBefore + 1);
    await expect.poll(async () => (await hub.call<{ lastValue: number | null }>('GET', log)).body.lastValue, { timeout: 15_000 }).toBe(countBefore + 1);
    await expect.poll(() => greeter.locator('#greeting').textContent()).toContain('Ada');

    // Realtime: a greeting made elsewhere (the name setting changed through the API) reaches the page.
    await hub.call('PUT', '/api/manager/apps/app/com.hearth.greeter/setting/name', { body: { value: 'Grace' } });
    await expect.poll(() => greeter.locator('#greeting').textContent(), { timeout: 30_000 }).toContain('Grace');
    // ... and sysmon's `sample` event after a reading taken on request.
    const sampled = await hub.call<Record<string, { value: number }>>('POST', '/api/app/com.hearth.sysmon/readings', { body: {} });
    await expect.poll(() => load.locator('#value').textContent(), { timeout: 15_000 }).toBe(sampled.body['cpu-load']!.value.toFixed(2));
    await page.close();
  });

  test('a widget sees every kind of setting, its instance id and strings, asks for its height, and stays inside its own Web API', async () => {
    const page = await signedIn(browser.context, hub.url, OWNER);
    await page.getByTestId('new-dashboard').click();
    await page.getByTestId('new-dashboard-name').fill('Panel board');
    await page.getByRole('button', { name: 'Create' }).click();
    // Other tests made dashboards before: arrange the new one once it is shown.
    await page.locator('.dashboard h2', { hasText: 'Panel board' }).waitFor();
    await page.getByTestId('arrange').click();
    await page.getByTestId('add-widget-select-0').selectOption('com.test.panel:panel');
    await page.getByTestId('add-widget-0').click();
    const field = (id: string) => page.locator(`label[data-setting="${id}"]`);
    const save = page.getByTestId('save-dashboard');
    // The defaults show; a text off its pattern and a number out of range keep Save off, with the reason.
    expect(await field('code').locator('input').inputValue()).toBe('abc');
    expect(await field('code').textContent()).toContain('lower-case letters only');
    await field('code').locator('input').fill('ABC');
    await expect.poll(() => page.locator('.arrange .toolbar .err').textContent()).toBe('Code must match the pattern [a-z]+');
    expect(await save.isDisabled()).toBe(true);
    await field('code').locator('input').fill('xyz');
    await field('level').locator('input').fill('11');
    await expect.poll(() => page.locator('.arrange .toolbar .err').textContent()).toBe('Level must be at most 10');
    await field('level').locator('input').fill('7');
    expect(await save.isDisabled()).toBe(false);
    await field('note').locator('textarea').fill('two words');
    expect(await field('note').locator('textarea').getAttribute('placeholder')).toBe('a few words');
    expect(await field('shade').locator('option').allTextContents()).toEqual(['Early light', 'Late light']);
    await field('shade').locator('select').selectOption('dawn');
    await field('loud').locator('input').check();
    await page.getByTestId('autocomplete-place').fill('att');
    // The field is a combobox: arrow down to the option, Enter takes it.
    expect(await page.getByTestId('autocomplete-place').getAttribute('role')).toBe('combobox');
    await page.getByRole('option', { name: /Attic/ }).waitFor();
    await page.getByTestId('autocomplete-place').press('ArrowDown');
    expect(await page.getByTestId('autocomplete-place').getAttribute('aria-activedescendant')).toBe(
      await page.getByRole('option', { name: /Attic/ }).getAttribute('id'),
    );
    await page.getByTestId('autocomplete-place').press('Enter');
    await screenshots(page, 'widget-settings');
    await save.click();
    await page.getByTestId('arrange').waitFor();

    const settings = {
      code: 'xyz',
      level: 7,
      note: 'two words',
      shade: 'dawn',
      loud: true,
      place: { id: 'attic', name: 'Attic', description: 'top floor', floor: 2 },
    };
    const all = await hub.call<Record<string, { name: string; columns: Array<{ widgets: Array<{ id: string; settings: Record<string, unknown> }> }> }>>(
      'GET',
      '/api/manager/dashboards/dashboard',
    );
    const placed = Object.values(all.body).find((d) => d.name === 'Panel board')!.columns[0]!.widgets[0]!;
    expect(placed.settings).toEqual(settings);

    const panel = page.frameLocator('iframe[title="Panel"]');
    await expect.poll(async () => JSON.parse((await panel.locator('#settings').textContent()) || 'null') as unknown, { timeout: 15_000 }).toEqual(settings);
    expect(await panel.locator('#instance').textContent()).toBe(placed.id);
    expect(await panel.locator('#title').textContent()).toBe('Panel of Ada');
    expect(await panel.locator('[data-i18n]').textContent()).toBe('Settings as the page sees them');
    // Homey.ready({height: 160}) wins over the manifest's 120.
    await expect.poll(() => frameHeight(page, 'Panel')).toBe(160);

    const frame = await frameAt(page, PANEL);
    const seen = await frame.evaluate(async () => {
      const g = globalThis as unknown as InPage;
      let storage = 'readable';
      try {
        void g.localStorage.getItem('hearth.token');
      } catch {
        storage = 'blocked';
      }
      const put = await g.Homey.api('PUT', '/echo/lamp?x=1', { on: true });
      const del = await g.Homey.api('DELETE', '/echo/lamp');
      const denied = await g.Homey.api('GET', '/deny').then(
        () => 'allowed',
        (e: Error & { statusCode?: number }) => `${e.statusCode}: ${e.message}`,
      );
      const out = await Promise.all(
        ['/../../../manager/tokens/token', '/%2e%2e/%2e%2e/%2e%2e/manager/tokens/token', '/..\\..\\..\\manager/tokens/token'].map((p) =>
          g.Homey.api('GET', p).then(
            () => 'allowed',
            (e: Error) => e.message,
          ),
        ),
      );
      return { storage, hearth: typeof g.hearth, readyCalls: g.readyCalls, bodyClass: g.document.body.className, put, del, denied, out };
    });
    expect(seen.storage).toBe('blocked');
    expect(seen.hearth).toBe('undefined');
    expect(seen.readyCalls).toBe(1);
    // The page chose its padding class itself: the API adds no second one.
    expect(seen.bodyClass).toBe('homey-widget-small');
    expect(seen.put).toEqual({ thing: 'lamp', query: { x: '1' }, body: { on: true }, widgetInstanceId: placed.id });
    expect(seen.del).toEqual({ thing: 'lamp', query: {}, body: {}, widgetInstanceId: placed.id });
    expect(seen.denied).toBe("401: app 'com.test.panel': the panel says no");
    for (const message of seen.out) expect(message).toMatch(/leads outside the app's Web API/);
    // The app's own 401 signed no one out.
    expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.getItem('hearth.token'))).toBe(OWNER);
    expect(await page.locator('nav').isVisible()).toBe(true);
    await page.close();
  });

  test("widgets follow the dashboard's light and dark theme, live; a transparent one stays transparent", async () => {
    const board = await dashboard('Night', [{ appWidgetId: 'com.hearth.sysmon:load' }, { appWidgetId: 'com.hearth.greeter:greeting' }]);
    const page = await signedIn(browser.context, hub.url, OWNER);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${hub.url}/#/dashboards/${board.id}`);
    await page.reload();
    const look = async (part: string): Promise<{ root: string; body: string; background: string }> =>
      (await frameAt(page, part)).evaluate(() => {
        const g = globalThis as unknown as InPage;
        return {
          root: g.document.documentElement.className,
          body: g.document.body.className,
          background: g.getComputedStyle(g.document.documentElement).backgroundColor,
        };
      });
    await page.frameLocator('iframe[title="System load"]').locator('#label').filter({ hasText: 'CPU load' }).waitFor();
    // Opened in the dark: dark from the first paint (the theme comes in the URL).
    expect(await look(SYSMON)).toEqual({ root: 'homey-dark-mode', body: 'homey-widget homey-dark-mode', background: DARK_BACKGROUND });
    // Each widget sits in a frame of the web app's card colours, which follow the theme too.
    const frame = (n: number) =>
      page
        .locator('.widget-frame')
        .nth(n)
        .evaluate((el) => {
          const st = (globalThis as unknown as InPage).getComputedStyle(el as never) as unknown as {
            backgroundColor: string;
            borderTopLeftRadius: string;
            borderTopStyle: string;
          };
          return { background: st.backgroundColor, radius: st.borderTopLeftRadius, border: st.borderTopStyle };
        });
    expect(await frame(0)).toEqual({ background: 'rgb(29, 33, 40)', radius: '12px', border: 'solid' });
    expect(await frame(1)).toEqual({ background: 'rgba(0, 0, 0, 0)', radius: '12px', border: 'dashed' }); // the transparent greeter
    await screenshots(page, 'dashboard-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => look(SYSMON)).toEqual({ root: '', body: 'homey-widget', background: LIGHT_BACKGROUND });
    expect((await frame(0)).background).toBe('rgb(255, 255, 255)');
    expect((await look(GREETER)).background).toBe('rgba(0, 0, 0, 0)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => look(SYSMON)).toEqual({ root: 'homey-dark-mode', body: 'homey-widget homey-dark-mode', background: DARK_BACKGROUND });
    expect(await look(GREETER)).toEqual({ root: 'homey-dark-mode', body: 'homey-widget homey-dark-mode', background: 'rgba(0, 0, 0, 0)' });
    // A page loaded again (its settings changed; the same widget in the same column) after the
    // theme changed gets the theme of now, not the one in its URL.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => look(SYSMON)).toEqual({ root: '', body: 'homey-widget', background: LIGHT_BACKGROUND });
    const [sysmon, greeter] = board.widgetIds;
    const columns = [
      {
        id: board.columnId,
        widgets: [
          { id: sysmon, appWidgetId: 'com.hearth.sysmon:load', settings: { metric: 'temperature' } },
          { id: greeter, appWidgetId: 'com.hearth.greeter:greeting' },
        ],
      },
    ];
    expect((await hub.call('PUT', `/api/manager/dashboards/dashboard/${board.id}`, { body: { columns } })).status).toBe(200);
    await page.frameLocator('iframe[title="System load"]').locator('#label').filter({ hasText: 'Board temperature' }).waitFor();
    await expect.poll(() => look(SYSMON)).toEqual({ root: '', body: 'homey-widget', background: LIGHT_BACKGROUND });
    await page.close();
  });

  test("an app's settings page opens from the Apps page: Homey.get, Homey.set seen by the app, Homey.api, settings.set live", async () => {
    const page = await signedIn(browser.context, hub.url, OWNER, '#/apps');
    await page.getByTestId('app-com.hearth.sysmon').getByTestId('settings-page-link').click();
    await page.getByTestId('settings-page').waitFor();
    expect(new URL(page.url()).hash).toBe('#/apps/com.hearth.sysmon/settings');
    const settings = page.frameLocator('[data-testid=settings-page]');
    // Homey.get gave the current value; data-i18n filled the texts.
    await expect.poll(() => settings.locator('#interval').inputValue(), { timeout: 15_000 }).toBe('60');
    expect(await settings.locator('h1').textContent()).toBe('System monitor');
    expect(await settings.locator('label').textContent()).toBe('Sample every (seconds)');
    // Homey.api: the app's own Web API answered its readings.
    await expect.poll(async () => Object.keys(JSON.parse((await settings.locator('#latest').textContent()) || '{}') as object)).toContain('cpu-load');

    // Homey.set: the hub keeps it, and the app has rescheduled with it.
    await settings.locator('#interval').fill('15');
    await settings.locator('#save').click();
    await expect.poll(() => settings.locator('#status').textContent()).toBe('Saved');
    expect((await hub.call('GET', '/api/manager/apps/app/com.hearth.sysmon/setting/interval')).body).toBe(15);
    await expect.poll(async () => (await hub.call<{ interval: number }>('GET', '/api/app/com.hearth.sysmon/readings')).body.interval).toBe(15);
    await screenshots(page, 'app-settings-page');

    // settings.set: a change made elsewhere shows in the open page.
    await hub.call('PUT', '/api/manager/apps/app/com.hearth.sysmon/setting/interval', { body: { value: 30 } });
    await expect.poll(() => settings.locator('#interval').inputValue(), { timeout: 15_000 }).toBe('30');

    const frame = await frameAt(page, '/app/com.hearth.sysmon/settings/');
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    const seen = await frame.evaluate(async () => {
      const H = (globalThis as unknown as InPage).Homey;
      const refused = await new Promise((resolve) => H.set('interval', 2, (err: Error | null) => resolve(err ? err.message : 'no error')));
      const sure = await new Promise((resolve) => H.confirm('Sample now?', null, (_err: Error | null, yes: boolean) => resolve(yes)));
      const sampled = await new Promise((resolve) =>
        H.api('POST', '/readings', {}, (err: Error | null, r: Record<string, unknown>) => resolve(err ? err.message : Object.keys(r))),
      );
      const missing = await new Promise((resolve) => H.api('GET', '/readings/nothing', (err: Error | null) => resolve(err ? err.message : 'found')));
      return { refused, sure, sampled, missing };
    });
    expect(seen.refused).toBe("setting 'Sample every (seconds)' (interval) must be at least 5");
    expect(seen.sure).toBe(true);
    expect(seen.sampled).toContain('cpu-load');
    // The app's own 404, with its sentence (which lists the metrics this board has).
    expect(seen.missing).toMatch(/^app 'com\.hearth\.sysmon': no reading of 'nothing'; this hub has: cpu-load/);
    expect(asked).toBe('Sample now?');
    expect((await hub.call('GET', '/api/manager/apps/app/com.hearth.sysmon/setting/interval')).body).toBe(30);
    await page.getByTestId('back-to-apps').click();
    await page.getByTestId('app-com.hearth.sysmon').waitFor();
    await page.close();
  });

  test("a settings page that loads /homey.js, Homey's shared assets (jQuery, AngularJS) and its own module script and crossorigin stylesheet gets onHomeyReady once; Homey.get without a key answers all settings", async () => {
    await hub.call('PUT', '/api/manager/apps/app/com.test.panel/setting/colour', { body: { value: 'teal' } });
    const page = await signedIn(browser.context, hub.url, OWNER, '#/apps/com.test.panel/settings');
    const settings = page.frameLocator('[data-testid=settings-page]');
    await expect
      .poll(async () => JSON.parse((await settings.locator('#all').textContent()) || 'null') as unknown, { timeout: 15_000 })
      .toEqual({ colour: 'teal' });
    // The page wrote that with jQuery, loaded from Homey's shared assets' path.
    expect(await settings.locator('#jquery').textContent()).toMatch(/^jQuery 3\.\d+\.\d+$/);
    // Its module script (importing another) and its crossorigin stylesheet were read from its
    // opaque origin, and AngularJS from Homey's path rendered its template.
    await expect.poll(() => settings.locator('#module').textContent(), { timeout: 10_000 }).toBe('from a module');
    await expect.poll(() => settings.locator('#angular').textContent(), { timeout: 10_000 }).toBe('42');
    expect(
      await settings
        .locator('#styled')
        .evaluate((e) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(e).color),
    ).toBe('rgb(1, 2, 3)');
    const frame = await frameAt(page, '/app/com.test.panel/settings/');
    const seen = await frame.evaluate(async () => {
      const g = globalThis as unknown as InPage;
      const unset = (key: string) => new Promise((resolve) => g.Homey.unset(key, (err: Error | null) => resolve(err ? err.message : 'ok')));
      const set = (key: string) => new Promise((resolve) => g.Homey.set(key, 1, (err: Error | null) => resolve(err ? err.message : 'ok')));
      return {
        readyCalls: g.readyCalls,
        unsetKept: await unset('colour'),
        unsetNever: await unset('never-set'),
        // A key that is a dot segment would address the app itself (DELETE .../app/<id>/).
        setDots: await set('..'),
        unsetDots: await unset('..'),
        unsetDot: await unset('.'),
      };
    });
    expect(seen).toMatchObject({ readyCalls: 1, unsetKept: 'ok', unsetNever: 'ok' });
    for (const key of ['setDots', 'unsetDots', 'unsetDot'] as const) expect(seen[key], key).toMatch(/cannot be used as a name here/);
    expect((await hub.call('GET', '/api/manager/apps/app/com.test.panel')).status).toBe(200);
    expect((await hub.call('GET', '/api/manager/apps/app/com.test.panel/setting/colour')).status).toBe(404);
    await page.close();
  });

  test("the Apps page shows each app's description, why hearth cannot run an app, and what it does not run", async () => {
    const page = await signedIn(browser.context, hub.url, OWNER, '#/apps');
    const radio = page.getByTestId('app-com.test.radio');
    expect(await radio.getByTestId('app-description').textContent()).toBe('Test fixture: an app with a 433 MHz driver, which hearth cannot run.');
    expect(await radio.getByTestId('app-incompatible').textContent()).toBe(
      'hearth cannot run this app: every driver it declares needs a radio (rf433), and hearth has none.',
    );
    await radio.getByTestId('app-unsupported').locator('summary').click();
    expect(await radio.getByTestId('app-unsupported').locator('li').allTextContents()).toEqual([
      'driver socket: it needs a rf433 radio, which hearth has not; its devices cannot be added',
      'permission homey:wireless:433: hearth has no 433 MHz radio',
    ]);
    const panel = page.getByTestId('app-com.test.panel');
    expect(await panel.getByTestId('app-incompatible').count()).toBe(0);
    // Its flow card runs: nothing of it is listed as unsupported.
    expect(await panel.getByTestId('app-unsupported').count()).toBe(0);
    // Only apps with a settings page get the Settings link.
    expect(await page.getByTestId('app-com.hearth.greeter').getByTestId('settings-page-link').count()).toBe(0);
    await page.close();
  });

  test("an app's notification shows as a toast naming the app", async () => {
    const page = await signedIn(browser.context, hub.url, OWNER, '#/dashboards');
    const toast = page.getByTestId('toast').filter({ hasText: 'The back door is open' });
    const kept = async () => Object.values(await hub.op('notifications', 'getNotifications')).filter((n) => n.excerpt === 'The back door is open').length;
    const before = await kept();
    // Sent again until one arrives: the notifications namespace may still be connecting when the first goes.
    let sent = 0;
    await expect
      .poll(
        async () => {
          expect((await hub.call('POST', '/api/app/com.test.panel/notify', { body: { text: 'The back door is open' } })).status).toBe(200);
          sent++;
          return toast.count();
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    expect(await toast.first().locator('b').textContent()).toBe('Panel');
    // Every one sent is on the timeline (so published) before they are dismissed, one by one.
    await expect.poll(kept).toBe(before + sent);
    await expect
      .poll(async () => {
        if ((await toast.count()) > 0) await toast.first().getByRole('button', { name: 'dismiss' }).click();
        return toast.count();
      })
      .toBe(0);
    await page.close();
  });
});
