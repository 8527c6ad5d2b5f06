#!/usr/bin/env node
// `npm run screenshots`: the README's and docs' pictures of a family's home, taken from a real
// hub (the built one in dist/) running the example apps in a temporary data dir: zones in the
// family's order, the virtual devices paired into them (in the living room a lamp on and dimmed in
// its colour, a plug at work, a sensor, a door left open, and a floor lamp of another app that is
// out of reach; more in the kitchen and the hall) and a few flows; then
// Chromium (Debian's, as the web tests use) on a wall tablet (1024x768) and a phone, light and
// dark: the home screen, a lamp's sheet, a room's page, the wall by day and night, the flows list,
// a flow's cards after a test run, the people, the timeline, the alarms, the Energy page (now and this
// month), the pairing of a plug and of Zigbee devices (zigbee2mqtt's stand-in), and Get apps with an app's archive chosen.
// The pictures go to docs/images/. Nothing here reaches beyond 127.0.0.1.
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { api, OWNER, sleep, startHub } from './bench/lib.mjs';
import { LOOKS, signedInPage } from './screenshots/looks.mjs';
import { matterPictures } from './screenshots/matter.mjs';
import { startMosquitto } from './zigbee/broker.mjs';
import { Z2mStandIn } from './zigbee/standin.mjs';

const root = join(import.meta.dirname, '..');
const out = join(root, 'docs/images');
const work = await mkdtemp(join(tmpdir(), 'hearth-screenshots-'));
const appsDir = join(work, 'apps');
await cp(join(root, 'examples'), appsDir, { recursive: true });
// A porch light whose app cannot reach it: what a tile out of reach looks like (the web tests' fixture).
await cp(join(root, 'test/web/fixtures/com.test.faraway'), join(appsDir, 'com.test.faraway'), { recursive: true });

// zigbee2mqtt, as a home runs it beside the hub: a broker and (a stand-in for) zigbee2mqtt with a
// few real models, for the picture of adding a Zigbee device.
const broker = await startMosquitto(work);
const z2m = new Z2mStandIn(broker.url);
await z2m.start([
  { model: 'LED1545G12', name: 'Hallway bulb', ieee: '0x000d6ffffe000001', mains: true, state: { state: 'ON', brightness: 200, color_temp: 370 } },
  { model: 'MCCGQ11LM', name: 'Back door sensor', ieee: '0x00158d0000000002' },
  { model: 'WSDCGQ11LM', name: 'Bathroom climate', ieee: '0x00158d0000000003' },
  { model: 'E1524/E1810', name: 'Bedside remote', ieee: '0x000d6ffffe000004' },
]);
const hub = await startHub(root, { appsDir });
const { url } = hub;

/** An app a family might get from a friend: an archive of its folder, for Get apps. */
async function gardenArchive() {
  const dir = join(work, 'garden');
  await mkdir(join(dir, 'drivers/lamp'), { recursive: true });
  const app = {
    id: 'com.example.garden',
    version: '1.4.0',
    compatibility: '>=5.0.0',
    sdk: 3,
    name: { en: 'Garden lights' },
    description: { en: 'Path lights and the pond pump, on a timer or by hand.' },
    category: ['lights'],
    permissions: ['homey:manager:geolocation'],
    author: { name: 'A neighbour' },
    drivers: [{ id: 'lamp', name: { en: 'Path light' }, class: 'light', capabilities: ['onoff'], platforms: ['local'], connectivity: ['lan'] }],
  };
  await writeFile(join(dir, 'app.json'), JSON.stringify(app, null, 2));
  await writeFile(join(dir, 'app.js'), "module.exports = class extends require('homey').App {};\n");
  await writeFile(join(dir, 'drivers/lamp/driver.js'), "module.exports = class extends require('homey').Driver {};\n");
  await writeFile(join(dir, 'drivers/lamp/device.js'), "module.exports = class extends require('homey').Device {};\n");
  const file = join(work, 'garden.tar.gz');
  execFileSync('tar', ['-czf', file, '-C', dir, '.']);
  return file;
}
const call = (method, path, body) => api(hub, method, path, body);
const pause = sleep;

