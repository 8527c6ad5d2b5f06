// Zigbee through zigbee2mqtt (issue 44), against mosquitto and the zigbee2mqtt stand-in
// (scripts/zigbee/standin.mjs) with eleven real device models paired through the app:
// 1. a command to its echoed state: PUT onoff on the Web API -> the app -> MQTT /set -> the
//    stand-in's echo at an MQTT client, p99, against the same /set published straight to the
//    broker (raw MQTT publish/subscribe), in alternating rounds;
// 2. a device's report to a subscribed hub client (the stand-in publishes, the devices WebSocket
//    hears capability.update), p99, against the same publish heard by a raw MQTT client;
// 3. the hub's PSS with the bridge's eleven devices against the same hub with no app, both at
//    rest (the app's own PSS recorded beside it).
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { startMosquitto } from '../zigbee/broker.mjs';
import { Z2mStandIn } from '../zigbee/standin.mjs';
import { api, OWNER, p99, processTree, pssOf, pssRow, sleep, socket, startHub, until, wallNow } from './lib.mjs';

const APP = 'com.hearth.zigbee2mqtt';
const ROUNDS = 4;
const EACH = 100;
const REST_MS = 60_000;
const DEVICES = [
  { model: 'TS011F_plug_1', name: 'Plug', ieee: '0xa4c1380000000001', mains: true, state: { state: 'OFF', power: 0 } },
  { model: '9290012573A', name: 'Bulb', ieee: '0x0017880100000002', mains: true, state: { state: 'OFF', brightness: 100, color_temp: 300 } },
  { model: 'LED1545G12', name: 'Desk', ieee: '0x000d6ffffe000003', mains: true, state: { state: 'OFF' } },
  { model: 'ZNCZ02LM', name: 'Plug 2', ieee: '0x00158d0000000004', mains: true, state: { state: 'OFF' } },
  { model: 'MCCGQ11LM', name: 'Door', ieee: '0x00158d0000000005' },
  { model: 'RTCGQ11LM', name: 'Motion', ieee: '0x00158d0000000006' },
  { model: 'WSDCGQ11LM', name: 'Climate', ieee: '0x00158d0000000007' },
  { model: 'TS0601_thermostat', name: 'Valve', ieee: '0xa4c1380000000008' },
  { model: 'E1757', name: 'Blind', ieee: '0x000d6ffffe000009' },
  { model: 'E1524/E1810', name: 'Remote', ieee: '0x000d6ffffe00000a' },
  { model: 'SJCGQ11LM', name: 'Leak', ieee: '0x00158d000000000b' },
];

