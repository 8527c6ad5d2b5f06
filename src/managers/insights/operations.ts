/**
 * The insights handlers: each operation of the contract (contract.ts) as a call into the service.
 * A log is addressed by its key `<uri>:<id>`, or by its owner and id as two segments.
 */
import { implement, type Operation } from '../../core/operation.js';
import { insightsContract } from './contract.js';
import type { InsightsService } from './service.js';

export function insightsOperations(service: InsightsService): Operation[] {
  const key = (p: { uri: string; id: string }): string => `${p.uri}:${p.id}`;
  return implement(insightsContract.operations, {
    getLogs: () => service.getLogs(),
    getLog: ({ params }) => service.getLog(params.id),
    getLogByUri: ({ params }) => service.getLog(key(params)),
    getLogEntries: ({ params, query }) => service.entries(key(params), query.resolution),
    deleteLogEntries: ({ params }) => service.deleteEntries(key(params)),
    deleteLog: ({ params }) => service.deleteLog(key(params)),
    getState: () => service.state(),
  });
}
