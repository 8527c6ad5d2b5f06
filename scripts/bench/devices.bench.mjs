// Devices figures, each next to the nearest thing the hub did before devices, in the same run:
// - a capability value an app reports, to a client subscribed to the devices events (p99), next
//   to a setting the app sets, to a client of the app's channel: both from the app's call to the
//   event at the client on the hub's plain WebSocket (the setting is written durably first; a
//   capability value is written within seconds, values.ts);
// - setCapabilityValue from the API through the device's listener in the app and back (p99 one
//   at a time, and req/s under load), next to a GET of the app's own Web API (also a round trip
//   through the app);
// - the hub's memory (PSS at rest) with 200 virtual devices paired, next to the same hub and app
//   with one (so that what is measured is what each device costs, not the first use of the code).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { api, median, wallNow as now, OWNER, pct, processTree, pssOf, pssRow, sleep, socket, startHub, until, writeAppFiles } from './lib.mjs';

const APP = 'com.bench.devices';
const DEVICES = 200;
const CALLS = 300;
/** At rest: a minute and a half after the last work. */
const REST_MS = 90_000;

const FILES = {
  'app.json': {
    id: APP,
    version: '1.0.0',
    sdk: 3,
    name: { en: 'Bench devices' },
    platforms: ['local'],
    api: { ping: { method: 'GET', path: '/ping' }, report: { method: 'POST', path: '/report' } },
    drivers: [{ id: 'lamp', name: { en: 'Lamp' }, class: 'light', capabilities: ['onoff', 'measure_power'], connectivity: 'lan' }],
  },
  'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
  'api.js': `const now = () => performance.timeOrigin + performance.now();
module.exports = {
  async ping() { return 'pong'; },
  async report({ homey, body }) {
    const stamp = now();
    if (body.kind === 'setting') homey.settings.set('stamp', stamp);
    else await homey.drivers.getDriver('lamp').getDevices()[0].setCapabilityValue('measure_power', stamp);
    return stamp;
  },
};
`,
  'drivers/lamp/driver.js': `const Homey = require('homey');
module.exports = class extends Homey.Driver {
  async onPairListDevices() {
    return Array.from({ length: ${DEVICES} }, (_, i) => ({ name: 'Lamp ' + i, data: { id: 'lamp-' + i } }));
  }
};
`,
  'drivers/lamp/device.js': `const Homey = require('homey');
module.exports = class extends Homey.Device {
  async onInit() {
    this.registerCapabilityListener('onoff', async () => {});
  }
};
`,
};

/** The app's processes (bubblewrap and node): every process below the hub's, which runs this one app. */
async function appPss(hub) {
  return pssOf((await processTree(hub.child.pid)).filter((pid) => pid !== hub.child.pid));
}

