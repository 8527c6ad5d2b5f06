/** The moods handlers: each operation of the contract as a call into the service; a mood set as its caller. */
import { implement, type Operation } from '../../core/operation.js';
import { moodsContract } from './contract.js';
import type { MoodsService } from './service.js';

export function moodsOperations(service: MoodsService): Operation[] {
  return implement(moodsContract.operations, {
    getState: () => ({ moods: Object.keys(service.list()).length }),
    getMoods: () => service.list(),
    getMood: ({ params }) => service.get(params.id),
    createMood: ({ body }) => service.create(body),
    updateMood: ({ params, body }) => service.update(params.id, body),
    setMood: ({ params }, { token }) => service.apply(params.id, token?.actor ?? null),
    deleteMood: async ({ params }) => {
      await service.remove(params.id);
    },
  });
}
