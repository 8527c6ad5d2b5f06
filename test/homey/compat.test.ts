/**
 * What hearth makes of Homey apps that reach beyond it, in a real hub: an app with drivers is
 * listed as incompatible and never started; an app with flow cards runs (its cards take their
 * listeners; test/managers/flow runs them); an app touching the Z-Wave radio gets a
 * sentence; a Homey Compose folder is composed; apps dropped into the apps folder while the hub
 * runs are picked up; CommonJS apps without a package.json run as CommonJS wherever the apps
 * folder is; the app lifecycle (unload, timers) as the SDK documents it.
 */
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEvents } from '../helpers/events.js';
import { type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { appJson, writeHomeyApp } from './apps.js';

let hub: RunningHub;
let appsDir: string;
let spare: string;

interface App {
  state: string;
  compatible: boolean;
  incompatibleReason: string | null;
  unsupported: string[];
  crashed: boolean;
  crashedMessage: string | null;
  name: string;
}

const app = async (id: string): Promise<App> => (await hub.call<App>('GET', `/api/manager/apps/app/${id}`)).body;
const running = (id: string) =>
  poll(
    () => hub.call<App>('GET', `/api/manager/apps/app/${id}`),
    (r) => r.body.state === 'running',
    `${id} running`,
  );
const stdout = async (id: string): Promise<string> =>
  (await hub.call<{ stdout: string }>('POST', `/api/manager/apps/app/${id}/crashlog`, { body: {} })).body.stdout;

/** A plain CommonJS Homey app that logs `line` once initialised, with no package.json. */
const logger = (line: string) => `const Homey = require('homey');
module.exports = class extends Homey.App {
  async onInit() {
    this.log(${JSON.stringify(line)});
  }
};
`;

beforeAll(async () => {
  // The apps folder sits in a project whose package.json says "module" (as the checkout's own
  // ./apps does): the CommonJS apps below, none with a package.json, must still run as CommonJS.
  const project = await tempDir('hearth-homey-compat-');
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'project', type: 'module' }));
  appsDir = join(project, 'apps');
  await mkdir(appsDir);
  spare = await tempDir('hearth-homey-spare-');

  await writeHomeyApp(appsDir, 'com.example.lights', {
    json: {
      drivers: [{ id: 'bulb', name: { en: 'Bulb' }, class: 'light', capabilities: ['onoff', 'dim'], connectivity: ['zigbee'] }],
      capabilities: { my_capability: { type: 'number', title: { en: 'Mine' } } },
    },
    files: { 'app.js': logger('lights started'), 'drivers/bulb/driver.js': "module.exports = class extends require('homey').Driver {};" },
  });

  // Flow cards as the Flow guide declares and uses them.
  await writeHomeyApp(appsDir, 'com.example.flows', {
    json: {
      flow: {
        triggers: [{ id: 'rain_start', title: { en: 'It starts raining' }, tokens: [{ name: 'mm', type: 'number', title: { en: 'mm' } }] }],
        conditions: [{ id: 'is_raining', title: { en: "It !{{is|isn't}} raining" } }],
        actions: [
          { id: 'stop_rain', title: { en: 'Stop the rain' }, args: [{ name: 'mode', type: 'dropdown', values: [{ id: 'now', title: { en: 'Now' } }] }] },
        ],
      },
    },
    files: {
      'app.js': `const Homey = require('homey');
module.exports = class FlowApp extends Homey.App {
  async onInit() {
    const rainStart = this.homey.flow.getTriggerCard('rain_start');
    this.homey.flow.getConditionCard('is_raining').registerRunListener(async (args, state) => false);
    this.homey.flow.getActionCard('stop_rain').registerRunListener(async (args) => { this.log('stopping rain'); });
    await rainStart.trigger({ mm: 3 }).then(() => this.log('triggered rain_start'));
    const token = await this.homey.flow.createToken('rainfall', { type: 'number', title: 'Rainfall', value: 0 });
    await token.setValue(4);
    try {
      this.homey.flow.getActionCard('not_declared');
    } catch (err) {
      this.log('undeclared card:', err.message);
    }
  }
};
`,
    },
  });

  await writeHomeyApp(appsDir, 'com.example.zwave', {
    json: { permissions: ['homey:wireless:zwave', 'homey:manager:ledring'] },
    files: {
      'app.js': `const Homey = require('homey');
module.exports = class ZwaveApp extends Homey.App {
  async onInit() {
    try {
      await this.homey.zwave.getNode({});
    } catch (err) {
      this.log('zwave:', err.code, err.message);
    }
    try {
      this.homey.drivers.getDriver('bulb');
    } catch (err) {
      this.log('drivers:', err.message);
    }
  }
};
`,
    },
  });

  // Homey Compose: no app.json; app.json comes from .homeycompose/, the widget from its folder,
  // the name and texts from the compose locales.
  const compose = join(appsDir, 'com.example.composed');
  const composed = appJson('com.example.composed', { _comment: undefined, name: { en: 'Composed' } });
  await mkdir(join(compose, '.homeycompose/locales'), { recursive: true });
  await mkdir(join(compose, '.homeycompose/flow/actions'), { recursive: true });
  await mkdir(join(compose, 'widgets/clock/public'), { recursive: true });
  await mkdir(join(compose, 'locales'), { recursive: true });
  await writeFile(join(compose, '.homeycompose/app.json'), JSON.stringify(composed));
  await writeFile(join(compose, '.homeycompose/flow/actions/ring.json'), JSON.stringify({ title: { en: 'Ring' } }));
  await writeFile(
    join(compose, '.homeycompose/locales/nl.json'),
    JSON.stringify({ $app: { name: 'Samengesteld' }, $widgets: { clock: { name: 'Klok', settings: { zone: { title: 'Zone' } } } }, greeting: 'Hallo' }),
  );
  await writeFile(join(compose, '.homeycompose/locales/en.json'), JSON.stringify({ greeting: 'Hello' }));
  await writeFile(join(compose, '.homeycompose/locales/en.extra.json'), JSON.stringify({ more: 'More' }));
  await writeFile(join(compose, 'locales/en.json'), JSON.stringify({ kept: 'Kept' }));
  await writeFile(
    join(compose, 'widgets/clock/widget.compose.json'),
    JSON.stringify({ name: { en: 'Clock' }, height: 120, settings: [{ id: 'zone', type: 'text', title: { en: 'Zone' }, value: 'UTC' }] }),
  );
  await writeFile(join(compose, 'widgets/clock/public/index.html'), '<p>clock</p>');
  await writeFile(
    join(compose, 'app.js'),
    `const Homey = require('homey');
module.exports = class Composed extends Homey.App {
  async onInit() {
    this.log('composed:', this.homey.__('greeting'), this.homey.__('extra.more'), this.homey.__('kept'), this.homey.manifest.flow.actions[0].id);
  }
};
`,
  );

  // The lifecycle: 'unload' and onUninit, timers that stop with the app.
  await writeHomeyApp(appsDir, 'com.example.lifecycle', {
    files: {
      'app.js': `const fs = require('node:fs');
const path = require('node:path');
const Homey = require('homey');
module.exports = class Lifecycle extends Homey.App {
  async onInit() {
    this.homey.setInterval(() => this.log('tick'), 20);
    this.homey.on('unload', () => fs.writeFileSync(path.join(this.homey.tmpdir, 'unload'), 'heard'));
    await this.homey.ready();
    this.log('ready resolved');
  }
  async onUninit() {
    fs.writeFileSync(path.join(this.homey.tmpdir, 'uninit'), String(this.homey.app === this));
  }
};
`,
    },
  });

  // A hand-placed folder with a link out of it (the permission model would let the app read
  // the target through it), and one whose links stay inside.
  const linked = await writeHomeyApp(appsDir, 'com.example.linked', { files: { 'app.js': logger('linked started') } });
  await symlink('/etc/passwd', join(linked, 'passwd'));
  const inner = await writeHomeyApp(appsDir, 'com.example.inner', { files: { 'app.js': logger('inner started'), 'lib/real.js': 'module.exports = 1;' } });
  await symlink('lib/real.js', join(inner, 'alias.js'));

  // An app that exports something other than a Homey.App class.
  await writeHomeyApp(appsDir, 'com.example.plain', {
    files: { 'app.js': 'module.exports = { async onInit() {} };' },
  });

  hub = await startHub({ appsDir });
}, 60_000);

