// Energy (issue 43). 1. The live report of a home of 200 metering plugs (each with its power and
// its own kWh) against the plain devices list of the same home, req/s in alternating rounds: the
// live report is worked out afresh from every device on each ask. 2. A month's report from a year
// of insights at 1-minute resolution (20 meters, a point a minute for 365 days, through the
// insights service into a real SQLite file): its time against the Insights page's read of the
// same 20 logs for that month (getLogEntries lastMonth-like, the calendar month), cold and warm.
// Runs against dist/.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { api, load, median, OWNER, startHub, until, writeAppFiles } from './lib.mjs';

const APP = 'com.bench.energy';
const PLUGS = 200;
const METERS = 20;
const ROUNDS = 3;

const FILES = {
  'app.json': {
    id: APP,
    version: '1.0.0',
    sdk: 3,
    name: { en: 'Bench energy' },
    platforms: ['local'],
    drivers: [{ id: 'plug', name: { en: 'Plug' }, class: 'socket', capabilities: ['onoff', 'measure_power', 'meter_power'], connectivity: 'lan' }],
  },
  'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
  'drivers/plug/driver.js': `const Homey = require('homey');
module.exports = class extends Homey.Driver {
  async onPairListDevices() {
    return Array.from({ length: ${PLUGS} }, (_, i) => ({ name: 'Plug ' + i, data: { id: 'plug-' + i } }));
  }
};
`,
  'drivers/plug/device.js': `const Homey = require('homey');
module.exports = class extends Homey.Device {
  async onInit() {
    this.registerCapabilityListener('onoff', async () => {});
    await this.setCapabilityValue('onoff', true);
    await this.setCapabilityValue('measure_power', 10 + Math.round(Math.random() * 1000) / 10);
    await this.setCapabilityValue('meter_power', Math.round(Math.random() * 10000) / 100);
  }
};
`,
};

async function liveAgainstList(root, log) {
  const appsDir = await mkdtemp(join(tmpdir(), 'hearth-bench-energy-'));
  await writeAppFiles(appsDir, APP, FILES);
  const hub = await startHub(root, { appsDir });
  try {
    await until(async () => (await api(hub, 'GET', `/api/manager/apps/app/${APP}`)).ready, 'the app to run', { tries: 2000, everyMs: 10 });
    const session = await api(hub, 'POST', '/api/manager/drivers/pairsession', { driverId: `homey:app:${APP}:plug` });
    const listed = await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/emit`, { event: 'list_devices' });
    for (const d of listed) await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/device`, d);
    await api(hub, 'DELETE', `/api/manager/drivers/pairsession/${session.id}`);
    await until(async () => (await api(hub, 'GET', '/api/manager/energy/live')).items.filter((i) => i.values.W > 0).length === PLUGS, 'every plug to report', {
      tries: 600,
      everyMs: 50,
    });
    log(`paired ${PLUGS} metering plugs`);
    const headers = { authorization: `Bearer ${OWNER}` };
    const rps = { live: [], list: [] };
    for (let r = 0; r < ROUNDS; r++) {
      rps.list.push((await load(`${hub.url}/api/manager/devices/device`, { headers, seconds: 3, connections: 4 })).rps);
      rps.live.push((await load(`${hub.url}/api/manager/energy/live`, { headers, seconds: 3, connections: 4 })).rps);
    }
    return { live: median(rps.live), list: median(rps.list) };
  } finally {
    await hub.stop();
    await rm(appsDir, { recursive: true, force: true });
  }
}

async function monthFromAYear(root, log) {
  const dist = (p) => import(pathToFileURL(join(root, 'dist', p)).href);
  const { InsightsService } = await dist('managers/insights/service.js');
  const { EventBus } = await dist('core/events.js');
  const { periodOf, periodKeyAt } = await dist('managers/energy/periods.js');
  const { buildReport } = await dist('managers/energy/reports.js');
  const { default: pino } = await import('pino');
  const dir = await mkdtemp(join(tmpdir(), 'hearth-bench-energy-year-'));
  const svc = new InsightsService({ dataDir: dir, zone: 'Europe/Amsterdam', bus: new EventBus(), log: pino({ level: 'silent' }) });
  svc.start();
  try {
    const now = Date.now();
    const start = now - 365 * 86_400_000;
    const keys = [];
    for (let m = 0; m < METERS; m++) {
      svc.createLog(`homey:device:meter-${m}`, 'meter_power', { title: 'Energy', units: 'kWh', decimals: 2 });
      keys.push(`homey:device:meter-${m}:meter_power`);
    }
    const t0 = performance.now();
    const kWh = new Array(METERS).fill(0);
    for (let t = start; t < now - 60_000; t += 60_000) {
      for (let m = 0; m < METERS; m++) {
        kWh[m] += 0.001 + ((t / 60_000 + m) % 7) / 1000;
        svc.createEntry(keys[m], kWh[m], t);
      }
    }
    svc.flush();
    log(
      `wrote a year of 1-minute points for ${METERS} meters (${Math.round((365 * 1440 * METERS) / 1e6)} M points) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    // Last month: a closed period, as a family opens it on the 1st.
    const lastMonth = periodKeyAt('month', periodOf('month', periodKeyAt('month', now, 'Europe/Amsterdam'), 'Europe/Amsterdam').start - 1, 'Europe/Amsterdam');
    const period = periodOf('month', lastMonth, 'Europe/Amsterdam');
    const sources = {
      series: keys.map((key, i) => ({ deviceId: `meter-${i}`, column: 'consumed', key })),
      readings: (k, s, e) => svc.hourReadings(k, s, e),
      device: (id) => ({ name: id, zone: 'home' }),
      zonesOf: () => ['home'],
      pricePerKWh: 0.3,
      currency: 'EUR',
    };
    const time = (fn) => {
      const t = performance.now();
      fn();
      return performance.now() - t;
    };
    const cold = time(() => buildReport(period, sources));
    const report = [];
    const chart = [];
    for (let i = 0; i < 20; i++) {
      report.push(time(() => buildReport(period, sources)));
      chart.push(
        time(() => {
          for (const k of keys) svc.entries(k, 'lastMonth');
        }),
      );
    }
    log(
      `month report of ${METERS} meters: cold ${cold.toFixed(1)} ms, warm median ${median(report).toFixed(1)} ms; their month charts ${median(chart).toFixed(1)} ms`,
    );
    return { cold, report: median(report), chart: median(chart) };
  } finally {
    svc.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export default async function bench({ root, log }) {
  const live = await liveAgainstList(root, log);
  const month = await monthFromAYear(root, log);
  return [
    {
      name: `live report of ${PLUGS} metering plugs (time per answer)`,
      value: 1000 / live.live,
      unit: 'ms',
      baseline: 'the devices list of the same home',
      baselineValue: 1000 / live.list,
      ratio: live.list / live.live,
      target: '<= 2 (ratio)',
    },
    {
      name: `a month's report from a year of 1-minute insights, ${METERS} meters (warm)`,
      value: month.report,
      unit: 'ms',
      baseline: "the Insights page's month of the same logs",
      baselineValue: month.chart,
      ratio: month.report / month.chart,
      target: '<= 1 (ratio); <= 50 ms',
    },
    {
      name: `the same, the first time (cold)`,
      value: month.cold,
      unit: 'ms',
      baseline: 'warm',
      baselineValue: month.report,
      ratio: month.cold / month.report,
      target: '<= 100 ms',
    },
  ];
}