const rate = async (opts) => {
  const r = await autocannon({ duration: 4, connections: 16, pipelining: 1, ...opts });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${opts.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.average;
};

export default async function bench({ root, log }) {
  const appsDir = await mkdtemp(join(tmpdir(), 'hearth-bench-devices-'));
  await writeAppFiles(appsDir, APP, FILES);
  const hub = await startHub(root, { appsDir });
  const sockets = [];
  try {
    await until(async () => (await api(hub, 'GET', `/api/manager/apps/app/${APP}`)).ready, 'the app to run', { tries: 2000, everyMs: 10 });
    const session = await api(hub, 'POST', '/api/manager/drivers/pairsession', { driverId: `homey:app:${APP}:lamp` });
    const listed = await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/emit`, { event: 'list_devices' });
    const ids = [];
    const pair = async (devices) => {
      for (const d of devices) ids.push((await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/device`, d)).id);
    };
    // The baseline has one device: every code path of devices has run once (its modules loaded,
    // its functions compiled), so the difference is what 199 more devices cost.
    await pair(listed.slice(0, 1));
    // V8 gives back what a burst of work grew its heap by after about a minute of rest (measured:
    // 83 MiB just after pairing 200, 83 at 25 s, 55 at 60 s and after).
    await sleep(REST_MS);
    const hubBefore = await pssOf([hub.child.pid]);
    const appBefore = await appPss(hub);
    await pair(listed.slice(1));
    await api(hub, 'DELETE', `/api/manager/drivers/pairsession/${session.id}`);
    log(`paired ${ids.length} devices`);
    await sleep(REST_MS);
    const hubPaired = await pssOf([hub.child.pid]);
    const appPaired = await appPss(hub);

    // App to client, from the moment the app makes its call (the stamp its api.js answers) to the
    // event at the client: a capability value on the devices events, an app setting on the app's
    // channel (realtime pushes are budgeted at 10 a minute, settings are not).
    const arrived = { capability: [], setting: [] };
    sockets.push(
      await socket(`ws://127.0.0.1:${hub.port}/api/manager/devices?token=${OWNER}`, (event, [e]) => {
        if (event === 'capability.update' && e.capabilityId === 'measure_power') arrived.capability.push(now());
      }),
      await socket(`ws://127.0.0.1:${hub.port}/api/app/${APP}?token=${OWNER}`, (event, [key]) => {
        if (event === 'settings.set' && key === 'stamp') arrived.setting.push(now());
      }),
    );
    const took = { capability: [], setting: [] };
    for (const kind of ['capability', 'setting', 'capability', 'setting']) {
      for (let i = 0; i < CALLS / 2; i++) {
        const before = arrived[kind].length;
        const stamp = await api(hub, 'POST', `/api/app/${APP}/report`, { kind });
        await until(() => arrived[kind].length > before, `a ${kind} event`, { tries: 2000, everyMs: 10 });
        took[kind].push(arrived[kind][before] - stamp);
      }
    }
    const capability = took.capability.sort((a, b) => a - b);
    const realtime = took.setting.sort((a, b) => a - b);

    // Through the app and back: a capability set next to the app's own Web API.
    const setOne = `/api/manager/devices/device/${ids[0]}/capability/onoff`;
    const times = { set: [], ping: [] };
    for (let i = 0; i < CALLS; i++) {
      let t = now();
      await api(hub, 'PUT', setOne, { value: i % 2 === 0 });
      times.set.push(now() - t);
      t = now();
      await api(hub, 'GET', `/api/app/${APP}/ping`);
      times.ping.push(now() - t);
    }
    const set = times.set.sort((a, b) => a - b);
    const ping = times.ping.sort((a, b) => a - b);
    const headers = { authorization: `Bearer ${OWNER}`, 'content-type': 'application/json' };
    const setRps = await rate({ url: `${hub.url}${setOne}`, method: 'PUT', headers, body: JSON.stringify({ value: true }) });
    const pingRps = await rate({ url: `${hub.url}/api/app/${APP}/ping`, headers });

    await sleep(REST_MS);
    const hubAfter = await pssOf([hub.child.pid]);
    log(`capability p50 ${median(capability).toFixed(2)} ms, setting p50 ${median(realtime).toFixed(2)} ms; set p50 ${median(set).toFixed(2)} ms`);
    return [
      {
        name: 'capability change, app to subscribed client (p99)',
        value: pct(capability, 99),
        unit: 'ms',
        baseline: 'an app setting the app sets, to a client of its channel',
        baselineValue: pct(realtime, 99),
        ratio: pct(capability, 99) / pct(realtime, 99),
        target: '<= 2 (ratio)',
      },
      {
        name: 'setCapabilityValue through the app and back (p99)',
        value: pct(set, 99),
        unit: 'ms',
        baseline: "GET of the app's Web API",
        baselineValue: pct(ping, 99),
        ratio: pct(set, 99) / pct(ping, 99),
        target: '<= 2 (ratio)',
      },
      {
        name: 'setCapabilityValue under load',
        value: setRps,
        unit: 'req/s',
        baseline: "GET of the app's Web API",
        baselineValue: pingRps,
        ratio: setRps / pingRps,
        target: '>= 0.5 (ratio)',
      },
      pssRow(`hub PSS at rest with ${DEVICES} virtual devices`, hubPaired, 'the same hub with one', hubBefore, '<= 1.15 (ratio)'),
      {
        name: `the app's PSS with ${DEVICES} devices`,
        value: appPaired / 2 ** 20,
        unit: 'MiB',
        baseline: 'with one',
        baselineValue: appBefore / 2 ** 20,
        ratio: appPaired / appBefore,
        target: 'informative',
      },
      {
        name: 'hub PSS at rest after the load above',
        value: hubAfter / 2 ** 20,
        unit: 'MiB',
        baseline: `with ${DEVICES} devices, before it`,
        baselineValue: hubPaired / 2 ** 20,
        ratio: hubAfter / hubPaired,
        target: 'informative',
      },
    ];
  } finally {
    for (const s of sockets) s.close();
    await hub.stop();
    await rm(appsDir, { recursive: true, force: true });
  }
}
