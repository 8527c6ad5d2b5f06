// A big home on a small board (issue 46): the same hub and app twice in one run, once as an empty
// home (one lamp, the bench's own two flows) and once as a big one (1,000 lamps in 10 rooms, 400
// flows besides), each built through the Web API as a person would (rooms, pairing sessions,
// flows), with the app's timer changing 20 capability values a second in both (home-app.mjs).
// Each figure of the big home is printed beside the empty home's:
// - the hub's PSS at rest (after V8 settles; the apps are not counted);
// - spawn to the first authenticated 200 on each home's data (restarts, the two homes alternating);
// - a capability change the app makes, to a `homey-api` client (a capability instance of the lamp)
//   and to the web app's socket (p99);
// - the app's trigger to its action (p99);
// - a durable write to the client that hears it (p99): an app's setting, a device renamed, a flow
//   saved;
// - setCapabilityValue through the Web API under load, next to a GET of the app's Web API;
// - and in the big home, the hub's PSS peak while 200 lamps are paired one after another;
// - and first, the machine's own floor under the targets in ms (floor.mjs): two bare Node
//   processes' IPC round trip and a small durable append, p99.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { installHomeyApi } from '../homey-api.mjs';
import { machineFloor } from './floor.mjs';
import { HOME_APP, writeHomeApp } from './home-app.mjs';
import {
  api,
  arrivals,
  freePort,
  hubArgs,
  hubEnv,
  MiB,
  median,
  wallNow as now,
  OWNER,
  p99,
  pssByKind,
  pssOf,
  sleep,
  socket,
  spawnToFirst200,
  startHub,
  stopChild,
  until,
} from './lib.mjs';

const BIG = { devices: 1000, zones: 10, flows: 400 };
/**
 * Rounds of latency samples: a p99 of 300 was the third-slowest sample, and moved by a factor
 * between runs of one build (the flow's 11.0, 12.9, 10.5 ms); of 1,000 it is the tenth.
 */
const CALLS = 1000;
/**
 * A pause before each round of latency samples. Rounds back to back were a load test, not a home:
 * the bench, the hub and the app kept both cores of the two-core machine ~80% busy (`perf sched`:
 * 6.1 s of CPU in 3.8 s of rounds), so a process woken by the one before it waited for a core up
 * to a scheduler tick (4 ms), and the p99s were that queue's. 20 ms leaves a round's work its own
 * (~35 rounds a second, more than people and the app's timer make together); the throughput is
 * measured on its own below.
 */
const ROUND_PAUSE_MS = 20;
const BURST = 200;
/** V8 shrinks an idle heap 10-45 s after work, and the first minute's chores grow it again (footprint.bench.mjs). */
const SETTLE_MS = 75_000;

/**
 * Rooms, lamps paired into them (one session a room, room r's from app r of `apps`), and flows:
 * the home a family would make. The bench's own flows and lamp 0 are the first app's.
 */
export async function build(hub, { devices, zones, flows }, apps = [HOME_APP]) {
  const root = Object.entries(await api(hub, 'GET', '/api/manager/zones/zone')).find(([, z]) => z.parent === null)[0];
  const rooms = [];
  for (let i = 0; i < zones; i++) rooms.push((await api(hub, 'POST', '/api/manager/zones/zone', { name: `Room ${i}`, parent: root })).id);
  const ids = [];
  const perRoom = Math.ceil(devices / zones);
  for (let r = 0; r < zones && ids.length < devices; r++) {
    const driverId = `homey:app:${apps[r % apps.length]}:lamp`;
    const session = await api(hub, 'POST', '/api/manager/drivers/pairsession', { type: 'pair', driverId, zoneId: rooms[r] });
    const listed = await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/emit`, { event: 'list_devices' });
    // A session lists only the lamps not yet added.
    for (const d of listed.slice(0, Math.min(perRoom, devices - ids.length)))
      ids.push((await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/device`, d)).id);
    await api(hub, 'DELETE', `/api/manager/drivers/pairsession/${session.id}`);
  }
  const card = (id, app = HOME_APP) => `homey:app:${app}:${id}`;
  // The bench's own: the trigger it fires (n = 0) and a flow it saves again and again.
  const measured = await api(hub, 'POST', '/api/manager/flow/flow', {
    name: 'measured',
    trigger: { id: card('fired'), args: { n: 0 } },
    actions: [{ id: card('act'), args: { n: 0 } }],
  });
  const saved = await api(hub, 'POST', '/api/manager/flow/flow', {
    name: 'saved',
    trigger: { id: card('fired'), args: { n: -1 } },
    actions: [{ id: card('act'), args: { n: -1 } }],
  });
  // The home's others: half on the app's trigger (never fired: the run listener lets none go
  // on), half on a lamp's own "turned on" (the lamps are never switched on by the bench).
  for (let i = 0; i < flows; i++) {
    const app = apps[i % apps.length];
    const trigger = i % 2 === 0 ? { id: card('fired', app), args: { n: 1000 + i } } : { id: `homey:device:${ids[i % ids.length]}:turned_on`, args: {} };
    await api(hub, 'POST', '/api/manager/flow/flow', { name: `flow ${i}`, trigger, actions: [{ id: card('act', app), args: { n: 1000 + i } }] });
  }
  return { ids, measured: measured.id, saved: saved.id };
}

