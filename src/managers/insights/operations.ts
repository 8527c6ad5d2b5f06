/**
 * The insights handlers: each operation of the contract (contract.ts) as a call into the service.
 * A log is addressed by its id `<uri>:<id>`, or by its owner and id as two segments (V2's own id
 * or V3's whole one).
 */
import { implement, type Operation } from '../../core/operation.js';
import { insightsContract } from './contract.js';
import type { InsightsService } from './service.js';

export function insightsOperations(service: InsightsService): Operation[] {
  // Homey V3's client sends the whole id (`homey:device:<id>:onoff`) after the owner; V2's the owner's own id (`onoff`).
  const key = (p: { uri: string; id: string }): string => (p.id.startsWith(`${p.uri}:`) ? p.id : `${p.uri}:${p.id}`);
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
