/**
 * The devices handlers: each operation of the contract as a call into the devices service.
 */
import { implement, type Operation } from '../../core/operation.js';
import { devicesContract } from './contract.js';
import type { DevicesService } from './service.js';

export function devicesOperations(service: DevicesService): Operation[] {
  return implement(devicesContract.operations, {
    getState: () => service.state(),
    getDevices: () => service.list(),
    getDevice: ({ params }) => service.get(params.id),
    updateDevice: ({ params, body }) => service.update(params.id, body),
    getDeviceSettingsObj: ({ params }) => service.settingsObj(params.id),
    setDeviceSettings: ({ params, body }) => service.setSettings(params.id, body),
    deleteDevice: async ({ params }) => {
      await service.remove(params.id);
    },
    getCapabilityValue: ({ params }) => service.getCapabilityValue(params.deviceId, params.capabilityId),
    setCapabilityValue: async ({ params, body }) => {
      await service.setCapabilityValue(params.deviceId, params.capabilityId, body.value, body.opts, body.transactionId);
      return null;
    },
  });
}
