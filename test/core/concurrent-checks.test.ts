/**
 * Checks and writes in one step: a check before a write reads the state with the writes queued
 * (the store's `next`), so two requests at once cannot both pass a rule one of them breaks. Each
 * case sends its requests together, so their writes overlap in the data file's fsync; before,
 * every one of them passed its check against the state on disk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { APP, pairLamp, writeLampApp } from '../managers/devices/lamp-app.js';

let hub: RunningHub;
const Z = '/api/manager/zones/zone';
type Zone = { id: string; name: string; parent: string | null };

beforeAll(async () => {
  const appsDir = await tempDir('hearth-concurrent-apps-');
  await writeLampApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
}, 60_000);
afterAll(async () => {
  await hub?.cleanup();
});

const statuses = (answers: Array<{ status: number }>) => answers.map((a) => a.status).sort();
const zone = async (name: string, parent: string): Promise<Zone> => (await hub.call<Zone>('POST', Z, { body: { name, parent } })).body;
const root = async (): Promise<string> => Object.values((await hub.call<Record<string, Zone>>('GET', Z)).body).find((z) => z.parent === null)!.id;

describe('two requests at once, one rule', () => {
  it('twenty variables with one name at once: one is made, nineteen hear that it exists', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => hub.call('POST', '/api/manager/logic/variable', { body: { name: 'Same', type: 'number', value: i } })),
    );
    expect(statuses(answers)).toEqual([201, ...Array(19).fill(409)]);
    const all = (await hub.call<Record<string, { name: string }>>('GET', '/api/manager/logic/variable')).body;
    expect(Object.values(all).filter((v) => v.name === 'Same')).toHaveLength(1);
  });

  it('two zones moved into each other at once: one moves, the other is refused, and both stay in the home', async () => {
    const home = await root();
    const [a, b] = [await zone('A', home), await zone('B', home)];
    const answers = await Promise.all([
      hub.call('PUT', `${Z}/${a.id}`, { body: { parent: b.id } }),
      hub.call('PUT', `${Z}/${b.id}`, { body: { parent: a.id } }),
    ]);
    expect(statuses(answers)).toEqual([200, 409]);
    const zones = (await hub.call<Record<string, Zone>>('GET', Z)).body;
    // Each reaches the home by its parents.
    for (const id of [a.id, b.id]) {
      let at: string | null = id;
      for (let hops = 0; at !== home && hops < 10; hops++) at = zones[at!]?.parent ?? null;
      expect(at).toBe(home);
    }
  });

  it('a device moved into a zone while it is deleted: either the move or the delete is refused, and the device stays in a zone that exists', async () => {
    const lamp = await pairLamp(hub);
    const doomed = await zone('Doomed', await root());
    const [moved, deleted] = await Promise.all([
      hub.call('PUT', `/api/manager/devices/device/${lamp.id}`, { body: { zone: doomed.id } }),
      hub.call('DELETE', `${Z}/${doomed.id}`),
    ]);
    expect([moved.status, deleted.status].sort()).toEqual(moved.status === 200 ? [200, 409] : [204, 400]);
    const now = (await hub.call<{ zone: string }>('GET', `/api/manager/devices/device/${lamp.id}`)).body.zone;
    expect((await hub.call('GET', `${Z}/${now}`)).status).toBe(200);
  });

  it('two flow folders moved into each other at once: one moves, the other is refused', async () => {
    const F = '/api/manager/flow/flowfolder';
    const x = (await hub.call<{ id: string }>('POST', F, { body: { name: 'X' } })).body;
    const y = (await hub.call<{ id: string }>('POST', F, { body: { name: 'Y' } })).body;
    const answers = await Promise.all([
      hub.call('PUT', `${F}/${x.id}`, { body: { parent: y.id } }),
      hub.call('PUT', `${F}/${y.id}`, { body: { parent: x.id } }),
    ]);
    expect(statuses(answers)).toEqual([200, 409]);
  });

  it('a variable renamed and set at once keeps both changes', async () => {
    const v = (await hub.call<{ id: string }>('POST', '/api/manager/logic/variable', { body: { name: 'Both', type: 'string', value: 'a' } })).body;
    await Promise.all([
      hub.call('PUT', `/api/manager/logic/variable/${v.id}`, { body: { name: 'Renamed' } }),
      hub.call('PUT', `/api/manager/logic/variable/${v.id}`, { body: { value: 'b' } }),
    ]);
    expect((await hub.call('GET', `/api/manager/logic/variable/${v.id}`)).body).toMatchObject({ name: 'Renamed', value: 'b' });
  });
});
