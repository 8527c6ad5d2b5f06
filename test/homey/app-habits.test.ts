/**
 * What real apps do that Homey allows: pass `this.log` and `this.error` unbound
 * (`.catch(this.error)` on a poll of a device that went away, `setTimeout(this.log, ...)`: the
 * first failed poll used to throw inside the catch handler and crash the whole app), and ask
 * `homey.cloud.getLocalAddress()` where devices reach the hub (it threw "no Athom cloud account");
 * ES modules by file extension alone (app.mjs, driver.mjs, device.mjs, api.mjs, no `esm` field),
 * and no main module at all (the base Homey.App runs): both died with "Cannot find module app.js";
 * driver, pairing view and flow card ids with spaces (Homey takes any text; they were refused);
 * an app name given as plain text (refused), `settings.set(key, undefined)` (refused: it stopped
 * onInit), `fs.fsync` of a file the app wrote (Node's permission model refuses it: a database
 * stopped), a timer of onInit asking for a driver while the drivers were still being made (it
 * threw: the hub now makes them before it fetches the home's devices), and an ES module app shipping Athom's `homey` command-line package, which its
 * `import Homey from 'homey'` got instead of the SDK.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { pause, poll } from '../helpers/poll.js';
import { writeHomeyApp } from './apps.js';

const APP = 'com.example.unbound';
const ESM = 'com.example.byextension';
const NOMAIN = 'com.example.nomain';
const SPACED = 'com.example.spaced';
const PLAIN = 'com.example.plainwritten';
let hub: RunningHub;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-unbound-apps-');
  await writeHomeyApp(appsDir, APP, {
    json: {
      api: { address: { method: 'GET', path: '/address' } },
      drivers: [{ id: 'sensor', name: { en: 'Sensor' }, class: 'sensor', capabilities: ['measure_temperature'], platforms: ['local'], connectivity: ['lan'] }],
    },
    files: {
      'app.js': `const Homey = require('homey');
module.exports = class extends Homey.App {
  async onInit() {
    Promise.reject(new Error('the first poll failed')).catch(this.error);
    setTimeout(this.log, 10, 'ticked with an unbound log');
    // A timer of the app's onInit asks for its driver at once (a home's devices are still being
    // fetched): the driver is there, not yet ready.
    setTimeout(() => this.log('driver found at once:', this.homey.drivers.getDriver('sensor').id), 0);
  }
};
`,
      'api.js': `module.exports = {
  async address({ homey }) {
    return homey.cloud.getLocalAddress();
  },
};
`,
      'drivers/sensor/driver.js': `const Homey = require('homey');
module.exports = class extends Homey.Driver {
  async onInit() {
    Promise.reject(new Error('the driver could not reach the bridge')).catch(this.error);
  }
  async onPairListDevices() {
    return [{ name: 'Porch sensor', data: { id: 'porch' } }];
  }
};
`,
      'drivers/sensor/device.js': `const Homey = require('homey');
module.exports = class extends Homey.Device {
  async onInit() {
    // The device went away: every poll fails, and its catch is this.error, unbound.
    const fetchState = () => Promise.reject(new Error('the porch sensor does not answer'));
    this.timer = this.homey.setInterval(() => fetchState().catch(this.error), 50);
  }
};
`,
    },
  });
  await writeHomeyApp(appsDir, ESM, {
    json: {
      api: { kind: { method: 'GET', path: '/kind' } },
      drivers: [{ id: 'plug', name: { en: 'Plug' }, class: 'socket', capabilities: ['onoff'], platforms: ['local'], connectivity: ['lan'] }],
    },
    files: {
      'app.mjs': `import Homey from 'homey';
export default class ByExtension extends Homey.App {
  async onInit() { this.started = 'by its extension'; }
}
`,
      'api.mjs': `export default {
  async kind({ homey }) {
    return { app: homey.app.constructor.name, started: homey.app.started };
  },
};
`,
      'drivers/plug/driver.mjs': `import Homey from 'homey';
export default class PlugDriver extends Homey.Driver {
  async onPairListDevices() { return [{ name: 'Desk plug', data: { id: 'desk' } }]; }
}
`,
      'drivers/plug/device.mjs': `import Homey from 'homey';
export default class Plug extends Homey.Device {
  async onInit() { this.registerCapabilityListener('onoff', async (v) => this.log('plug', v)); }
}
`,
    },
  });
  await writeHomeyApp(appsDir, NOMAIN, {
    json: { api: { kind: { method: 'GET', path: '/kind' } } },
    files: {
      'api.js': `module.exports = {
  async kind({ homey }) {
    return { base: homey.app instanceof require('homey').App, id: homey.manifest.id };
  },
};
`,
    },
  });
  await writeHomeyApp(appsDir, SPACED, {
    json: {
      drivers: [
        {
          id: 'my plug',
          name: { en: 'My plug' },
          class: 'socket',
          capabilities: ['onoff'],
          platforms: ['local'],
          connectivity: ['lan'],
          // A driver icon given as a list (as some apps do), and a view of its own.
          icon: ['/drivers/my plug/assets/icon.svg'],
          pair: [{ id: 'start here' }, { id: 'list_devices', template: 'list_devices' }],
        },
      ],
      flow: { actions: [{ id: 'turn everything on', title: { en: 'Turn everything on' } }] },
    },
    files: {
      'app.js': `const Homey = require('homey');
module.exports = class extends Homey.App {
  async onInit() {
    this.homey.flow.getActionCard('turn everything on').registerRunListener(async () => {
      this.ran = (this.ran ?? 0) + 1;
      this.homey.settings.set('ran', this.ran);
      return true;
    });
  }
};
`,
      'drivers/my plug/driver.js': `const Homey = require('homey');
module.exports = class extends Homey.Driver {
  async onPairListDevices() { return [{ name: 'Spaced plug', data: { id: 'spaced' } }]; }
};
`,
      'drivers/my plug/device.js': `const Homey = require('homey');
module.exports = class extends Homey.Device {};
`,
      'drivers/my plug/pair/start here.html': '<p id="start">Press the button on the plug</p>',
    },
  });
  await writeHomeyApp(appsDir, PLAIN, {
    json: {
      // A name as a plain string, as Homey's validator takes it.
      name: 'Plainly written',
      api: { state: { method: 'GET', path: '/state' } },
    },
    files: {
      // An ES module app by its package.json, shipping Athom's command-line tool as its own
      // dependency 'homey' (which has no App): its import must still get the SDK.
      'package.json': { name: 'plainwritten', type: 'module', dependencies: { homey: '^4.2.0' } },
      'node_modules/homey/package.json': {
        name: 'homey',
        version: '4.2.0',
        description: 'Command-line interface and type declarations for Homey Apps',
        main: 'bin/homey.js',
      },
      'node_modules/homey/bin/homey.js': "console.log('the homey command-line tool');\n",
      'app.js': `import Homey from 'homey';
import fs, { fsync } from 'node:fs';
import { join } from 'node:path';

export default class Plain extends Homey.App {
  async onInit() {
    // An option the app has no value for yet: Homey keeps no value (get answers null).
    this.homey.settings.set('channel', undefined);
    // A small database's way of writing: the file, then fsync of it and of its folder.
    const file = join('/userdata', 'records.db');
    fs.writeFileSync(file, 'one record');
    const flushed = (fd) => new Promise((done) => fsync(fd, (err) => { fs.closeSync(fd); done(err ? err.message : 'flushed'); }));
    const datasynced = await new Promise((done) => { const fd = fs.openSync(file, 'r+'); fs.fdatasync(fd, (err) => { fs.closeSync(fd); done(err ? err.message : 'flushed'); }); });
    this.state = {
      channel: this.homey.settings.get('channel'),
      keys: this.homey.settings.getKeys(),
      file: await flushed(fs.openSync(file, 'r+')),
      folder: await flushed(fs.openSync('/userdata', 'r')),
      datasynced,
      closed: await new Promise((done) => fs.fsync(9999, (err) => done(err?.code))),
    };
  }
}
`,
      'api.js': `export default {
  async state({ homey }) {
    return homey.app.state;
  },
};
`,
    },
  });
  hub = await startHub({ appsDir });
}, 60_000);
afterAll(async () => {
  await hub?.cleanup();
});

/**
 * Pairs the first device driver `driverId` lists, as the web app's pairing does: answers the
 * session's status, the names listed and the device added (its status and id).
 */
