/**
 * Every write is checked against what the store holds, whichever path it takes (the variables'
 * API, the "set a variable" card run by hand, a flow with a long token): a value past the bound
 * fails its request with a 400 sentence and changes nothing; and a record that does not parse
 * at start (written by an older hub, or by hand) is set aside in a file of its own, named in the
 * log, while its manager starts with every other record.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { readStoreDoc } from '../helpers/store-files.js';

let hub: RunningHub;
const V = '/api/manager/logic/variable';
const F = '/api/manager/flow';
type Variable = { id: string; name: string; value: unknown };

beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.cleanup();
});

async function variable(name: string, value: string): Promise<Variable> {
  const r = await hub.call<Variable>('POST', V, { body: { name, type: 'string', value } });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe('a write past its bound', () => {
  it("the 'set a variable' card run by hand: 400 naming the bound, the variable unchanged and still the owner's to change and delete", async () => {
    const v = await variable('Note', 'short');
    const res = await hub.call<{ error_description: string }>('POST', `${F}/flowcardaction/homey:manager:logic/set_variable/run`, {
      body: { args: { variable: { id: v.id, name: v.name }, value: 'x'.repeat(20_000) } },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error_description).toBe(
      `the change was not made: what 'logic-variables' record '${v.id}' would hold does not fit: value: Too big: expected string to have <=10000 characters`,
    );
    expect((await hub.call<Variable>('GET', `${V}/${v.id}`)).body.value).toBe('short');
    expect((await hub.call('PUT', `${V}/${v.id}`, { body: { value: 'changed' } })).status).toBe(200);
    expect((await hub.call('DELETE', `${V}/${v.id}`)).status).toBe(204);
  });

  it('a flow whose tokens make a value past the bound: the run fails saying so, the variable is unchanged', async () => {
    const source = await variable('Half', 'y'.repeat(6_000));
    const target = await variable('Target', 'before');
    const token = `[[homey:manager:logic|${source.id}]]`;
    const flow = await hub.call<{ id: string }>('POST', `${F}/flow`, {
      body: {
        name: 'Doubles',
        trigger: { id: 'homey:manager:flow:programmatic_trigger' },
        actions: [{ id: 'homey:manager:logic:set_variable', args: { variable: { id: target.id, name: target.name }, value: `${token}${token}` } }],
      },
    });
    expect(flow.status, flow.text).toBe(201);
    const run = await hub.call<{ result: string; error: string }>('POST', `${F}/flow/${flow.body.id}/trigger`);
    expect(run.body.result).toBe('failed');
    expect(run.body.error).toContain('value: Too big: expected string to have <=10000 characters');
    expect((await hub.call<Variable>('GET', `${V}/${target.id}`)).body.value).toBe('before');
  });
});

describe('a stored thing past its byte bound', () => {
  it('a flow of more than 64 KiB is refused with 413 naming the bound, and nothing is stored', async () => {
    const v = await variable('Pad', 'x');
    const big = { id: 'homey:manager:logic:set_variable', args: { variable: { id: v.id, name: v.name }, value: 'p'.repeat(9_000) } };
    const res = await hub.call<{ error_description: string }>('POST', `${F}/flow`, {
      body: { name: 'Heavy', trigger: { id: 'homey:manager:flow:programmatic_trigger' }, actions: Array(8).fill(big) },
    });
    expect(res.status, res.text).toBe(413);
    expect(res.body.error_description).toBe('not stored: a flow holds at most 64 KiB, and this one would hold 72 KiB');
    const flows = (await hub.call<Record<string, { name: string }>>('GET', `${F}/flow`)).body;
    expect(Object.values(flows).map((f) => f.name)).not.toContain('Heavy');
  });
});

describe('a record that does not parse at start', () => {
  it('is set aside in a file beside, named in the log; the logic manager starts with the other variables', async () => {
    const good = await variable('Kept', 'fine');
    await hub.stop();
    const file = join(hub.dataDir, 'db.json');
    const doc = JSON.parse(await readFile(file, 'utf8')) as Record<string, Record<string, unknown>>;
    const bad = { id: 'bad-one', name: 'Too long', type: 'string', value: 'z'.repeat(20_000) };
    doc['logic-variables']!['bad-one'] = bad;
    await writeFile(file, JSON.stringify(doc));
    hub = await startHub({ dataDir: hub.dataDir });
    const got = await hub.call<Record<string, Variable>>('GET', V);
    const list = got.body;
    expect(list[good.id]?.value).toBe('fine');
    expect(list['bad-one']).toBeUndefined();
    expect((await hub.call('GET', '/api/manager/logic/state')).status).toBe(200);
    const [kept] = await readdir(join(hub.dataDir, 'set-aside'));
    expect(kept).toMatch(/-logic-variables\.json$/);
    const aside = JSON.parse(await readFile(join(hub.dataDir, 'set-aside', kept!), 'utf8')) as { records: Array<{ path: string[]; value: unknown }> };
    expect(aside.records).toEqual([{ path: ['bad-one'], reason: 'bad-one.value: Too big: expected string to have <=10000 characters', value: bad }]);
    expect(hub.output.join('\n')).toContain('records in the data file did not parse and were set aside');
    // The data file is written without it (its journal): the next start sets nothing aside.
    await poll(
      async () => Object.keys((await readStoreDoc<Record<string, Record<string, unknown>>>(hub.dataDir))['logic-variables']!),
      (ids) => !ids.includes('bad-one'),
      'the data file to be written without the record',
    );
  });
});