afterAll(async () => {
  await hub?.cleanup();
});

describe('apps hearth cannot run in full', () => {
  it('lists an app whose drivers all need a radio as incompatible, with the reason, and never starts it', async () => {
    await running('com.example.flows'); // the others have had their start by now
    const lights = await app('com.example.lights');
    expect(lights).toMatchObject({ state: 'stopped', compatible: false, crashed: false });
    expect(lights.incompatibleReason).toBe('every driver it declares needs a radio (zigbee), and hearth has none');
    expect(lights.unsupported).toContain('driver bulb: it needs a zigbee radio, which hearth has not; its devices cannot be added');
    expect(await stdout('com.example.lights')).not.toContain('lights started');
    const restart = await hub.call<{ error_description: string }>('POST', '/api/manager/apps/app/com.example.lights/restart');
    expect(restart.status).toBe(409);
    expect(restart.body.error_description).toContain('every driver it declares needs a radio');
  });

  it('runs an app with flow cards: listeners are taken, triggers resolve, and the record says nothing runs them', async () => {
    const log = await poll(
      () => stdout('com.example.flows'),
      (s) => s.includes('undeclared card'),
      'the flow app to finish onInit',
    );
    expect(log).toContain('triggered rain_start');
    expect(log).toContain("undeclared card: the app declares no flow action card 'not_declared' in app.json");
    expect(log).not.toContain('stopping rain');
    const flows = await app('com.example.flows');
    expect(flows).toMatchObject({ state: 'running', compatible: true });
    expect(flows.unsupported).toEqual([]);
  });

  it('gives an app touching the Z-Wave radio a sentence naming what hearth lacks, and keeps it running', async () => {
    await running('com.example.zwave');
    const log = await poll(
      () => stdout('com.example.zwave'),
      (s) => s.includes('drivers:'),
      'the zwave app to finish onInit',
    );
    expect(log).toContain('zwave: not_available ManagerZwave.getNode is not available: hearth has no Z-Wave radio');
    expect(log).toContain("drivers: the app declares no driver 'bulb' in app.json");
    expect((await app('com.example.zwave')).unsupported).toEqual([
      'permission homey:wireless:zwave: hearth has no Z-Wave radio',
      'permission homey:manager:ledring: hearth has no LED ring',
    ]);
  });

  it('refuses a folder with a link leading out of it, and runs one whose links stay inside', async () => {
    const linked = await app('com.example.linked');
    expect(linked).toMatchObject({ state: 'stopped', crashed: true });
    expect(linked.crashedMessage).toBe('passwd is a link leading out of the app folder (to /etc/passwd); copy what it points at into the folder instead');
    await running('com.example.inner');
  });

  it('says what is wrong with an app that exports no Homey.App class', async () => {
    const plain = await poll(
      () => app('com.example.plain'),
      (a) => a.crashed,
      'the plain app to fail',
    );
    expect(plain.crashedMessage).toContain('must export a class that extends Homey.App');
  });
});

