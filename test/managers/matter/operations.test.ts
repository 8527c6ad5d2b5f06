/**
 * Homey's matter manager over a stand-in for the Matter app (the real one: test/apps/matter.test.ts):
 * a home without the app has no nodes (not an outage), a stopped app is told, a node's devices are
 * found by the app's name for it, and an id is only ever one of the app's own keys.
 */
import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../src/core/operation.js';
import { type MatterApp, matterOperations } from '../../../src/managers/matter/operations.js';

const NODE = {
  id: 'b3c1f2a4-0000-8000-8000-000000000001',
  nodeId: '42',
  name: 'Hall light',
  vendorName: 'hearth',
  productName: 'Test light',
  vendorId: 65521,
  productId: 32768,
  serialNumber: 'hearth-1',
  available: true,
  endpoints: [{ number: 1, deviceTypes: [256] }],
};

function app(over: Partial<MatterApp> = {}): MatterApp & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    installed: () => true,
    running: () => true,
    call: async (route, params) => {
      calls.push(`${route} ${JSON.stringify(params ?? {})}`);
      return route === 'hubNodes' ? { [NODE.id]: { ...NODE, key: 'peer1' } } : { reachable: true, ms: 3, error: null };
    },
    devicesOf: (key) => (key === 'peer1' ? ['dev-1'] : []),
    deleteDevices: async (ids) => {
      calls.push(`deleteDevices ${ids.join(',')}`);
    },
    ...over,
  };
}

const run = async (a: MatterApp, id: string, params: Record<string, string> = {}) => {
  const op = matterOperations(a).find((o) => o.id === id);
  if (!op) throw new Error(`no operation ${id}`);
  return op.handler({ params, query: {}, body: {} }, {} as RequestContext);
};

describe('matter operations', () => {
  it('lists the nodes with their devices, without the app name for them', async () => {
    expect(await run(app(), 'getMatterNodes')).toEqual({ [NODE.id]: { ...NODE, devices: ['dev-1'] } });
    expect(await run(app(), 'getState')).toEqual({ installed: true, running: true, nodes: 1 });
  });

  it('has no nodes without the app, and says so when it is stopped', async () => {
    expect(await run(app({ installed: () => false, running: () => false }), 'getMatterNodes')).toEqual({});
    expect(await run(app({ installed: () => false, running: () => false }), 'getState')).toEqual({ installed: false, running: false, nodes: 0 });
    await expect(run(app({ running: () => false }), 'getMatterNodes')).rejects.toMatchObject({ status: 503 });
  });

  it('finds a node by its own id only: a name of Object.prototype is no node', async () => {
    for (const id of ['__proto__', 'valueOf', 'constructor', 'hasOwnProperty']) {
      await expect(run(app(), 'getMatterNode', { id })).rejects.toMatchObject({ status: 404, message: `Matter node '${id}' does not exist` });
      await expect(run(app(), 'deleteMatterNode', { id })).rejects.toMatchObject({ status: 404 });
    }
  });

  it('removes a node through the app, then its devices', async () => {
    const a = app();
    expect(await run(a, 'deleteMatterNode', { id: NODE.id })).toBeNull();
    expect(a.calls).toEqual(['hubNodes {}', `hubDeleteNode {"id":"${NODE.id}"}`, 'deleteDevices dev-1']);
  });
});