async function settledPss(pid) {
  await sleep(SETTLE_MS);
  const samples = [];
  for (let i = 0; i < 7; i++) {
    samples.push(await pssOf([pid]));
    await sleep(2000);
  }
  return { pss: median(samples), kinds: await pssByKind(pid) };
}

/**
 * Every latency figure of one home, at rest but with the app's timer going: `rounds` of them, or
 * as many as fit before `until` (a wall-clock time) with `pauseMs` between them.
 */
export async function latencies(hub, home, homeyApi, { rounds = CALLS, pauseMs = 0, deadline = Number.POSITIVE_INFINITY } = {}) {
  const arrived = { ws: [], homey: [], setting: [], rename: new Map(), save: new Map(), acted: [] };
  const { heard, waitFor } = arrivals();
  const sockets = [
    await socket(`ws://127.0.0.1:${hub.port}/api/manager/devices?token=${OWNER}`, (event, [e]) => {
      if (event === 'capability.update' && e.capabilityId === 'measure_power') arrived.ws.push(now());
      if (event === 'device.update' && e.id === home.ids[0]) arrived.rename.set(e.name, now());
      heard();
    }),
    await socket(`ws://127.0.0.1:${hub.port}/api/app/${HOME_APP}?token=${OWNER}`, (event, [arg]) => {
      if (event === 'settings.set' && arg === 'stamp') arrived.setting.push(now());
      if (event === 'acted') arrived.acted.push(arg);
      heard();
    }),
    await socket(`ws://127.0.0.1:${hub.port}/api/manager/flow?token=${OWNER}`, (event, [f]) => {
      if (event === 'flow.update' && f.id === home.saved) arrived.save.set(f.name, now());
      heard();
    }),
  ];
  const { HomeyAPI } = homeyApi;
  const client = await HomeyAPI.createLocalAPI({ address: hub.url, token: OWNER });
  try {
    const lamp = await client.devices.getDevice({ id: home.ids[0] });
    const instance = lamp.makeCapabilityInstance('measure_power', () => {
      arrived.homey.push(now());
      heard();
    });
    // The instance subscribes on its own: report until it hears.
    await until(
      async () => {
        await api(hub, 'POST', `/api/app/${HOME_APP}/report`, { kind: 'capability' });
        await sleep(20);
        return arrived.homey.length > 0;
      },
      'the homey-api client to hear the lamp',
      200,
    );
    const took = { ws: [], homey: [], setting: [], rename: [], save: [], flow: [] };
    for (let i = 0; i < rounds && now() < deadline; i++) {
      if (pauseMs) await sleep(pauseMs);
      const [ws, homey] = [arrived.ws.length, arrived.homey.length];
      const stamp = await api(hub, 'POST', `/api/app/${HOME_APP}/report`, { kind: 'capability' });
      await waitFor(() => arrived.ws.length > ws && arrived.homey.length > homey, 'a capability event at both clients');
      took.ws.push(arrived.ws[ws] - stamp);
      took.homey.push(arrived.homey[homey] - stamp);
      const s = arrived.setting.length;
      const set = await api(hub, 'POST', `/api/app/${HOME_APP}/report`, { kind: 'setting' });
      await waitFor(() => arrived.setting.length > s, 'a setting event');
      took.setting.push(arrived.setting[s] - set);
      let t = now();
      await api(hub, 'PUT', `/api/manager/devices/device/${home.ids[0]}`, { name: `Renamed ${i}` });
      await waitFor(() => arrived.rename.has(`Renamed ${i}`), 'a rename event');
      took.rename.push(arrived.rename.get(`Renamed ${i}`) - t);
      t = now();
      await api(hub, 'PUT', `/api/manager/flow/flow/${home.saved}`, { name: `saved ${i}` });
      await waitFor(() => arrived.save.has(`saved ${i}`), 'a flow save event');
      took.save.push(arrived.save.get(`saved ${i}`) - t);
      const acted = arrived.acted.length;
      const fired = await api(hub, 'POST', `/api/app/${HOME_APP}/fire`, { n: 0 });
      const ours = () => arrived.acted.slice(acted).find((a) => a.n === 0);
      await waitFor(() => ours() !== undefined, 'the action');
      took.flow.push(ours().last - fired);
    }
    instance.destroy();
    return Object.fromEntries(Object.entries(took).map(([k, v]) => [k, p99(v)]));
  } finally {
    client.destroy();
    for (const s of sockets) s.close();
  }
}

