// The app of the home bench (home.bench.mjs): a driver of lamps (onoff, dim, measure_power) that
// lists as many as asked, a trigger card `fired` whose run listener lets a flow go on when its `n`
// is the one fired, an action card `act` that stamps the wall clock for its `n`, and a timer that
// changes 20 capability values a second (a dim level of a random lamp), as a busy home's apps do.
// Its Web API answers the bench: `report` makes a capability change or a durable setting and
// answers the moment it made it, `fire` starts the trigger, `stamps` says how often `act` ran for
// an `n` and when last; each run of `act` is also told on the app's socket (`acted`).
import { writeAppFiles } from './lib.mjs';

export const HOME_APP = 'com.bench.home';

const manifest = (id) => ({
  id,
  version: '1.0.0',
  sdk: 3,
  name: { en: 'Bench home' },
  platforms: ['local'],
  api: {
    ping: { method: 'GET', path: '/ping' },
    report: { method: 'POST', path: '/report' },
    fire: { method: 'POST', path: '/fire' },
    stamps: { method: 'GET', path: '/stamps' },
  },
  flow: {
    triggers: [{ id: 'fired', title: { en: 'Fired' }, args: [{ type: 'number', name: 'n', title: { en: 'n' } }] }],
    actions: [{ id: 'act', title: { en: 'Act' }, args: [{ type: 'number', name: 'n', title: { en: 'n' } }] }],
  },
  drivers: [{ id: 'lamp', name: { en: 'Lamp' }, class: 'light', capabilities: ['onoff', 'dim', 'measure_power'], connectivity: 'lan' }],
});

const APP_JS = (perSecond) => `const Homey = require('homey');
const now = () => performance.timeOrigin + performance.now();
module.exports = class extends Homey.App {
  async onInit() {
    this.stamps = {};
    this.fired = this.homey.flow.getTriggerCard('fired');
    this.fired.registerRunListener(async (args, state) => args.n === state.n);
    this.homey.flow.getActionCard('act').registerRunListener(async (args) => {
      const s = (this.stamps[args.n] ??= { count: 0, last: 0 });
      s.count++;
      s.last = now();
      // Told to the bench on the app's socket (not asked of the app in a loop: polling would load
      // the hub and the app while the trigger it measures goes through them).
      this.homey.api.realtime('acted', { n: args.n, last: s.last }).catch(() => {});
    });
    // ${perSecond} changes a second, spread over the lamps.
    let i = 0;
    this.homey.setInterval(() => {
      const lamps = this.homey.drivers.getDriver('lamp').getDevices();
      if (lamps.length === 0) return;
      const lamp = lamps[Math.floor(Math.random() * lamps.length)];
      lamp.setCapabilityValue('dim', (i++ % 100) / 100).catch(() => {});
    }, ${Math.round(1000 / perSecond)});
  }
};
`;

const API_JS = `const now = () => performance.timeOrigin + performance.now();
const first = (homey) => homey.drivers.getDriver('lamp').getDevices().find((d) => d.getData().id === 'lamp-0');
module.exports = {
  async ping() { return 'pong'; },
  async report({ homey, body }) {
    const stamp = now();
    if (body.kind === 'setting') homey.settings.set('stamp', stamp);
    else await first(homey).setCapabilityValue('measure_power', stamp);
    return stamp;
  },
  async fire({ homey, body }) {
    const stamp = now();
    await homey.app.fired.trigger({}, { n: body.n });
    return stamp;
  },
  async stamps({ homey, query }) {
    return homey.app.stamps[query.n] ?? { count: 0, last: 0 };
  },
};
`;

const DRIVER_JS = (devices) => `const Homey = require('homey');
module.exports = class extends Homey.Driver {
  async onPairListDevices() {
    return Array.from({ length: ${devices} }, (_, i) => ({ name: 'Lamp ' + i, data: { id: 'lamp-' + i } }));
  }
};
`;

const DEVICE_JS = `const Homey = require('homey');
module.exports = class extends Homey.Device {
  async onInit() {
    this.registerCapabilityListener('onoff', async () => {});
    this.registerCapabilityListener('dim', async () => {});
  }
};
`;

/**
 * Writes the app into `appsDir`, its driver listing `devices` lamps and its timer changing
 * `perSecond` values a second; `id` names another copy of it (a home of several apps).
 */
export async function writeHomeApp(appsDir, devices, { id = HOME_APP, perSecond = 20 } = {}) {
  const files = {
    'app.json': JSON.stringify(manifest(id)),
    'app.js': APP_JS(perSecond),
    'api.js': API_JS,
    'drivers/lamp/driver.js': DRIVER_JS(devices),
    'drivers/lamp/device.js': DEVICE_JS,
  };
  await writeAppFiles(appsDir, id, files);
}
