/**
 * Matter: Homey's matter manager, answered by the built-in Matter app (its controller) through
 * routes of its api.js that only the hub calls (operations.ts).
 */
import type { AppRuntime } from '../../apps/host/runtime.js';
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import type { DevicesService } from '../devices/service.js';
import { MATTER_APP, matterContract } from './contract.js';
import { matterOperations } from './operations.js';

/** A node's hearth devices: the Matter app's devices whose data id is `<the controller's name for the node>:<endpoint>`. */
function devicesOf(devices: DevicesService, key: string): string[] {
  return devices
    .ofApp(MATTER_APP)
    .filter((d) => typeof d.data.id === 'string' && d.data.id.startsWith(`${key}:`))
    .map((d) => d.id);
}

export class MatterManager implements Manager {
  readonly name = matterContract.name;
  readonly contract = matterContract;
  readonly operations: readonly Operation[];

  constructor(_ctx: ManagerContext, devices: DevicesService, runtime: AppRuntime) {
    this.operations = matterOperations({
      installed: () => runtime.has(MATTER_APP),
      running: () => runtime.has(MATTER_APP) && runtime.get(MATTER_APP).ready,
      call: async (route, params = {}) => {
        const answer = await runtime.calls.callApi(MATTER_APP, { widgetId: null, route, params, query: {}, body: {} });
        if (!answer.ok) throw new Error(answer.message);
        return answer.body;
      },
      devicesOf: (key) => devicesOf(devices, key),
      deleteDevices: async (ids) => {
        for (const id of ids) if (devices.has(id)) await devices.remove(id);
      },
    });
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