/** setCapabilityValue and the app's GET ping under load, in alternating rounds: req/s of each. */
async function throughput(hub, deviceId) {
  const headers = { authorization: `Bearer ${OWNER}`, 'content-type': 'application/json' };
  const run = async (opts) => {
    const r = await autocannon({ duration: 3, connections: 16, pipelining: 1, ...opts });
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${opts.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return r.requests.average;
  };
  const ratios = [];
  for (let round = 0; round < 3; round++) {
    const set = await run({
      url: `${hub.url}/api/manager/devices/device/${deviceId}/capability/onoff`,
      method: 'PUT',
      headers,
      body: JSON.stringify({ value: false }),
    });
    const ping = await run({ url: `${hub.url}/api/app/${HOME_APP}/ping`, headers });
    ratios.push(set / ping);
  }
  return median(ratios);
}

/** Restarts of each home, alternating, so both see the machine as it is then (a busy moment costs both). */
const RESTARTS = 9;

/**
 * Spawn to the first authenticated 200 on each home's data (a hub stopped cleanly on it), the
 * homes restarted one after the other RESTARTS times: the median of each, in ms. Measured at
 * different moments, three restarts a home gave ratios from 1.1 to 1.5 for the same build.
 */
async function restarts(root, homes) {
  const times = homes.map(() => []);
  for (let i = 0; i < RESTARTS; i++) {
    for (const [n, { dataDir, appsDir }] of homes.entries()) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/api/manager/i18n/option/language`;
      times[n].push(await spawnToFirst200(hubArgs(root, { port, dataDir, appsDir }), hubEnv('warn'), url, { headers: { authorization: `Bearer ${OWNER}` } }));
    }
  }
  return times.map(median);
}

/** One home: built, settled, measured; its hub stopped at the end, its folders kept for the restarts (`remove` them after). */
async function measure(root, log, homeyApi, size, label) {
  const appsDir = await mkdtemp(join(tmpdir(), `hearth-bench-home-${label}-`));
  await writeHomeApp(appsDir, Math.max(size.devices, 1));
  const hub = await startHub(root, { appsDir });
  const remove = () => Promise.all([rm(hub.dataDir, { recursive: true, force: true }), rm(appsDir, { recursive: true, force: true })]);
  let kept = false;
  try {
    await until(async () => (await api(hub, 'GET', `/api/manager/apps/app/${HOME_APP}`)).ready, 'the app to run', { tries: 20_000 });
    const t = now();
    const home = await build(hub, size);
    log(`${label}: ${home.ids.length} lamps in ${size.zones} rooms and ${size.flows + 2} flows made in ${((now() - t) / 1000).toFixed(1)} s`);
    const { pss, kinds } = await settledPss(hub.child.pid);
    const of = (k) => (kinds[k] / MiB).toFixed(1);
    log(
      `${label}: hub PSS at rest ${(pss / MiB).toFixed(1)} MiB (then: node binary ${of('node')}, malloc's heap ${of('heap')}, anonymous ${of('anonymous')}, other ${of('other')})`,
    );
    const lat = await latencies(hub, home, homeyApi, { pauseMs: ROUND_PAUSE_MS });
    log(
      `${label}: p99 ${Object.entries(lat)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ')} ms`,
    );
    const ratio = await throughput(hub, home.ids[0]);
    log(`${label}: setCapabilityValue / ping ${ratio.toFixed(2)}`);
    let burst = null;
    if (size.devices > 1) {
      // 200 lamps paired one after another, the hub's PSS sampled throughout: 200 of the home's
      // are removed first (a hub keeps 1,000 devices at most), and the hub left to settle.
      for (const id of home.ids.splice(-BURST)) await api(hub, 'DELETE', `/api/manager/devices/device/${id}`);
      await sleep(SETTLE_MS);
      const before = await pssOf([hub.child.pid]);
      let peak = before;
      let pairing = true;
      const sampler = (async () => {
        while (pairing) {
          peak = Math.max(peak, await pssOf([hub.child.pid]));
          await sleep(100);
        }
      })();
      const session = await api(hub, 'POST', '/api/manager/drivers/pairsession', { type: 'pair', driverId: `homey:app:${HOME_APP}:lamp` });
      const listed = await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/emit`, { event: 'list_devices' });
      for (const d of listed.slice(0, BURST)) await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/device`, d);
      await api(hub, 'DELETE', `/api/manager/drivers/pairsession/${session.id}`);
      pairing = false;
      await sampler;
      burst = (peak - before) / MiB;
      log(`${label}: pairing ${BURST} lamps peaked at +${burst.toFixed(1)} MiB`);
    }
    kept = true;
    return { pss, lat, ratio, burst, dataDir: hub.dataDir, appsDir, remove };
  } finally {
    // A clean stop: the data folder as a device's is after a restart (db.json whole, vouched for).
    await stopChild(hub.child);
    if (!kept) await remove();
  }
}

