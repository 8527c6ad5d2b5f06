// People (issue 42): a presence change (a person taps "I'm home" on their phone: PUT
// /presence/me/present with their session) to a client subscribed to the users channel, p99,
// beside a zone renamed (PUT /zones/zone/:id, the owner) to a client of the zones channel, p99:
// both a durable write of one record and one event, measured in alternating rounds in the same run.
import { api, OWNER, p99, socket, startHub, until, wallNow } from './lib.mjs';

const ROUNDS = 5;
const EACH = 100;

async function put(hub, token, path, body) {
  const res = await fetch(`${hub.url}${path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`PUT ${path}: ${res.status}`);
}

export default async function bench({ root, log }) {
  const hub = await startHub(root);
  const sockets = [];
  try {
    const made = await api(hub, 'POST', '/api/manager/users/user', { name: 'Anna', role: 'user' });
    const code = new URL(made.inviteUrl).hash.replace('#login=', '');
    const phone = (
      await (
        await fetch(`${hub.url}/api/manager/tokens/login/redeem`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code, browser: 'bench phone' }),
        })
      ).json()
    ).token;
    const rootZone = Object.entries(await api(hub, 'GET', '/api/manager/zones/zone')).find(([, z]) => z.parent === null)[0];
    const room = await api(hub, 'POST', '/api/manager/zones/zone', { name: 'Room', parent: rootZone });
    const heard = { presence: [], zone: [] };
    sockets.push(
      await socket(`ws://127.0.0.1:${hub.port}/api/manager/users?token=${OWNER}`, (event, [u]) => {
        if (event === 'user.update' && u.id === made.id) heard.presence.push(wallNow());
      }),
      await socket(`ws://127.0.0.1:${hub.port}/api/manager/zones?token=${OWNER}`, (event, [z]) => {
        if (event === 'zone.update' && z.id === room.id) heard.zone.push(wallNow());
      }),
    );
    const took = { presence: [], zone: [] };
    let flip = false;
    const one = async (kind, change) => {
      const n = heard[kind].length;
      const t = wallNow();
      await change();
      await until(() => heard[kind].length > n, `a ${kind} event`);
      took[kind].push(heard[kind][n] - t);
    };
    for (let r = 0; r < ROUNDS; r++) {
      for (let i = 0; i < EACH; i++) {
        flip = !flip;
        await one('presence', () => put(hub, phone, '/api/manager/presence/me/present', { value: flip }));
      }
      for (let i = 0; i < EACH; i++) await one('zone', () => put(hub, OWNER, `/api/manager/zones/zone/${room.id}`, { name: `Room ${r}.${i}` }));
    }
    const [presence, zone] = [p99(took.presence), p99(took.zone)];
    log(`presence change to a users-channel client p99 ${presence.toFixed(2)} ms; zone rename to a zones-channel client p99 ${zone.toFixed(2)} ms`);
    return [
      {
        name: 'presence change (a phone taps "I\'m home") to a subscribed client (p99)',
        value: presence,
        unit: 'ms',
        baseline: 'a zone renamed, to its client',
        baselineValue: zone,
        ratio: presence / zone,
        target: '<= 1.5 (ratio)',
      },
    ];
  } finally {
    for (const s of sockets) s.close();
    await hub.stop();
  }
}
