/** The alarms handlers: each operation of the contract as a call into the service. */
import { implement, type Operation } from '../../core/operation.js';
import { alarmsContract } from './contract.js';
import type { AlarmsService } from './service.js';

export function alarmsOperations(service: AlarmsService): Operation[] {
  return implement(alarmsContract.operations, {
    getAlarms: () => service.list(),
    getAlarm: ({ params }) => service.get(params.id),
    createAlarm: ({ body }) => service.create(body),
    updateAlarm: ({ params, body }) => service.update(params.id, body),
    deleteAlarm: async ({ params }) => {
      await service.remove(params.id);
    },
  });
}