describe('Homey Compose', () => {
  it('composes app.json, widgets and locales from .homeycompose/ as the Homey CLI does', async () => {
    await running('com.example.composed');
    const log = await poll(
      () => stdout('com.example.composed'),
      (s) => s.includes('composed:'),
      'the composed app to log',
    );
    expect(log).toContain('composed: Hello More Kept ring');
    const widget = await hub.call<{ name: string; height: number; settings: Array<{ id: string; default: unknown }> }>(
      'GET',
      `/api/manager/dashboards/appwidget/${encodeURIComponent('com.example.composed:clock')}`,
    );
    expect(widget.body).toMatchObject({ name: 'Clock', height: 120, settings: [{ id: 'zone', default: 'UTC' }] });
    const locales = await hub.call<Record<string, Record<string, unknown>>>('GET', '/api/manager/apps/app/com.example.composed/locale');
    expect(locales.body.en).toEqual({ kept: 'Kept', greeting: 'Hello', extra: { more: 'More' } });
    expect(locales.body.nl).toEqual({ greeting: 'Hallo' });
    await hub.call('PUT', '/api/manager/i18n/option/language', { body: { value: 'nl' } });
    try {
      expect((await app('com.example.composed')).name).toBe('Samengesteld');
      const nlWidget = await hub.call<{ name: string }>('GET', `/api/manager/dashboards/appwidget/${encodeURIComponent('com.example.composed:clock')}`);
      expect(nlWidget.body.name).toBe('Klok');
    } finally {
      await hub.call('DELETE', '/api/manager/i18n/option/language');
    }
  });
});

describe('apps placed by hand while the hub runs', () => {
  it('are picked up by the folder watch and started, without anyone asking', async () => {
    const token = (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'w', scopes: ['service.app.readonly'] } })).body
      .token;
    const events = await openEvents(hub.wsUrl, 'apps', token);
    await writeHomeyApp(spare, 'com.example.dropped', { files: { 'app.js': logger('dropped in') } });
    await cp(join(spare, 'com.example.dropped'), join(appsDir, 'com.example.dropped'), { recursive: true });
    const created = await events.next((f) => f.event === 'app.create' && (f.args[0] as { id: string }).id === 'com.example.dropped', 15_000);
    expect(created.args[0]).toMatchObject({ id: 'com.example.dropped', origin: 'local' });
    await running('com.example.dropped');
    expect(
      await poll(
        () => stdout('com.example.dropped'),
        (s) => s.includes('dropped in'),
        'the dropped app to log',
      ),
    ).toContain('dropped in');
    events.close();
  });

  it('are listed by GET /apps/app at once, even before the watch looks', async () => {
    await writeHomeyApp(spare, 'com.example.listed', { files: { 'app.js': logger('listed') } });
    await cp(join(spare, 'com.example.listed'), join(appsDir, 'com.example.listed'), { recursive: true });
    const all = await hub.call<Record<string, { id: string }>>('GET', '/api/manager/apps/app');
    expect(Object.keys(all.body)).toContain('com.example.listed');
    await running('com.example.listed');
  });
});

describe('the app lifecycle', () => {
  it("emits 'unload' and runs onUninit when the app stops; homey.ready() does not hold onInit up", async () => {
    await running('com.example.lifecycle');
    expect(
      await poll(
        () => stdout('com.example.lifecycle'),
        (s) => s.includes('tick'),
        'a tick',
      ),
    ).toContain('ready resolved');
    expect((await hub.call('PUT', '/api/manager/apps/app/com.example.lifecycle/disable')).status).toBe(200);
    const userdata = join(hub.dataDir, 'apps/com.example.lifecycle/userdata');
    expect(await readFile(join(userdata, 'unload'), 'utf8')).toBe('heard');
    expect(await readFile(join(userdata, 'uninit'), 'utf8')).toBe('true');
  });
});
