/**
 * A wall tablet in Chromium (1024x768): the owner makes its sign-in link on the System page
 * ("for a wall tablet", with night hours), the link lands on the wall (a clock and the rooms,
 * no navigation, the wall's own narrow scopes), its night is a dim clock that a touch wakes, and
 * after the hub restarts on its port the wall shows a change made then, with no reload by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, type RunningHub, startHub } from '../helpers/hub.js';
import { pairDevice } from '../helpers/pair.js';
import { poll } from '../helpers/poll.js';
import { accessibilityViolations, unreachableByTab } from './a11y.js';
import { type BrowserGlobals, screenshot, signedIn, startWebHub, type WebHub } from './browser.js';

const VIRTUAL = 'com.hearth.virtual';
let w: WebHub;
let hub: RunningHub;
let lamp: string;

beforeAll(async () => {
  w = await startWebHub([]);
  hub = w.hub;
  await poll(
    () => hub.op('drivers', 'getDrivers'),
    (d) => Object.hasOwn(d, `homey:app:${VIRTUAL}:lamp`),
    'the virtual app listing its drivers',
  );
  const home = Object.values(await hub.op('zones', 'getZones')).find((z) => z.parent === null)!.id;
  const room = (await hub.op('zones', 'createZone', { body: { name: 'Kitchen', parent: home } })).id;
  lamp = await pairDevice(hub, `homey:app:${VIRTUAL}:lamp`, { name: 'Kitchen lights', zoneId: room });
}, 120_000);
afterAll(async () => {
  await w?.browser.close();
  await hub?.cleanup();
});

/** HH:MM of now plus `minutes`, as a time input and the wall's address take it. */
const hhmm = (minutes: number): string => {
  const d = new Date(Date.now() + minutes * 60_000);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

describe('the wall', () => {
  it('is signed in by a link made for it, shows the rooms with no administration, dims at night, and follows a hub restart', { timeout: 180_000 }, async () => {
    const { context } = w.browser;
    const admin = await signedIn(context, hub.url, OWNER, '#/system');
    const card = admin.locator('.card', { has: admin.getByRole('heading', { name: 'Sign in a phone' }) });
    await card.getByTestId('login-wall').check();
    // The night set by the link is hours away from now, whatever the time of the run (a fixed
    // 22:00-06:30 showed the tablet its night clock when the run was at 22:39).
    const night = `${hhmm(120)}-${hhmm(240)}`;
    await card.getByTestId('wall-night-from').fill(night.slice(0, 5));
    await card.getByTestId('wall-night-until').fill(night.slice(6));
    await card.getByTestId('make-login').click();
    const link = (await card.getByTestId('login-url').textContent())!;
    expect(link).toMatch(new RegExp(`^${hub.url}/#login=[A-Za-z0-9_-]+&to=wall&night=${night}$`));
    await admin.close();

    // The tablet opens the link: it lands on the wall, signed in with the wall's scopes alone.
    const tablet = await context.newPage();
    await tablet.setViewportSize({ width: 1024, height: 768 });
    await tablet.goto(`${hub.url}/#/`);
    await tablet.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.clear());
    await tablet.goto('about:blank');
    await tablet.goto(link);
    await tablet.getByTestId('wall').waitFor();
    expect(new URL(tablet.url()).hash).toBe(`#/wall?night=${night}`);
    expect(await tablet.locator('nav').count()).toBe(0);
    await tablet.getByTestId('home-device-Kitchen lights').waitFor();
    const sessions = Object.values(await hub.op('tokens', 'getTokens')).filter((t) => t.name.includes('(signed in by link)'));
    expect(sessions.map((t) => [...t.scopes].sort())).toEqual([
      ['service.app.readonly', 'service.dashboard.readonly', 'service.device.control', 'service.device.readonly', 'service.zone.readonly'],
    ]);
    expect(await accessibilityViolations(tablet)).toEqual([]);
    expect(await unreachableByTab(tablet)).toEqual([]);
    await screenshot(tablet, 'wall-day');

    // Its night (an hour either side of now, whatever the time of the run): a dim clock alone, woken by a touch.
    await tablet.goto(`${hub.url}/#/wall?night=${hhmm(-60)}-${hhmm(60)}`);
    await tablet.getByTestId('wall-night').waitFor();
    expect(await tablet.getByTestId('home-device-Kitchen lights').count()).toBe(0);
    expect(await accessibilityViolations(tablet)).toEqual([]);
    await screenshot(tablet, 'wall-night');
    await tablet.getByRole('button', { name: 'Wake the screen' }).click();
    await tablet.getByTestId('home-device-Kitchen lights').waitFor();

    // The hub restarts on its port (an update, a power cut): the wall reconnects by itself and
    // shows what changed after, without a reload by hand.
    const { port, dataDir, appsDir } = hub;
    expect(await hub.stop()).toBe(0);
    hub = await startHub({ dataDir, appsDir, args: ['--port', String(port)] });
    await poll(
      () => hub.op('apps', 'getApp', { params: { id: VIRTUAL } }),
      (a) => a.state === 'running' && a.ready,
      'the virtual app running again',
    );
    await hub.op('devices', 'setCapabilityValue', { params: { deviceId: lamp, capabilityId: 'onoff' }, body: { value: true } });
    await expect
      .poll(() => tablet.getByTestId('home-device-Kitchen lights').getByTestId('home-device-state').textContent(), { timeout: 30_000 })
      .toMatch(/^On/);
    expect(await tablet.getByTestId('wall').count()).toBe(1);
    await tablet.close();
  });
});
