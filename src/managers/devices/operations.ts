/**
 * The devices handlers: each operation of the contract as a call into the devices service. A
 * token held to some rooms (a guest's: zones/reach.ts) lists only their devices, and any other
 * device is to it one that does not exist.
 */
import { notFound } from '../../core/errors.js';
import { implement, type Operation } from '../../core/operation.js';
import type { TokenInfo } from '../../core/tokens.js';
import type { ZoneReach } from '../zones/reach.js';
import { devicesContract } from './contract.js';
import type { DevicesService } from './service.js';

export function devicesOperations(service: DevicesService, reach: ZoneReach): Operation[] {
  /** `id` when `token` may reach it; else the answer for a device that does not exist. */
  const reachable = (token: TokenInfo | null, id: string): string => {
    if (reach.limited(token) && !(service.has(id) && reach.zone(token, service.record(id).zone))) throw notFound(`device '${id}' does not exist`);
    return id;
  };
  return implement(devicesContract.operations, {
    getState: () => service.state(),
    getDevices: (_input, { token }) => {
      const all = service.list();
      if (!reach.limited(token)) return all;
      for (const [id, d] of Object.entries(all)) if (!reach.zone(token, d.zone)) delete all[id];
      return all;
    },
    getDevice: ({ params }, { token }) => service.get(reachable(token, params.id)),
    updateDevice: ({ params, body }, { token }) => service.update(reachable(token, params.id), body),
    getDeviceSettingsObj: ({ params }, { token }) => service.settingsObj(reachable(token, params.id)),
    setDeviceSettings: ({ params, body }, { token }) => service.setSettings(reachable(token, params.id), body),
    deleteDevice: async ({ params }, { token }) => {
      await service.remove(reachable(token, params.id));
    },
    getCapabilityValue: ({ params }, { token }) => service.getCapabilityValue(reachable(token, params.deviceId), params.capabilityId),
    setCapabilityValue: async ({ params, body }, { token }) => {
      await service.setCapabilityValue(reachable(token, params.deviceId), params.capabilityId, body.value, body.opts, body.transactionId, token?.actor ?? null);
      return null;
    },
  });
}
