/**
 * The logic handlers: the home's variables, each operation a call into the service.
 */
import { implement, type Operation } from '../../core/operation.js';
import { logicContract } from './contract.js';
import type { LogicService } from './service.js';

export function logicOperations(service: LogicService): Operation[] {
  return implement(logicContract.operations, {
    getState: () => ({ variables: Object.keys(service.list()).length }),
    getVariables: () => service.list(),
    getVariable: ({ params }) => service.get(params.id),
    createVariable: ({ body }) => service.create(body),
    updateVariable: ({ params, body }) => service.update(params.id, body),
    deleteVariable: async ({ params }) => {
      await service.remove(params.id);
    },
  });
}
