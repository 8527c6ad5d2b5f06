/**
 * Drives Debian's Chromium (apt package `chromium`) through playwright-core for the web app's
 * end-to-end tests, with a fresh profile folder per launch. Screenshots go to test/artifacts/.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Frame, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/bench/lib.mjs';
import { ROOT, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';

export { CHROMIUM };
export const ARTIFACTS = join(ROOT, 'test/artifacts');
/** The benches' Chromium flags (one list: the benches' browser is the tests'), and: */
const FLAGS = [
  ...CHROMIUM_FLAGS,
  // A name for the test hub that is not this machine's: a page there is plain http on the LAN,
  // not a secure context (as a phone opening the hub's LAN address sees it).
  '--host-resolver-rules=MAP hearth.lan 127.0.0.1',
];

/** The hub's own page at a LAN-like name (see FLAGS): `http://hearth.lan:<port>`. */
export const lanUrl = (port: number): string => `http://hearth.lan:${port}`;

/** The browser globals the tests touch inside page.evaluate (the Node type-check has no DOM lib). */
export interface BrowserGlobals {
  localStorage: { getItem(key: string): string | null; clear(): void };
}
export const inBrowser = (): BrowserGlobals => globalThis as unknown as BrowserGlobals;

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launch(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'hearth-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 860 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** One Chromium for several phones, each a context of its own (its own storage: its own sign-in), 375 px wide. */
export async function launchPhones(): Promise<{ phone(): Promise<Page>; close(): Promise<void> }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  return {
    async phone() {
      const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
      return context.newPage();
    },
    close: () => browser.close(),
  };
}

/**
 * Opens the web app signed in with `token` (through the sign-in form, as a person would). The
 * hub's first-run setup is marked done first (test/web/first-run.test.ts walks it), so a fresh
 * hub opens on the page asked for.
 */
export async function signedIn(context: BrowserContext, url: string, token: string, hash = '#/dashboards'): Promise<Page> {
  await fetch(`${url}/api/manager/system/option/setupDone`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ value: true }),
  });
  const page = await context.newPage();
  await page.goto(`${url}/${hash}`);
  await page.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.clear());
  await page.reload();
  await page.locator('input[name=token]').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('nav').waitFor();
  return page;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `web-${name}.png`), fullPage: true, animations: 'disabled' });
}

/** Screenshots at desktop width and at phone width (375 px), then restores the viewport. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.waitForTimeout(300); // let layout and the chart's resize observer settle for the picture
  await screenshot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 860 });
}

/**
 * Waits for the element with `testId`, or fails at once with the alert the page shows instead
 * (an error the hub gave), so a step that went wrong names its cause rather than timing out.
 */
export async function shown(page: Page, testId: string, timeoutMs = 20_000): Promise<void> {
  const wanted = page.getByTestId(testId);
  const alert = page.getByRole('alert').first();
  await wanted.or(alert).first().waitFor({ timeout: timeoutMs });
  if (!(await wanted.count()) && (await alert.count())) throw new Error(`waiting for ${testId}, the page said: ${await alert.textContent()}`);
}

/** The frame of `page` whose URL holds `part` (an app page's path), once it is there. */
export async function frameAt(page: Page, part: string, timeoutMs = 15_000): Promise<Frame> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const frame = page.frames().find((f) => f.url().includes(part));
    if (frame) return frame;
    if (Date.now() > until) throw new Error(`no frame of ${part} in ${page.url()}`);
    await page.waitForTimeout(100);
  }
}

/** A real hub running copies of the example apps and `fixtures`, speaking into a WAV folder. */
export interface WebHub {
  hub: RunningHub;
  browser: Browser;
  audioOut: string;
  close(): Promise<void>;
}

/**
 * Starts a web test's hub (copies of examples/ and the fixture app folders) and Chromium. The hub's
 * first-run setup is marked done unless `firstRun` (only its own test walks it).
 */
/** `args`: more flags for the hub (a stand-in's address, say). */
export async function startWebHub(fixtures: string[], options: { firstRun?: boolean; args?: string[] } = {}): Promise<WebHub> {
  if (!existsSync(CHROMIUM)) throw new Error(`the web app tests drive Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  const appsDir = await tempDir('hearth-web-apps-');
  await cp(join(ROOT, 'examples'), appsDir, { recursive: true });
  for (const fixture of fixtures) await cp(fixture, join(appsDir, fixture.split('/').pop()!), { recursive: true });
  const audioOut = await tempDir('hearth-web-audio-');
  await mkdir(audioOut, { recursive: true });
  const hub = await startHub({ appsDir, args: ['--audio-out', audioOut, ...(options.args ?? [])] });
  if (!options.firstRun) await hub.call('PUT', '/api/manager/system/option/setupDone', { body: { value: true } });
  const browser = await launch();
  return {
    hub,
    browser,
    audioOut,
    async close() {
      await browser.close();
      await hub.cleanup();
      for (const dir of [appsDir, audioOut]) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the hub lists these app widgets (their apps have started), so a dashboard may use them. */
export async function widgetsListed(hub: RunningHub, ids: string[]): Promise<void> {
  await poll(
    async () => (await hub.call<Record<string, unknown>>('GET', '/api/manager/dashboards/appwidget')).body,
    (listed) => ids.every((id) => Object.hasOwn(listed, id)),
    `the hub listing the widgets ${ids.join(', ')}`,
    300,
    100,
  );
}
