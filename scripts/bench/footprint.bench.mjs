// Footprint figures (issue 16): what a small board feels.
// - Whole-home memory: the PSS of the hub with 10 idle minimal Homey apps (the hub, and each
//   app's bubblewrap processes and node), next to the PSS of 11 bare idle `node` processes. PSS
//   counts a page shared by n processes as 1/n in each, so the total counts the node binary's
//   shared pages once. The two homes are measured one after the other, never side by side (side
//   by side they would share the binary's pages between them), in alternating rounds, both on a
//   private copy of the node binary (as alone on a board: see privateNode in lib.mjs).
// - Ready: from spawn to the first 200 of an authenticated GET, next to a bare Hono server's
//   spawn to its first 200 (both polled the same way), in alternating rounds.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, hubArgs, hubEnv, MiB, median, OWNER, privateNode, processTree, pssOf, sleep, spawnToFirst200, startHub, stopChild } from './lib.mjs';

const APPS = 10;
const ROUNDS = 3;
const READY_ROUNDS = 9;
/**
 * An idle hub's memory moves: V8's memory reducer shrinks the heap some 8-45 s after start (a
 * hub with 10 apps went from 42 to 29 MiB at 16 s, and one started through the code cache only
 * after 32 s), and the first minute's work (the hub's insights written at 60 s, the apps' watch)
 * grows it again by 5-6 MiB outside V8's heap (measured 2026-11-26: 34 MiB at 30-45 s, 40 from
 * 60 s on, V8's heap the same 17-18 MiB throughout). Steady state comes after that first minute:
 * the bench waits 75 s, then takes the median of readings over half a minute. (With 20 s, the
 * figure depended on whether the readings fell before or after the first minute.)
 */
const SETTLE_MS = 75_000;
const SAMPLES = 15;
const SAMPLE_EVERY_MS = 2_000;
const headers = { authorization: `Bearer ${OWNER}` };

/** A minimal Homey app: a CommonJS app.js whose onInit only logs. */
async function writeApps(appsDir) {
  for (let i = 0; i < APPS; i++) {
    const id = `com.bench.idle${i}`;
    const dir = join(appsDir, id);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'app.json'), JSON.stringify({ id, version: '1.0.0', sdk: 3, name: { en: id }, compatibility: '>=5.0.0' }));
    await writeFile(
      join(dir, 'app.js'),
      "const Homey = require('homey');\nmodule.exports = class extends Homey.App { async onInit() { this.log('ready'); } };\n",
    );
  }
}

async function appsReady(hub) {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`${hub.url}/api/manager/apps/app`, { headers });
    const apps = Object.values(await res.json());
    if (apps.length === APPS && apps.every((a) => a.state === 'running' && a.ready)) return;
    await sleep(50);
  }
  throw new Error('the apps never all started');
}

/** The median of SAMPLES readings of the total PSS of the processes `pids()` names, once settled. */
async function settledPss(pids) {
  await sleep(SETTLE_MS);
  const samples = [];
  for (let i = 0; i < SAMPLES; i++) {
    if (i > 0) await sleep(SAMPLE_EVERY_MS);
    samples.push(await pssOf(await pids()));
  }
  return median(samples);
}

/** One home of 11 bare idle node processes: their total PSS once settled. */
async function bareHome(node) {
  const children = Array.from({ length: APPS + 1 }, () => spawn(node, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }));
  try {
    return await settledPss(() => children.map((c) => c.pid));
  } finally {
    await Promise.all(children.map((c) => stopChild(c)));
  }
}

/** The hub with its apps, settled: its own PSS and each app's (bubblewrap and node). */
async function hubHome(root, appsDir, node) {
  // The apps run on the hub's node (process.execPath), so they are on the copy too.
  const hub = await startHub(root, { appsDir, node });
  try {
    await appsReady(hub);
    const total = await settledPss(() => processTree(hub.child.pid));
    // The hub's own share, taken right after (it moves by a fraction of a MiB once settled).
    const own = await pssOf([hub.child.pid]);
    const processes = (await processTree(hub.child.pid)).length;
    return { own, apps: total - own, total, processes };
  } finally {
    await hub.stop();
  }
}