async function pairFirst(driverId: string): Promise<{ session: number; names: string[]; added: { status: number; id: string } }> {
  const session = await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', { body: { type: 'pair', driverId } });
  const listed = await hub.call<Array<{ name: string }>>('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, {
    body: { event: 'list_devices' },
  });
  const added = await hub.call<{ id: string }>('POST', `/api/manager/drivers/pairsession/${session.body.id}/device`, { body: listed.body[0] });
  return { session: session.status, names: listed.body.map((d) => d.name), added: { status: added.status, id: added.body.id } };
}

const stdout = async () => (await hub.call<{ stdout: string; stderr: string }>('POST', `/api/manager/apps/app/${APP}/crashlog`, { body: {} })).body;

describe('this.log and this.error passed unbound', () => {
  it('log and error lines, and the app and its device keep running', async () => {
    await poll(
      () => hub.call<{ state: string }>('GET', `/api/manager/apps/app/${APP}`),
      (r) => r.body.state === 'running',
      'the app to run',
    );
    expect((await pairFirst(`homey:app:${APP}:sensor`)).added.status).toBe(201);
    const logs = await poll(stdout, (l) => l.stderr.includes('the porch sensor does not answer'), 'the failed polls to be logged');
    expect(logs.stderr).toMatch(/\[err\] \[\w*\] Error: the first poll failed/);
    expect(logs.stderr).toContain('the driver could not reach the bridge');
    expect(logs.stdout).toContain('ticked with an unbound log');
    expect(logs.stdout).toContain('driver found at once: sensor');
    await pause(500, 'a crash from a failed poll would have happened by now');
    const app = (await hub.call<{ state: string; exitCount: number; crashed: boolean }>('GET', `/api/manager/apps/app/${APP}`)).body;
    expect(app).toMatchObject({ state: 'running', exitCount: 0, crashed: false });
  });

  it('homey.cloud.getLocalAddress() is where devices reach the hub: its address and port', async () => {
    const answer = await hub.call<string>('GET', `/api/app/${APP}/address`);
    expect(answer.status, answer.text).toBe(200);
    // The test hub listens on 127.0.0.1 only: that is where it is reached.
    expect(answer.body).toBe(`127.0.0.1:${hub.port}`);
  });

  it('runs ES modules by their extension alone: app.mjs, api.mjs, driver.mjs and device.mjs', async () => {
    const kind = await poll(
      () => hub.call<{ app: string; started: string }>('GET', `/api/app/${ESM}/kind`),
      (r) => r.status === 200,
      'the ES module app to answer',
    );
    expect(kind.body).toEqual({ app: 'ByExtension', started: 'by its extension' });
    const { names, added } = await pairFirst(`homey:app:${ESM}:plug`);
    expect(names).toEqual(['Desk plug']);
    expect(added.status).toBe(201);
    expect((await hub.call('PUT', `/api/manager/devices/device/${added.id}/capability/onoff`, { body: { value: true } })).status).toBe(200);
  });

  it('runs an app without a main module as the base Homey.App', async () => {
    const kind = await poll(
      () => hub.call<{ base: boolean; id: string }>('GET', `/api/app/${NOMAIN}/kind`),
      (r) => r.status === 200,
      'the app without a main module to answer',
    );
    expect(kind.body).toEqual({ base: true, id: NOMAIN });
    expect((await hub.call<{ state: string }>('GET', `/api/manager/apps/app/${NOMAIN}`)).body.state).toBe('running');
  });
});