export default async function bench({ root, log }) {
  const { homeyApi } = await installHomeyApi(root);
  const client = homeyApi();
  const floor = await machineFloor();
  log(`the machine's floor: IPC round trip p99 ${floor.ipc.toFixed(2)} ms, a durable append p99 ${floor.durable.toFixed(2)} ms`);
  const empty = await measure(root, log, client, { devices: 1, zones: 1, flows: 0 }, 'empty');
  const big = await measure(root, log, client, BIG, 'big');
  try {
    [empty.ready, big.ready] = await restarts(root, [empty, big]);
  } finally {
    await empty.remove();
    await big.remove();
  }
  log(`spawn to first 200: empty ${empty.ready.toFixed(0)} ms, big ${big.ready.toFixed(0)} ms (${RESTARTS} restarts each, alternating)`);
  const row = (name, key, target, unit = 'ms') => ({
    name,
    value: big.lat[key],
    unit,
    baseline: 'the empty home',
    baselineValue: empty.lat[key],
    ratio: big.lat[key] / empty.lat[key],
    target,
  });
  const big_ = `${BIG.devices} devices, ${BIG.flows} flows`;
  return [
    {
      name: `hub PSS at rest, ${big_}`,
      value: big.pss / MiB,
      unit: 'MiB',
      baseline: 'the empty home',
      baselineValue: empty.pss / MiB,
      ratio: big.pss / empty.pss,
      target: '<= 1.2 (ratio)',
    },
    {
      name: `spawn to first authenticated 200, ${big_}`,
      value: big.ready,
      unit: 'ms',
      baseline: 'the empty home',
      baselineValue: empty.ready,
      ratio: big.ready / empty.ready,
      target: '<= 1.3 (ratio)',
    },
    row('capability change, app to a homey-api client (p99)', 'homey', '<= 3 ms'),
    row("capability change, app to the web app's socket (p99)", 'ws', '<= 3 ms'),
    row('flow trigger to action (p99)', 'flow', '<= 5 ms'),
    row("durable write: an app's setting to its client (p99)", 'setting', '<= 10 ms'),
    row('durable write: a device renamed, to its event (p99)', 'rename', '<= 10 ms'),
    row('durable write: a flow saved, to its event (p99)', 'save', '<= 10 ms'),
    {
      name: 'setCapabilityValue req/s over GET ping req/s',
      value: big.ratio,
      unit: '',
      baseline: 'the empty home',
      baselineValue: empty.ratio,
      target: '>= 0.5',
    },
    { name: `pairing ${BURST} devices into the big home: hub PSS peak over before`, value: big.burst, unit: 'MiB', target: '< 10 MiB' },
    // Not the hub's: what the machine itself takes, under the targets in ms above (floor.mjs).
    {
      name: "the machine's floor: two bare Node processes' IPC round trip (p99)",
      value: floor.ipc,
      unit: 'ms',
      target: 'well under 3 ms, or the ms targets cannot be judged',
    },
    {
      name: "the machine's floor: a 200-byte append made durable (p99)",
      value: floor.durable,
      unit: 'ms',
      target: 'well under 10 ms, or the durable writes cannot be judged',
    },
  ];
}
