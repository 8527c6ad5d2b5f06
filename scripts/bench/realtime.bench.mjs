// Realtime figures: the time from an operation's request (PUT a dashboard) to its event at a
// subscribed client, for Homey's own client (homey-api V3 local, `dashboards.connect()`: socket.io
// 2) next to the hub's plain WebSocket, both subscribed at once and measured on the same events.
// Also what loading socket.io costs the hub at rest (it is loaded by the first Homey client).
import WebSocket from 'ws';
import { installHomeyApi } from '../homey-api.mjs';
import { api, median, OWNER, pct, pssOf, pssRow, sleep, startHub } from './lib.mjs';

const EVENTS = 400;

export default async function bench({ root, log }) {
  const { homeyApi } = await installHomeyApi(root);
  const { HomeyAPI } = homeyApi();
  const hub = await startHub(root);
  let client;
  let ws;
  try {
    const dashboard = await api(hub, 'POST', '/api/manager/dashboards/dashboard', { name: 'Bench', columns: [] });
    const arrivals = { homey: new Map(), ws: new Map() };
    ws = new WebSocket(`ws://127.0.0.1:${hub.port}/api/manager/dashboards?token=${OWNER}`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      if (frame.event === 'dashboard.update') arrivals.ws.set(frame.args[0].name, performance.now());
    });
    /** Renames the dashboard `n` times; resolves with each rename's time to its event at the clients waited for. */
    const renames = async (prefix, n, clients) => {
      const times = { homey: [], ws: [] };
      for (let i = 0; i < n; i++) {
        const name = `${prefix}${i}`;
        const t0 = performance.now();
        await fetch(`${hub.url}/api/manager/dashboards/dashboard/${dashboard.id}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${OWNER}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        }).then((r) => r.arrayBuffer());
        const heard = () => clients.every((c) => arrivals[c].has(name));
        for (let w = 0; w < 200 && !heard(); w++) await sleep(1);
        if (!heard()) throw new Error(`the event of ${name} did not reach ${clients.join(' and ')}`);
        for (const c of clients) times[c].push(arrivals[c].get(name) - t0);
      }
      return times;
    };

    // What loading socket.io costs: PSS at rest, then at rest again after one Engine.IO handshake
    // (long-polling, no session), each after V8 has shrunk the heap (docs/performance.md).
    await sleep(25_000);
    const before = await pssOf([hub.child.pid]);
    const open = await fetch(`${hub.url}/socket.io/?EIO=3&transport=polling`);
    if (!(await open.text()).includes('"sid"')) throw new Error(`no Engine.IO handshake: ${open.status}`);
    await sleep(25_000);
    const after = await pssOf([hub.child.pid]);

    client = await HomeyAPI.createLocalAPI({ address: hub.url, token: OWNER });
    client.dashboards.on('dashboard.update', (d) => arrivals.homey.set(d.name, performance.now()));
    await client.dashboards.connect();
    await renames('w', 50, ['homey', 'ws']);
    const times = await renames('b', EVENTS, ['homey', 'ws']);
    const homey = times.homey.sort((a, b) => a - b);
    const plain = times.ws.sort((a, b) => a - b);
    log(`homey-api p50 ${median(homey).toFixed(2)} ms, plain WebSocket p50 ${median(plain).toFixed(2)} ms`);
    return [
      {
        name: 'operation to event at a homey-api client (p99)',
        value: pct(homey, 99),
        unit: 'ms',
        baseline: 'the hub WebSocket, same events',
        baselineValue: pct(plain, 99),
        ratio: pct(homey, 99) / pct(plain, 99),
        target: '<= 2 (ratio)',
      },
      pssRow('hub PSS at rest with socket.io loaded', after, 'at rest before', before, 'informative'),
    ];
  } finally {
    ws?.close();
    client?.destroy();
    await hub.stop();
  }
}