describe('an app written plainly: name as text, settings.set(key, undefined), fsync, its own homey package', () => {
  it('runs, its writes flushed and its name taken as English', async () => {
    const state = await poll(
      () => hub.call<Record<string, unknown>>('GET', `/api/app/${PLAIN}/state`),
      (r) => r.status === 200,
      'the plainly written app to answer',
    );
    expect(state.body).toEqual({ channel: null, keys: [], file: 'flushed', folder: 'flushed', datasynced: 'flushed', closed: 'EBADF' });
    const app = (await hub.call<{ state: string; name: string }>('GET', `/api/manager/apps/app/${PLAIN}`)).body;
    expect(app).toMatchObject({ state: 'running', name: 'Plainly written' });
  });
});

describe('ids with spaces (Homey takes any text)', () => {
  it('a driver and its pairing view named with spaces: listed, paired, its page served', async () => {
    await poll(
      () => hub.call<{ state: string }>('GET', `/api/manager/apps/app/${SPACED}`),
      (r) => r.body.state === 'running',
      'the app to run',
    );
    const drivers = await hub.call<Record<string, { id: string; name: string }>>('GET', '/api/manager/drivers/driver');
    expect(drivers.body[`homey:app:${SPACED}:my plug`]?.name).toBe('My plug');
    const paired = await pairFirst(`homey:app:${SPACED}:my plug`);
    expect([paired.session, paired.names, paired.added.status]).toEqual([201, ['Spaced plug'], 201]);
    const page = await fetch(`${hub.url}/app/${SPACED}/drivers/my%20plug/pair/start%20here.html`);
    expect([page.status, (await page.text()).includes('Press the button on the plug')]).toEqual([200, true]);
    // Another client's encoding of the same path.
    expect((await fetch(`${hub.url}/app/${SPACED}/drivers/my%20pl%75g/pair/start%20here.html`)).status).toBe(200);
  });

  it('a flow card named with spaces is listed and runs', async () => {
    const uri = `homey:app:${SPACED}`;
    const card = await hub.call<{ id: string }>('GET', `/api/manager/flow/flowcardaction/${uri}/${encodeURIComponent('turn everything on')}`);
    expect(card.status, card.text).toBe(200);
    const ran = await hub.call('POST', `/api/manager/flow/flowcardaction/${uri}/${encodeURIComponent('turn everything on')}/run`, { body: { args: {} } });
    expect(ran.status, ran.text).toBe(200);
    const setting = await poll(
      () => hub.call<number>('GET', `/api/manager/apps/app/${SPACED}/setting/ran`),
      (r) => r.status === 200,
      'the card to have run',
    );
    expect(setting.body).toBe(1);
  });
});
