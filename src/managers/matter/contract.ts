/**
 * The matter contract (Homey's matter manager, the operations of it that fit a hub without a
 * Thread radio): the Matter devices ("nodes") the home has paired, one of them, a ping, and its
 * removal (the device told to leave the home's fabric, its hearth devices deleted). The nodes live
 * in the built-in Matter app (examples/com.hearth.matter), which runs the controller; this
 * manager asks it. Pairing is a pairing session of the app's "Matter device" driver, as on Homey
 * (its pincode view takes the code): POST /api/manager/drivers/pairsession, then emit `pincode`.
 */
import { z } from 'zod';
import { defineContract, lazy, op } from '../../core/contract.js';

/** The built-in app that runs the Matter controller. */
export const MATTER_APP = 'com.hearth.matter';

export const MatterNode = lazy(() =>
  z.object({
    id: z.string().describe("the node's id on this hub (a UUID made from the controller's name for it, stable across restarts)"),
    nodeId: z.string().describe("its operational node id on the home's fabric"),
    name: z.string().describe('its own label, else its product name'),
    vendorName: z.string().nullable(),
    productName: z.string().nullable(),
    vendorId: z.number().int().nullable(),
    productId: z.number().int().nullable(),
    serialNumber: z.string().nullable(),
    available: z.boolean().describe('whether the controller reaches it now'),
    endpoints: z.array(z.object({ number: z.number().int(), deviceTypes: z.array(z.number().int()) })).describe('its endpoints and their Matter device types'),
    devices: z.array(z.string()).describe('the ids of the hearth devices made of its endpoints'),
  }),
);
export type MatterNode = z.infer<ReturnType<typeof MatterNode>>;

const Id = lazy(() => z.object({ id: z.string().min(1).max(64) }));

export const matterContract = defineContract({
  name: 'matter',
  eventScope: 'service.system.readonly',
  operations: {
    getState: op(
      { method: 'GET', path: '/state', scope: 'service.system.readonly', summary: 'Whether the Matter controller runs, and how many nodes it has' },
      () => ({
        output: z.object({
          installed: z.boolean().describe('whether the Matter app is installed'),
          running: z.boolean().describe('whether it runs (the controller itself starts with the first node paired)'),
          nodes: z.number().int().describe('the nodes paired (0 while it does not run)'),
        }),
      }),
    ),
    getMatterNodes: op({ method: 'GET', path: '/nodes', scope: 'service.system.readonly', summary: 'Every Matter node of the home, by id' }, () => ({
      output: z.record(z.string(), MatterNode()),
    })),
    getMatterNode: op({ method: 'GET', path: '/node/:id', scope: 'service.system.readonly', summary: 'One Matter node' }, () => ({
      params: Id(),
      output: MatterNode(),
    })),
    deleteMatterNode: op(
      {
        method: 'DELETE',
        path: '/node/:id',
        scope: 'service.system',
        summary: "Removes a node: the device is told to leave the home's fabric (forgotten here if it cannot be reached) and its hearth devices are deleted",
        status: 204,
      },
      () => ({ params: Id() }),
    ),
    pingNode: op(
      { method: 'POST', path: '/node/:id/ping', scope: 'service.system', summary: 'Asks a node for one attribute; answers how long it took' },
      () => ({
        params: Id(),
        output: z.object({ reachable: z.boolean(), ms: z.number().nullable(), error: z.string().nullable() }),
      }),
    ),
  },
});