export default async function bench({ root, log }) {
  const work = await mkdtemp(join(tmpdir(), 'hearth-bench-footprint-'));
  try {
    const appsDir = join(work, 'apps');
    await writeApps(appsDir);

    const bare = [];
    const home = [];
    // Both homes on a copy of node that no other process maps (lib.mjs, privateNode).
    const node = await privateNode();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate which goes first, so neither always follows the other's teardown.
        if (round % 2 === 0) bare.push(await bareHome(node.path));
        home.push(await hubHome(root, appsDir, node.path));
        if (round % 2 === 1) bare.push(await bareHome(node.path));
        const h = home.at(-1);
        log(
          `round ${round + 1}: home ${(h.total / MiB).toFixed(1)} MiB (hub ${(h.own / MiB).toFixed(1)}, ${h.processes} processes), bare ${(bare.at(-1) / MiB).toFixed(1)} MiB`,
        );
      }
    } finally {
      await node.remove();
    }

    log('spawn to first 200: hub vs bare Hono');
    const hubMs = [];
    const bareMs = [];
    for (let round = 0; round < READY_ROUNDS; round++) {
      const dataDir = await mkdtemp(join(work, 'data-'));
      const emptyApps = await mkdtemp(join(work, 'apps-'));
      const hubPort = await freePort();
      const barePort = await freePort();
      const hubRun = () =>
        spawnToFirst200(
          hubArgs(root, { port: hubPort, dataDir, appsDir: emptyApps }),
          hubEnv(),
          `http://127.0.0.1:${hubPort}/api/manager/i18n/option/language`,
          { headers },
        );
      const bareRun = () => spawnToFirst200([join(root, 'scripts/bench/bare-hono.mjs')], { PORT: String(barePort) }, `http://127.0.0.1:${barePort}/hello`);
      if (round % 2 === 0) {
        bareMs.push(await bareRun());
        hubMs.push(await hubRun());
      } else {
        hubMs.push(await hubRun());
        bareMs.push(await bareRun());
      }
      await rm(dataDir, { recursive: true, force: true });
    }

    const ownMiB = median(home.map((h) => h.own)) / MiB;
    const appMiB = median(home.map((h) => h.apps)) / APPS / MiB;
    const totalMiB = median(home.map((h) => h.total)) / MiB;
    const bareMiB = median(bare) / MiB;
    const ratio = median(home.map((h, i) => h.total / bare[i]));
    const hubReady = median(hubMs);
    const bareReady = median(bareMs);
    return [
      {
        name: `whole home: hub + ${APPS} idle apps, total PSS`,
        value: totalMiB,
        unit: 'MiB',
        baseline: `${APPS + 1} bare node`,
        baselineValue: bareMiB,
        ratio,
        target: '<= 1.35',
      },
      {
        name: "the hub's own PSS, in that home",
        value: ownMiB,
        unit: 'MiB',
        baseline: 'a bare node, mean',
        baselineValue: bareMiB / (APPS + 1),
        ratio: ownMiB / (bareMiB / (APPS + 1)),
      },
      {
        name: 'PSS per idle app (bubblewrap + node), mean',
        value: appMiB,
        unit: 'MiB',
        baseline: 'a bare node, mean',
        baselineValue: bareMiB / (APPS + 1),
        ratio: appMiB / (bareMiB / (APPS + 1)),
      },
      {
        name: 'spawn to first 200 of an authenticated GET',
        value: hubReady,
        unit: 'ms',
        baseline: 'bare Hono',
        baselineValue: bareReady,
        ratio: median(hubMs.map((h, i) => h / bareMs[i])),
        target: '<= 2',
      },
    ];
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
