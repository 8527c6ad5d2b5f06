// Flows figures, each next to a round trip through an app the hub did before flows, in the same run:
// - a trigger to its action through two app processes (p99): app A fires its trigger card, the
//   hub asks A's run listener which flows go on, and runs the flow's action in app B; measured from
//   A's call to B's listener (both stamp the wall clock), next to a GET of an app's own Web API
//   (the client to the hub, the hub to the app and back);
// - one trigger with 1,000 flows on its card, of which the run listener lets one go on (time per
//   trigger, p50, from A's call to B's listener), next to the same trigger with one flow on it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, median, wallNow as now, pct, startHub, until, writeAppFiles } from './lib.mjs';

const A = 'com.bench.sender';
const B = 'com.bench.receiver';
const CALLS = 300;
const MANY = 1000;
const manifest = (id, extra) => ({ id, version: '1.0.0', sdk: 3, name: { en: id }, platforms: ['local'], ...extra });

const APPS = {
  [A]: {
    'app.json': manifest(A, {
      api: { fire: { method: 'POST', path: '/fire' }, ping: { method: 'GET', path: '/ping' } },
      flow: { triggers: [{ id: 'fired', title: { en: 'Fired' }, args: [{ type: 'number', name: 'n', title: { en: 'n' } }] }] },
    }),
    'app.js': `const Homey = require('homey');
module.exports = class extends Homey.App {
  async onInit() {
    this.fired = this.homey.flow.getTriggerCard('fired');
    this.fired.registerRunListener(async (args, state) => args.n === state.n);
  }
};
`,
    'api.js': `const now = () => performance.timeOrigin + performance.now();
module.exports = {
  async ping() { return 'pong'; },
  async fire({ homey, body }) {
    const stamp = now();
    await homey.app.fired.trigger({}, { n: body.n });
    return stamp;
  },
};
`,
  },
  [B]: {
    'app.json': manifest(B, {
      api: { stamps: { method: 'GET', path: '/stamps' } },
      flow: { actions: [{ id: 'act', title: { en: 'Act' }, args: [{ type: 'number', name: 'n', title: { en: 'n' } }] }] },
    }),
    'app.js': `const Homey = require('homey');
const now = () => performance.timeOrigin + performance.now();
module.exports = class extends Homey.App {
  async onInit() {
    this.stamps = {};
    this.homey.flow.getActionCard('act').registerRunListener(async (args) => { this.stamps[args.n] = now(); });
  }
};
`,
    'api.js': 'module.exports = { async stamps({ homey }) { return homey.app.stamps; } };\n',
  },
};

async function writeApps(appsDir) {
  for (const [id, files] of Object.entries(APPS)) await writeAppFiles(appsDir, id, files);
}

const flow = (n) => ({
  name: `flow ${n}`,
  trigger: { id: `homey:app:${A}:fired`, args: { n } },
  actions: [{ id: `homey:app:${B}:act`, args: { n } }],
});

export default async function bench({ root, log }) {
  const appsDir = await mkdtemp(join(tmpdir(), 'hearth-bench-flows-'));
  await writeApps(appsDir);
  const hub = await startHub(root, { appsDir });
  try {
    for (const id of [A, B]) await until(async () => (await api(hub, 'GET', `/api/manager/apps/app/${id}`)).ready, `${id} to run`, { everyMs: 2 });
    const single = (await api(hub, 'POST', '/api/manager/flow/flow', flow(0))).id;

    /** Fires for `n` and waits for B's listener to have run for it: the time between, in ms. */
    let stampsSeen = 0;
    const once = async (n) => {
      const sent = await api(hub, 'POST', `/api/app/${A}/fire`, { n });
      const stamps = await until(
        async () => {
          const s = await api(hub, 'GET', `/api/app/${B}/stamps`);
          return Object.keys(s).length > stampsSeen ? s : null;
        },
        `the action for ${n}`,
        { everyMs: 2 },
      );
      stampsSeen = Object.keys(stamps).length;
      return stamps[n] - sent;
    };
    // Each round uses a fresh n on the one flow: B keeps one stamp per n.
    const tookOne = [];
    const ping = [];
    let n = 0;
    for (let i = 0; i < CALLS; i++) {
      await api(hub, 'PUT', `/api/manager/flow/flow/${single}`, flow(++n));
      tookOne.push(await once(n));
      const t = now();
      await api(hub, 'GET', `/api/app/${A}/ping`);
      ping.push(now() - t);
    }
    const one = [...tookOne].sort((a, b) => a - b);
    const pings = [...ping].sort((a, b) => a - b);
    log(`trigger to action p50 ${median(one).toFixed(2)} ms, ping p50 ${median(pings).toFixed(2)} ms`);

    // 1,000 flows on the card: each trigger lets one go on (the run listener compares n).
    const base = n + 1;
    for (let i = 0; i < MANY - 1; i++) await api(hub, 'POST', '/api/manager/flow/flow', flow(base + i));
    log(`${MANY} flows on one trigger card`);
    const tookMany = [];
    for (let i = 0; i < CALLS / 3; i++) tookMany.push(await once(base + (i % (MANY - 1))));
    const many = [...tookMany].sort((a, b) => a - b);
    log(`with ${MANY} flows p50 ${median(many).toFixed(2)} ms`);
    return [
      {
        name: 'a trigger to its action through two app processes (p99)',
        value: pct(one, 99),
        unit: 'ms',
        baseline: "GET of an app's Web API",
        baselineValue: pct(pings, 99),
        ratio: pct(one, 99) / pct(pings, 99),
        target: '<= 3 (ratio)',
      },
      {
        name: `one trigger with ${MANY} flows on its card (p50 per trigger)`,
        value: median(many),
        unit: 'ms',
        baseline: 'with one flow on it',
        baselineValue: median(one),
        ratio: median(many) / median(one),
        target: '<= 5 (ratio)',
      },
    ];
  } finally {
    await hub.stop();
    await rm(appsDir, { recursive: true, force: true });
  }
}
