// Matter over IP (issue 44): the hub in one network namespace, two simulated devices
// (scripts/matter/device.mjs) in another, joined by a veth pair (scripts/matter/lan.mjs; needs
// root). Device A is paired with the hub through the Matter app, device B with matter.js's own
// controller, bare (scripts/matter/controller.mjs), in the hub's namespace:
// 1. a toggle round trip: PUT onoff on the Web API -> the app -> matter.js -> device A, until A
//    prints its new state, p99, against the same command from the bare controller to B, until B
//    prints it, in alternating rounds;
// 2. the hub's PSS with the Matter app and its device against the same hub with no app, both at
//    rest, and the Matter app's own PSS (its controller) beside it.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lanMissing, makeLan } from '../matter/lan.mjs';
import { bareController, simDevice } from '../matter/sim.mjs';
import { api, p99, processTree, pssOf, pssRow, sleep, startHub, until, wallNow } from './lib.mjs';

const APP = 'com.hearth.matter';
const ROUNDS = 4;
const EACH = 100;
const REST_MS = 60_000;

export default async function bench({ root, log }) {
  const missing = lanMissing();
  if (missing) throw new Error(`the Matter bench needs a LAN of network namespaces: ${missing}`);
  const dir = await mkdtemp(join(tmpdir(), 'hearth-bench-matter-'));
  const lan = makeLan();
  const wrap = (node, args) => ['ip', ['netns', 'exec', lan.hubNs, node, ...args]];
  const a = simDevice(lan, { storage: join(dir, 'device-a'), port: 5540, discriminator: 3840, label: 'Bench light' });
  const b = simDevice(lan, { storage: join(dir, 'device-b'), port: 5541, discriminator: 3841, label: 'Baseline light' });
  let ctl;
  let hub;
  try {
    const codeA = (await a.start()).manualPairingCode;
    const codeB = (await b.start()).manualPairingCode;
    // The baseline of memory: the same hub with no app, at rest.
    const empty = await startHub(root, { wrap, host: lan.hubAddress });
    await sleep(REST_MS);
    const hubEmpty = await pssOf([empty.child.pid]);
    await empty.stop();

    const appsDir = join(dir, 'apps');
    await cp(join(root, 'examples', APP), join(appsDir, APP), { recursive: true });
    hub = await startHub(root, { appsDir, wrap, host: lan.hubAddress });
    await until(async () => (await api(hub, 'GET', '/api/manager/apps/app').catch(() => ({})))[APP]?.ready, 'the app to run', { tries: 600, everyMs: 100 });
    const session = await api(hub, 'POST', '/api/manager/drivers/pairsession', { driverId: `homey:app:${APP}:matter` });
    await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/emit`, { event: 'pincode', data: [...codeA] });
    const listed = await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/emit`, { event: 'list_devices' });
    const light = (await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/device`, listed[0])).id;
    await api(hub, 'DELETE', `/api/manager/drivers/pairsession/${session.id}`);
    ctl = bareController(lan, { storage: join(dir, 'controller'), code: codeB });
    await ctl.start();
    log('paired device A with the hub, device B with the bare controller');

    const took = { hub: [], raw: [] };
    let on = false;
    const roundTrip = async (device, send) => {
      const heard = device.next((m) => m.onOff === on);
      const t = wallNow();
      await send();
      await heard;
      return wallNow() - t;
    };
    for (let r = 0; r < ROUNDS; r++) {
      for (let i = 0; i < EACH; i++) {
        on = !on;
        took.hub.push(await roundTrip(a, () => api(hub, 'PUT', `/api/manager/devices/device/${light}/capability/onoff`, { value: on })));
      }
      for (let i = 0; i < EACH; i++) {
        on = !on;
        took.raw.push(await roundTrip(b, () => ctl.send(on ? 'on' : 'off')));
      }
    }
    await sleep(REST_MS);
    const hubMatter = await pssOf([hub.child.pid]);
    const appPss = await pssOf((await processTree(hub.child.pid)).filter((pid) => pid !== hub.child.pid));
    const [viaHub, raw] = [p99(took.hub), p99(took.raw)];
    log(`toggle round trip p99 ${viaHub.toFixed(2)} ms (bare matter.js controller ${raw.toFixed(2)}); app PSS ${(appPss / 2 ** 20).toFixed(1)} MiB`);
    return [
      {
        name: 'a Matter toggle (Web API) to the device, p99',
        value: viaHub,
        unit: 'ms',
        baseline: "the same command from matter.js's own controller",
        baselineValue: raw,
        ratio: viaHub / raw,
        target: '<= 2 (ratio)',
      },
      pssRow('hub PSS with the Matter app and a device', hubMatter, 'the same hub with no app', hubEmpty, '<= 1.35 (ratio)'),
      { name: 'the Matter app (its controller) PSS', value: appPss / 2 ** 20, unit: 'MiB', baseline: '-', baselineValue: 0, ratio: 0, target: 'recorded' },
    ];
  } finally {
    await ctl?.kill('SIGTERM');
    await hub?.stop();
    await a.kill();
    await b.kill();
    lan.close();
    await rm(dir, { recursive: true, force: true });
  }
}
