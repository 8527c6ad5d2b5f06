// Dashboards figures: getDashboards with 20 dashboards (the hot read of every dashboard client)
// next to a bare Hono app answering the same JSON document (the ~38 KB body, not the hub, is
// most of the cost: a hello-world baseline is shown too), and the round trip of an
// autocomplete request through a real app's child process (HTTP -> hub -> IPC -> app listener
// -> back) next to a bare HTTP GET, and beside it a widget's `Homey.api` round trip (the GET a
// widget page makes to its app's widget API: HTTP -> hub -> IPC -> the widget's api.mjs -> back).
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { api, load, median, OWNER, pct, sleep, startHub, startListening, stopChild } from './lib.mjs';

const APP = 'com.test.widgets';
// The example greeter: its greeting widget answers `Homey.api('GET', '/?person=…')`.
const GREETER = 'com.hearth.greeter';
const headers = { authorization: `Bearer ${OWNER}` };

async function waitRunning(hub, id) {
  for (let i = 0; i < 400; i++) {
    const app = await api(hub, 'GET', `/api/manager/apps/app/${id}`).catch(() => null);
    if (app?.state === 'running' && app.ready) return;
    await sleep(50);
  }
  throw new Error(`${id} never started`);
}

/** Latencies (ms) of `n` sequential GETs on one keep-alive connection, after a warm-up. */
async function roundTrips(url, n, init = {}) {
  for (let i = 0; i < 50; i++) await (await fetch(url, init)).arrayBuffer();
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, init);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}
// A bare Hono app answering GET /doc with the JSON document in $PAYLOAD (serialised per request,
// as a plain handler would). Run from the repository root so the packages resolve.
const BARE_DOC = `
const { serve } = require('@hono/node-server');
const { Hono } = require('hono');
const doc = JSON.parse(require('node:fs').readFileSync(process.env.PAYLOAD, 'utf8'));
const app = new Hono();
app.get('/doc', (c) => c.json(doc));
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.stdout.write(JSON.stringify({ msg: 'listening', port: info.port }) + '\\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

function startBareDoc(root, payload) {
  const child = spawn(process.execPath, ['-e', BARE_DOC], { cwd: root, env: { ...process.env, PAYLOAD: payload }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const e = JSON.parse(line);
        if (e.msg === 'listening') resolve({ child, port: e.port });
      } catch {}
    });
    child.once('exit', (code) => reject(new Error(`bare document server exited ${code}`)));
  });
}

export default async function bench({ root, log }) {
  const appsDir = await mkdtemp(join(tmpdir(), 'hearth-bench-dash-apps-'));
  await cp(join(root, 'test/managers/dashboards/fixtures', APP), join(appsDir, APP), { recursive: true });
  await cp(join(root, 'examples', GREETER), join(appsDir, GREETER), { recursive: true });
  const bare = await startListening([join(root, 'scripts/bench/bare-hono.mjs')]);
  let hub;
  let bareDoc;
  try {
    hub = await startHub(root, { appsDir });
    await waitRunning(hub, APP);
    await waitRunning(hub, GREETER);
    // 20 dashboards of 3 columns x 4 widgets with settings: a well-used household hub.
    for (let d = 0; d < 20; d++) {
      const columns = Array.from({ length: 3 }, (_, c) => ({
        widgets: Array.from({ length: 4 }, (_, w) => ({
          appWidgetId: `${APP}:${w % 2 ? 'note' : 'clock'}`,
          settings: { city: `City ${d}-${c}-${w}`, seconds: w % 2 === 0 },
        })),
      }));
      await api(hub, 'POST', '/api/manager/dashboards/dashboard', { name: `Dashboard ${d}`, columns });
    }
    const listText = await (await fetch(`${hub.url}/api/manager/dashboards/dashboard`, { headers })).text();
    log(`getDashboards answers ${Buffer.byteLength(listText)} bytes`);
    const payload = join(appsDir, 'dashboards.json');
    await writeFile(payload, listText);
    bareDoc = await startBareDoc(root, payload);

    const bareUrl = `http://127.0.0.1:${bare.port}/hello`;
    const docUrl = `http://127.0.0.1:${bareDoc.port}/doc`;
    const listUrl = `${hub.url}/api/manager/dashboards/dashboard`;
    log('warming up');
    await load(bareUrl, { seconds: 1 });
    await load(docUrl, { seconds: 1 });
    await load(listUrl, { headers, seconds: 1 });
    const b = [];
    const d = [];
    const h = [];
    // Alternate rounds so drift in the machine's load hits every side alike.
    for (let round = 0; round < 3; round++) {
      b.push(await load(bareUrl));
      d.push(await load(docUrl));
      h.push(await load(listUrl, { headers }));
      log(
        `round ${round + 1}: bare hello ${b.at(-1).rps.toFixed(0)} req/s, bare same document ${d.at(-1).rps.toFixed(0)} req/s, getDashboards ${h.at(-1).rps.toFixed(0)} req/s`,
      );
    }
    const bareRps = median(b.map((x) => x.rps));
    const docRps = median(d.map((x) => x.rps));
    const hubRps = median(h.map((x) => x.rps));
    const docP99 = median(d.map((x) => x.p99));
    const hubP99 = median(h.map((x) => x.p99));

    const acUrl = `${hub.url}/api/manager/dashboards/appwidget/${APP}:clock/autocomplete?settingId=city&query=p&settings=${encodeURIComponent('{"units":"metric"}')}`;
    const widgetUrl = `${hub.url}/api/app/${GREETER}/widgets/greeting/?person=Ada`;
    const ac = [];
    const wa = [];
    const plain = [];
    for (let round = 0; round < 3; round++) {
      plain.push(await roundTrips(bareUrl, 1000));
      ac.push(await roundTrips(acUrl, 1000, { headers }));
      wa.push(await roundTrips(widgetUrl, 1000, { headers }));
      log(
        `round ${round + 1}: autocomplete p50 ${pct(ac.at(-1), 50).toFixed(2)} ms, p99 ${pct(ac.at(-1), 99).toFixed(2)} ms; widget Homey.api p50 ${pct(wa.at(-1), 50).toFixed(2)} ms, p99 ${pct(wa.at(-1), 99).toFixed(2)} ms`,
      );
    }
    const waP99 = median(wa.map((t) => pct(t, 99)));
    const acP99 = median(ac.map((t) => pct(t, 99)));
    const acP50 = median(ac.map((t) => pct(t, 50)));
    const plainP99 = median(plain.map((t) => pct(t, 99)));
    const plainP50 = median(plain.map((t) => pct(t, 50)));

    return [
      {
        name: 'getDashboards (20 dashboards) throughput',
        value: hubRps,
        unit: 'req/s',
        baseline: 'bare Hono, same JSON',
        baselineValue: docRps,
        ratio: hubRps / docRps,
        target: '>= 0.60',
      },
      {
        name: 'getDashboards (20 dashboards) p99 latency',
        value: hubP99,
        unit: 'ms',
        baseline: 'bare Hono, same JSON',
        baselineValue: docP99,
        ratio: hubP99 / Math.max(docP99, 0.01),
      },
      {
        name: 'getDashboards (20 dashboards) throughput vs hello-world',
        value: hubRps,
        unit: 'req/s',
        baseline: 'bare Hono hello',
        baselineValue: bareRps,
        ratio: hubRps / bareRps,
      },
      {
        name: 'autocomplete round trip through an app, p99',
        value: acP99,
        unit: 'ms',
        baseline: 'bare Hono GET',
        baselineValue: plainP99,
        ratio: acP99 / Math.max(plainP99, 0.01),
        target: '<= 20 ms',
      },
      {
        name: 'widget Homey.api round trip through an app, p99',
        value: waP99,
        unit: 'ms',
        baseline: 'autocomplete round trip p99',
        baselineValue: acP99,
        ratio: waP99 / Math.max(acP99, 0.01),
      },
      {
        name: 'autocomplete round trip through an app, p50',
        value: acP50,
        unit: 'ms',
        baseline: 'bare Hono GET',
        baselineValue: plainP50,
        ratio: acP50 / Math.max(plainP50, 0.01),
      },
    ];
  } finally {
    await stopChild(bare.child);
    if (bareDoc) await stopChild(bareDoc.child);
    await hub?.stop();
    await rm(appsDir, { recursive: true, force: true });
  }
}
