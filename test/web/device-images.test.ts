/**
 * A device's pictures on its tile in Chromium: the album art its app serves through the hub
 * (fetched with the signed-in token) shows, and shows the new picture once the app updates it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER, ROOT, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { APP, pairSpeaker, writeSpeakerApp } from '../managers/devices/speaker-app.js';
import { type Browser, launch, screenshots, signedIn } from './browser.js';

let hub: RunningHub;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-web-images-');
  await writeSpeakerApp(appsDir, await readFile(join(ROOT, 'docs/images/apps-light.png')), await readFile(join(ROOT, 'docs/images/insights-phone-dark.png')));
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  await pairSpeaker(hub);
  browser = await launch();
  page = await signedIn(browser.context, hub.url, OWNER, '#/devices');
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await hub?.cleanup();
});

/** The natural width of the picture shown (each cover has its own). */
const shownWidth = (testId: string) => page.getByTestId(testId).evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);

describe("a device's pictures", () => {
  test('shows the album art, and the new one once the app updates it', async () => {
    const tile = page.getByTestId('device-Kitchen');
    await tile.getByTestId('device-image-albumart').waitFor();
    await expect.poll(() => shownWidth('device-image-albumart')).toBeGreaterThan(0);
    const first = await shownWidth('device-image-albumart');
    expect(await tile.getByTestId('device-image-albumart').getAttribute('src')).toMatch(/^blob:/);
    // The page the app calls a picture is never shown as one.
    expect(await tile.getByTestId('device-image-door').count()).toBe(0);
    await screenshots(page, 'device-images');
    const id = Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/devices/device')).body)[0]!;
    expect((await hub.call('PUT', `/api/manager/devices/device/${id}/capability/speaker_next`, { body: { value: true } })).status).toBe(200);
    await expect.poll(() => shownWidth('device-image-albumart')).not.toBe(first);
  });
});
