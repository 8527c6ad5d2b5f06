/**
 * The insights operation table: the six operations of the contract plus `GET /log/:uri/:id`,
 * the path other clients use for one log. A log's key is `<uri>:<id>`.
 */
import { z } from 'zod';
import { defineOperation, defineStateOperation, type Operation } from '../../core/operation.js';
import { RESOLUTIONS } from './resolutions.js';
import type { InsightsService } from './service.js';
import { EntriesSchema, LogSchema } from './views.js';

const Segment = z.string().min(1).max(300);
const ByKey = z.object({ id: Segment.describe('the log key, `<uri>:<id>`') });
const ByUriId = z.object({ uri: Segment.describe('the owner, e.g. hearth:app:<appId>'), id: Segment });
const EntriesQuery = z.object({
  resolution: z.string().optional().describe(`one of ${RESOLUTIONS.join(', ')}; default last24Hours`),
});

const StateSchema = z.object({
  logs: z.number().int(),
  entries: z.number().int().describe('raw points stored (the last 24 hours)'),
  dbSizeBytes: z.number().int(),
  oldestEntry: z.string().nullable(),
  retention: z.array(z.object({ level: z.string(), bucketMs: z.number().nullable(), keepMs: z.number() })),
});

export function insightsOperations(service: InsightsService): Operation[] {
  const key = (p: { uri: string; id: string }): string => `${p.uri}:${p.id}`;
  return [
    defineOperation({
      id: 'getLogs',
      method: 'GET',
      path: '/log',
      scope: 'service.insights.readonly',
      summary: 'Every log, keyed by `<uri>:<id>`',
      output: z.record(z.string(), LogSchema),
      handler: () => service.getLogs(),
    }),
    defineOperation({
      id: 'getLog',
      method: 'GET',
      path: '/log/:id',
      scope: 'service.insights.readonly',
      summary: 'One log by its key `<uri>:<id>`',
      params: ByKey,
      output: LogSchema,
      handler: ({ params }) => service.getLog(params.id),
    }),
    defineOperation({
      id: 'getLogByUri',
      method: 'GET',
      path: '/log/:uri/:id',
      scope: 'service.insights.readonly',
      extension: true,
      summary: 'One log by owner uri and id',
      params: ByUriId,
      output: LogSchema,
      handler: ({ params }) => service.getLog(key(params)),
    }),
    defineOperation({
      id: 'getLogEntries',
      method: 'GET',
      path: '/log/:uri/:id/entry',
      scope: 'service.insights.readonly',
      summary: 'The entries of a log over a resolution, at most ~300 buckets',
      params: ByUriId,
      query: EntriesQuery,
      output: EntriesSchema,
      handler: ({ params, query }) => service.entries(key(params), query.resolution),
    }),
    defineOperation({
      id: 'deleteLogEntries',
      method: 'DELETE',
      path: '/log/:uri/:id/entry',
      scope: 'service.insights',
      summary: 'Delete every entry of a log, keeping the log; answers the log',
      params: ByUriId,
      output: LogSchema,
      handler: ({ params }) => service.deleteEntries(key(params)),
    }),
    defineOperation({
      id: 'deleteLog',
      method: 'DELETE',
      path: '/log/:uri/:id',
      scope: 'service.insights',
      summary: 'Delete a log and its entries',
      params: ByUriId,
      status: 204,
      handler: ({ params }) => service.deleteLog(key(params)),
    }),
    defineStateOperation({
      summary: 'Number of logs and entries, database size, oldest entry and the retention table',
      output: StateSchema,
      handler: () => service.state(),
    }),
  ];
}
