// A big home on a 512 MB board (issue 46, item 4): the whole home (the hub, 10 apps with 100 lamps
// each, 1,000 devices in 10 rooms, 400 flows, the web app open on two clients) runs for ten
// minutes in a memory cgroup limited to 512 MiB for all its processes (the hub, bubblewrap, the
// apps' nodes; page cache counted too), and once again the same with no limit, in the same run.
// The apps' timers change 20 values a second between them. Through the ten minutes the home
// bench's latency rounds go on, one a second. Printed: the peak of the cgroup, whether the kernel
// killed anything or any app exited, and each p99 limited beside unlimited (target: within 2x).
// The browsers are not in the cgroup: they stand for the family's phones.
// HEARTH_BENCH_BOARD_MINUTES shortens the ten minutes for a try.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { installHomeyApi } from '../homey-api.mjs';
import { inCgroup, memoryCgroup } from './cgroup.mjs';
import { build, latencies } from './home.bench.mjs';
import { HOME_APP, writeHomeApp } from './home-app.mjs';
import { api, CHROMIUM, CHROMIUM_FLAGS, MiB, OWNER, pssOf, sleep, startHub, until, wallNow } from './lib.mjs';

const LIMIT = 512 * MiB;
const APPS = Array.from({ length: 10 }, (_, i) => (i === 0 ? HOME_APP : `${HOME_APP}${i}`));
const HOME = { devices: 1000, zones: 10, flows: 400 };
const MINUTES = Number(process.env.HEARTH_BENCH_BOARD_MINUTES ?? 10);

/** Two phones with the web app open: the home screen and the devices page, signed in as the owner. */
async function phones(hub) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const pages = [];
  for (const route of ['#/home', '#/devices']) {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    await page.goto(`${hub.url}/`);
    await page.evaluate((t) => localStorage.setItem('hearth.token', t), OWNER);
    await page.goto(`${hub.url}/${route}`);
    await page.waitForLoadState('networkidle');
    pages.push(page);
  }
  return { browser, pages };
}

/** One run of the home in a cgroup of `limit` bytes (null: none): its p99s, the peak, what died. */
async function run(root, log, homeyApi, limit, label) {
  const cgroup = await memoryCgroup(`hearth-bench-board-${process.pid}-${label}`, limit);
  if (cgroup.reason) throw new Error(cgroup.reason);
  const appsDir = await mkdtemp(join(tmpdir(), `hearth-bench-board-${label}-`));
  let hub;
  let browser;
  try {
    for (const id of APPS) await writeHomeApp(appsDir, HOME.devices / APPS.length, { id, perSecond: 20 / APPS.length });
    hub = await startHub(root, { appsDir, wrap: (node, args) => inCgroup(cgroup.procs, node, args) });
    await api(hub, 'PUT', '/api/manager/system/option/setupDone', { value: true });
    for (const id of APPS) await until(async () => (await api(hub, 'GET', `/api/manager/apps/app/${id}`)).ready, `${id} to run`, { tries: 600, everyMs: 100 });
    const t = wallNow();
    const home = await build(hub, HOME, APPS);
    log(`${label}: ${home.ids.length} lamps of ${APPS.length} apps and ${HOME.flows + 2} flows made in ${((wallNow() - t) / 1000).toFixed(1)} s`);
    ({ browser } = await phones(hub));
    const pages = browser.contexts().map((c) => c.pages()[0]);
    // The PSS of every process in the cgroup, every 5 s: what they use, whoever read a shared
    // file first (the kernel charges a page of the node binary to the cgroup that read it first).
    let sampling = true;
    const pss = { peak: 0, processes: 0 };
    const sampler = (async () => {
      while (sampling) {
        const pids = await cgroup.pids();
        pss.peak = Math.max(pss.peak, await pssOf(pids));
        pss.processes = Math.max(pss.processes, pids.length);
        await sleep(5000);
      }
    })();
    const lat = await latencies(hub, home, homeyApi, { rounds: Number.POSITIVE_INFINITY, pauseMs: 1000, deadline: wallNow() + MINUTES * 60_000 });
    // Still there: the hub answers, every app runs as it started, both pages still live.
    const apps = await Promise.all(APPS.map((id) => api(hub, 'GET', `/api/manager/apps/app/${id}`)));
    const exits = apps.reduce((n, a) => n + a.exitCount + (a.state === 'running' ? 0 : 1), 0);
    for (const page of pages) await page.evaluate(() => document.title);
    sampling = false;
    await sampler;
    const peak = await cgroup.peak();
    const killed = await cgroup.oomKills();
    log(
      `${label}: peak ${(peak / MiB).toFixed(0)} MiB charged, ${(pss.peak / MiB).toFixed(0)} MiB PSS of ${pss.processes} processes, ${killed} killed by the kernel, ${exits} app exits; p99 ${Object.entries(
        lat,
      )
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ')} ms`,
    );
    return { lat, peak, pss: pss.peak, processes: pss.processes, killed, exits };
  } finally {
    await browser?.close();
    await hub?.stop();
    await cgroup.remove();
    await rm(appsDir, { recursive: true, force: true });
  }
}

export default async function bench({ root, log }) {
  if (!existsSync(CHROMIUM)) throw new Error(`the board bench opens the web app in Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  const { homeyApi } = await installHomeyApi(root);
  const client = homeyApi();
  const free = await run(root, log, client, null, 'unlimited');
  await sleep(5000);
  const small = await run(root, log, client, LIMIT, '512 MiB');
  const names = {
    homey: 'capability change, app to a homey-api client',
    ws: "capability change, app to the web app's socket",
    flow: 'flow trigger to action',
    setting: "durable write: an app's setting",
    rename: 'durable write: a device renamed',
    save: 'durable write: a flow saved',
  };
  return [
    {
      name: `the home's ${small.processes} processes at their peak, PSS, ${MINUTES} min`,
      value: small.pss / MiB,
      unit: 'MiB',
      baseline: 'no limit',
      baselineValue: free.pss / MiB,
      target: '<= 512 MiB',
    },
    {
      name: `the same as the cgroup charged it`,
      value: small.peak / MiB,
      unit: 'MiB',
      baseline: 'no limit',
      baselineValue: free.peak / MiB,
      target: '<= 512 MiB',
    },
    {
      name: 'processes killed by the kernel, or apps that exited',
      value: small.killed + small.exits,
      unit: '',
      baseline: 'no limit',
      baselineValue: free.killed + free.exits,
      target: '0',
    },
    ...Object.entries(names).map(([key, name]) => ({
      name: `${name} (p99)`,
      value: small.lat[key],
      unit: 'ms',
      baseline: 'no limit',
      baselineValue: free.lat[key],
      ratio: small.lat[key] / free.lat[key],
      target: '<= 2 (ratio)',
    })),
  ];
}
