/**
 * The order of the rooms on the home (the zones manager's option roomOrder): kept and read back,
 * and a bad order refused in a sentence with nothing changed: a zone that does not exist, one named
 * twice, a value that is not a list, a token that may only read zones.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningHub, startHub } from '../../helpers/hub.js';

let hub: RunningHub;
let rooms: string[];

beforeAll(async () => {
  hub = await startHub();
  const home = Object.values(await hub.op('zones', 'getZones')).find((z) => z.parent === null)!.id;
  rooms = [];
  for (const name of ['Kitchen', 'Hall']) rooms.push((await hub.op('zones', 'createZone', { body: { name, parent: home } })).id);
});
afterAll(() => hub?.cleanup());

it('keeps the order a family sets, and refuses one that names a zone that is not there or twice', async () => {
  expect((await hub.op('zones', 'getOptionRoomOrder')).value).toEqual([]);
  const [kitchen, hall] = rooms as [string, string];
  await hub.op('zones', 'setOptionRoomOrder', { body: { value: [hall, kitchen] } });
  for (const [value, said] of [
    [[hall, 'no-such-zone'], "zone 'no-such-zone' does not exist"],
    [[hall, kitchen, hall], `zone '${hall}' is named twice`],
    ['Hall', 'expected array'],
  ] as const) {
    const refused = await hub.call<{ error_description: string }>('PUT', '/api/manager/zones/option/roomOrder', { body: { value } });
    expect(refused.status).toBe(400);
    expect(refused.body.error_description).toContain(said);
  }
  const token = await hub.op('tokens', 'createToken', { body: { name: 'wall', scopes: ['service.zone.readonly'] } });
  expect((await hub.call('PUT', '/api/manager/zones/option/roomOrder', { token: token.token, body: { value: [kitchen] } })).status).toBe(403);
  expect((await hub.op('zones', 'getOptionRoomOrder')).value).toEqual([hall, kitchen]);
});