export default async function bench({ root, log }) {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-bench-zigbee-'));
  const broker = await startMosquitto(dir);
  const z2m = new Z2mStandIn(broker.url);
  const appsDir = join(dir, 'apps');
  const sockets = [];
  let hub;
  let listener;
  try {
    await z2m.start(DEVICES);
    // The baseline: the same hub with no app, at rest.
    const empty = await startHub(root);
    await sleep(REST_MS);
    const hubEmpty = await pssOf([empty.child.pid]);
    await empty.stop();
    await cp(join(root, 'examples', APP), join(appsDir, APP), { recursive: true });
    hub = await startHub(root, { appsDir });
    await until(async () => (await api(hub, 'GET', '/api/manager/apps/app').catch(() => ({})))[APP]?.ready, 'the app to run', { tries: 600, everyMs: 100 });
    await api(hub, 'PUT', `/api/manager/apps/app/${APP}/setting/broker`, { value: broker.url });
    let listed = [];
    let session;
    await until(
      async () => {
        session = await api(hub, 'POST', '/api/manager/drivers/pairsession', { driverId: `homey:app:${APP}:zigbee` });
        listed = await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/emit`, { event: 'list_devices' }).catch(() => []);
        return listed.length === DEVICES.length;
      },
      'the app to list the devices',
      { tries: 100, everyMs: 200 },
    );
    const ids = {};
    for (const d of listed) ids[d.name] = (await api(hub, 'POST', `/api/manager/drivers/pairsession/${session.id}/device`, d)).id;
    await api(hub, 'DELETE', `/api/manager/drivers/pairsession/${session.id}`);
    log(`paired ${Object.keys(ids).length} Zigbee devices`);

    // The echo, as a client of the broker hears it.
    listener = await mqtt.connectAsync(broker.url);
    const echoes = [];
    listener.on('message', (topic) => {
      if (topic === 'zigbee2mqtt/Plug') echoes.push(wallNow());
    });
    await listener.subscribeAsync('zigbee2mqtt/Plug');
    const heard = [];
    sockets.push(
      await socket(`ws://127.0.0.1:${hub.port}/api/manager/devices?token=${OWNER}`, (event, [e]) => {
        if (event === 'capability.update' && e.deviceId === ids.Plug && e.capabilityId === 'measure_power') heard.push(wallNow());
      }),
    );
    const raw = await mqtt.connectAsync(broker.url);
    const took = { hub: [], raw: [], report: [], rawReport: [] };
    let on = false;
    let watts = 0;
    const echoAfter = async (send) => {
      const n = echoes.length;
      const t = wallNow();
      await send();
      await until(() => echoes.length > n, 'the echo', { tries: 5000, everyMs: 1 });
      return echoes[n] - t;
    };
    for (let r = 0; r < ROUNDS; r++) {
      for (let i = 0; i < EACH; i++) {
        on = !on;
        took.hub.push(await echoAfter(() => api(hub, 'PUT', `/api/manager/devices/device/${ids.Plug}/capability/onoff`, { value: on })));
      }
      for (let i = 0; i < EACH; i++) {
        on = !on;
        took.raw.push(await echoAfter(() => raw.publishAsync('zigbee2mqtt/Plug/set', JSON.stringify({ state: on ? 'ON' : 'OFF' }))));
      }
      for (let i = 0; i < EACH; i++) {
        watts += 1;
        const [n, m] = [heard.length, echoes.length];
        const t = wallNow();
        await z2m.report('Plug', { power: watts });
        await until(() => heard.length > n && echoes.length > m, 'the report heard', { tries: 5000, everyMs: 1 });
        took.report.push(heard[n] - t);
        took.rawReport.push(echoes[m] - t);
      }
    }
    await raw.endAsync();
    await sleep(REST_MS);
    const hubBridge = await pssOf([hub.child.pid]);
    const appPss = await pssOf((await processTree(hub.child.pid)).filter((pid) => pid !== hub.child.pid));
    const [cmd, cmdRaw, rep, repRaw] = [p99(took.hub), p99(took.raw), p99(took.report), p99(took.rawReport)];
    log(`command to echo p99 ${cmd.toFixed(2)} ms (raw ${cmdRaw.toFixed(2)}); report to a hub client p99 ${rep.toFixed(2)} ms (raw ${repRaw.toFixed(2)})`);
    return [
      {
        name: 'a Zigbee command (Web API) to its echoed state, p99',
        value: cmd,
        unit: 'ms',
        baseline: 'the same /set published straight to the broker',
        baselineValue: cmdRaw,
        ratio: cmd / cmdRaw,
        target: '<= 2 (ratio)',
      },
      {
        name: "a Zigbee device's report to a hub client, p99",
        value: rep,
        unit: 'ms',
        baseline: 'the same publish at a raw MQTT client',
        baselineValue: repRaw,
        ratio: rep / repRaw,
        target: '<= 2 (ratio)',
      },
      pssRow(`hub PSS with the zigbee2mqtt bridge's ${DEVICES.length} devices`, hubBridge, 'the same hub with no app', hubEmpty, '<= 1.35 (ratio)'),
      { name: 'the zigbee2mqtt app (its processes) PSS', value: appPss / 2 ** 20, unit: 'MiB', baseline: '-', baselineValue: 0, ratio: 0, target: 'recorded' },
    ];
  } finally {
    for (const s of sockets) s.close();
    await listener?.endAsync();
    await z2m.close();
    await hub?.stop();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