try {
  for (let i = 0; i < 120; i++) {
    const apps = await call('GET', '/api/manager/apps/app');
    if (Object.values(apps).every((a) => a.ready)) break;
    await pause(250);
  }
  await call('PUT', '/api/manager/system/option/setupDone', { value: true });
  await call('PUT', '/api/manager/apps/app/com.hearth.zigbee2mqtt/setting/broker', { value: broker.url });
  await call('PUT', '/api/manager/system/name', { name: 'The Jansens' });
  const home = Object.entries(await call('GET', '/api/manager/zones/zone')).find(([, z]) => z.parent === null)[0];
  const zone = async (name) => (await call('POST', '/api/manager/zones/zone', { name, parent: home })).id;
  const rooms = { living: await zone('Living room'), kitchen: await zone('Kitchen'), hall: await zone('Hall') };
  const pair = async (driver, zoneId, name, app = 'com.hearth.virtual') => {
    const session = await call('POST', '/api/manager/drivers/pairsession', { type: 'pair', driverId: `homey:app:${app}:${driver}`, zoneId });
    const [listed] = await call('POST', `/api/manager/drivers/pairsession/${session.id}/emit`, { event: 'list_devices' });
    const device = await call('POST', `/api/manager/drivers/pairsession/${session.id}/device`, { ...listed, name });
    await call('DELETE', `/api/manager/drivers/pairsession/${session.id}`);
    return device;
  };
  // The living room holds the five the pictures show: a lamp on and dimmed in its colour, a plug
  // at work, a sensor, a door left open, and a floor lamp of another app that is out of reach.
  const lamp = await pair('lamp', rooms.living, 'Reading lamp');
  const plug = await pair('plug', rooms.living, 'Television');
  await pair('climate', rooms.living, 'Living room climate');
  const door = await pair('door', rooms.living, 'Balcony door');
  await pair('bulb', rooms.living, 'Floor lamp', 'com.test.faraway');
  await pair('lamp', rooms.kitchen, 'Kitchen lights');
  await pair('plug', rooms.kitchen, 'Coffee machine');
  await pair('thermostat', rooms.hall, 'Thermostat');
  await pair('door', rooms.hall, 'Front door');
  // The home's own meter (P1): what the house draws beyond these devices, and a price per kWh.
  await pair('meter', home, 'Smart meter');
  await call('PUT', '/api/manager/energy/option/electricityPriceFixed', { value: { costs: { user_fixed_base: { value: 0.3 } } } });
  await call('PUT', '/api/manager/zones/option/roomOrder', { value: [rooms.living, rooms.kitchen, rooms.hall] });
  const set = (device, capability, value) => call('PUT', `/api/manager/devices/device/${device.id}/capability/${capability}`, { value });
  await set(lamp, 'onoff', true);
  await set(lamp, 'light_mode', 'color');
  await set(lamp, 'light_hue', 0.1);
  await set(lamp, 'light_saturation', 0.8);
  await set(lamp, 'dim', 0.6);
  await set(plug, 'onoff', true);
  await call('POST', '/api/manager/flow/flowcardaction/homey:app:com.hearth.virtual/simulate_open/run', { args: { device: { id: door.id, name: door.name } } });
  // Flows a family keeps: three cards with a token in the action's text, and two more for the list.
  const virtual = (id) => `homey:app:com.hearth.virtual:${id}`;
  await call('POST', '/api/manager/flow/flow', {
    name: 'Door left open',
    trigger: { id: virtual('door_left_open'), args: { device: { id: door.id, name: door.name } } },
    conditions: [{ id: `homey:device:${lamp.id}:on`, args: {}, inverted: false, group: 'group1' }],
    actions: [
      {
        id: 'homey:manager:notifications:create_notification',
        args: { text: 'The balcony door has been open for [[minutes]] minutes' },
        group: 'then',
        delay: null,
      },
    ],
  });
  const goodNight = await call('POST', '/api/manager/flow/flow', {
    name: 'Good night',
    trigger: { id: 'homey:manager:cron:time_exactly', args: { time: '23:00' } },
    conditions: [],
    actions: [
      { id: `homey:device:${lamp.id}:off`, args: {}, group: 'then', delay: null },
      { id: `homey:device:${plug.id}:off`, args: {}, group: 'then', delay: null },
    ],
  });
  await call('POST', '/api/manager/flow/flow', {
    name: 'TV left on',
    trigger: { id: 'homey:manager:cron:sunrise', args: {} },
    conditions: [{ id: virtual('power_above'), args: { device: { id: plug.id, name: plug.name }, watts: 5 }, inverted: false, group: 'group1' }],
    actions: [{ id: virtual('flash'), args: { device: { id: lamp.id, name: lamp.name }, times: 3 }, group: 'then', delay: null }],
  });
  // The list says when a flow last ran: "Good night" has, by hand (and the lamp and plug are on again for the home's pictures).
  await call('POST', `/api/manager/flow/flow/${goodNight.id}/trigger`, {});
  // A mood of the living room, saved as it is now; the family's alarms.
  await call('POST', '/api/manager/moods/mood', { name: 'Evening', zone: rooms.living });
  const weekdays = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: false, sunday: false };
  await call('POST', '/api/manager/alarms/alarm', { name: 'School run', time: '07:15', repetition: weekdays });
  await call('POST', '/api/manager/alarms/alarm', {
    name: 'Lie-in',
    time: '09:00',
    repetition: { ...Object.fromEntries(Object.keys(weekdays).map((d) => [d, false])), saturday: true, sunday: true },
  });
  // The family: the owner (Anna), Ben at home, Mia out, and the sitter given the living room.
  const me = await call('PUT', '/api/manager/users/user/me', { name: 'Anna' });
  const ben = await call('POST', '/api/manager/users/user', { name: 'Ben', role: 'manager' });
  const mia = await call('POST', '/api/manager/users/user', { name: 'Mia', role: 'user' });
  await call('POST', '/api/manager/users/user', { name: 'Sitter', role: 'guest', zones: [rooms.living] });
  await call('POST', '/api/manager/flow/flow', {
    name: 'Who left',
    trigger: { id: 'homey:manager:presence:user_leave', args: {} },
    actions: [{ id: 'homey:manager:notifications:create_notification', args: { text: '[[name]] left home' }, group: 'then', delay: null }],
  });
  for (const person of [me, ben, mia]) await call('PUT', `/api/manager/presence/${person.id}/present`, { value: true });
  await call('PUT', `/api/manager/presence/${mia.id}/present`, { value: false });
  await set(lamp, 'onoff', true);
  await set(plug, 'onoff', true);
  await pause(1500);

  await mkdir(out, { recursive: true });
  const archive = await gardenArchive();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    for (const look of LOOKS) {
      const { scheme, size, suffix } = look;
      const { context, page } = await signedInPage(browser, look, `${url}/#/home`, OWNER);
      await page.getByTestId('home-device-Reading lamp').waitFor();
      await pause(500);
      await page.screenshot({ path: join(out, `home-${suffix}`) });
      // The lamp's full controls in a sheet, and the living room's own page.
      await page.getByTestId('home-device-Reading lamp').getByRole('button', { name: 'All controls of Reading lamp' }).click();
      await page.getByTestId('device-sheet').getByTestId('control-dim').waitFor();
      await pause(300);
      await page.screenshot({ path: join(out, `home-sheet-${suffix}`) });
      await page.keyboard.press('Escape');
      await page.getByTestId('device-sheet').waitFor({ state: 'detached' });
      await page.getByRole('link', { name: 'Living room' }).click();
      await page.getByTestId('room').waitFor();
      await pause(300);
      await page.screenshot({ path: join(out, `room-${suffix}`) });
      if (size === 'tablet') {
        // The wall by day, and at night (an hour either side of now).
        await page.goto(`${url}/#/wall`);
        await page.getByTestId('wall').waitFor();
        await pause(500);
        await page.screenshot({ path: join(out, `wall-day-${scheme}.png`) });
        const hhmm = (minutes) => new Date(Date.now() + minutes * 60_000).toTimeString().slice(0, 5);
        await page.goto(`${url}/#/wall?night=${hhmm(-60)}-${hhmm(60)}`);
        await page.getByTestId('wall-night').waitFor();
        await pause(300);
        if (scheme === 'dark') await page.screenshot({ path: join(out, 'wall-night.png') });
      }
      // The flows list, and a flow's cards lit by a test run.
      await page.goto(`${url}/#/flows`);
      const flow = page.getByTestId('flow-Door left open');
      await flow.waitFor();
      await pause(300);
      await page.screenshot({ path: join(out, `flows-${suffix}`) });
      await flow.getByTestId('flow-edit').click();
      await page.getByTestId('flow-test').click();
      await page.getByTestId('flow-tested').waitFor();
      // The test's notification, put away for the picture.
      await page
        .getByRole('button', { name: 'dismiss' })
        .first()
        .click({ timeout: 5000 })
        .catch(() => {});
      // The tablet sees the editor's four columns at once; the phone's picture is the whole page.
      if (size === 'phone') await page.evaluate('window.scrollTo(0, 0)');
      else await page.getByTestId('flow-editor').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(out, `flow-editor-${suffix}`), fullPage: size === 'phone', animations: 'disabled' });
      // The people, and the timeline saying who left.
      await page.goto(`${url}/#/people`);
      await page.getByTestId('people-Sitter').waitFor();
      await pause(300);
      await page.screenshot({ path: join(out, `people-${suffix}`), fullPage: size === 'phone' });
      await page.goto(`${url}/#/timeline`);
      await page.getByTestId('timeline-item').first().waitFor();
      await pause(300);
      await page.screenshot({ path: join(out, `timeline-${suffix}`) });
      await page.goto(`${url}/#/alarms`);
      await page.getByTestId('alarm-School run').waitFor();
      await pause(300);
      await page.screenshot({ path: join(out, `alarms-${suffix}`) });
      // Energy: the power now by room, and this month's use.
      await page.goto(`${url}/#/energy`);
      await page.getByTestId('energy-chart').waitFor();
      await pause(500);
      await page.screenshot({ path: join(out, `energy-${suffix}`), fullPage: size === 'phone' });
      await page.getByRole('button', { name: 'This month' }).click();
      await pause(800);
      await page.screenshot({ path: join(out, `energy-month-${suffix}`), fullPage: size === 'phone' });
      await page.goto(`${url}/#/devices`);
      await page.getByTestId('add-device').click();
      await page.getByTestId('pair-driver').selectOption({ label: 'Metering plug (com.hearth.virtual)' });
      await page.getByTestId('pair-start').click();
      await page.getByTestId('pair-add').waitFor();
      await pause(300);
      await page.screenshot({ path: join(out, `pair-plug-${suffix}`) });
      // Adding a Zigbee device: what zigbee2mqtt knows, each with what it can do (a fresh page: the
      // plug's pairing is still open on this one).
      await page.goto(`${url}/#/devices`);
      await page.reload();
      await page.getByTestId('add-device').click();
      await page.getByTestId('pair-driver').selectOption({ label: 'Zigbee device (com.hearth.zigbee2mqtt)' });
      await page.getByTestId('pair-start').click();
      await page.getByTestId('pair-add').waitFor();
      await pause(300);
      await page.screenshot({ path: join(out, `pair-zigbee-${suffix}`) });
      await page.goto(`${url}/#/apps`);
      await page.getByTestId('get-from-file').locator('summary').click();
      await page.getByTestId('upload-app-file').setInputFiles(archive);
      await page.getByTestId('upload-app').click();
      const review = page.getByTestId('upload-review');
      await review.waitFor();
      await review.scrollIntoViewIfNeeded();
      await pause(300);
      await page.screenshot({ path: join(out, `get-apps-${suffix}`) });
      await review.getByRole('button', { name: 'Discard' }).click();
      await context.close();
    }
    console.log(`Matter pictures: ${(await matterPictures(root, browser, out)).join(', ')}`);
  } finally {
    await browser.close();
  }
  console.log(
    `pictures in ${out}: {home,home-sheet,room,flows,flow-editor,people,timeline,alarms,energy,energy-month,pair-plug,pair-zigbee,get-apps}-{,phone-}{light,dark}.png, wall-day-{light,dark}.png, wall-night.png`,
  );
} finally {
  await hub.stop();
  await z2m.close();
  await broker.stop();
  await rm(work, { recursive: true, force: true });
}
