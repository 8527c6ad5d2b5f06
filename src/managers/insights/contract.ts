/**
 * The insights contract: logs (by key and by owner and id), their entries at a resolution, the
 * state, and the events of logs and boolean entries.
 */
import { z } from 'zod';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';
import { RESOLUTIONS } from './resolutions.js';
import { EntriesSchema, LogEntryBooleanSchema, LogSchema } from './views.js';

const Segment = lazy(() => z.string().min(1).max(300));
const ByKey = lazy(() => z.object({ id: Segment().describe('the log key, `<uri>:<id>`') }));
const ByUriId = lazy(() => z.object({ uri: Segment().describe('the owner, e.g. homey:app:<appId>'), id: Segment() }));
const EntriesQuery = lazy(() =>
  z.object({
    resolution: z
      .string()
      .optional()
      .describe(`one of ${RESOLUTIONS.join(', ')}; default last24Hours`),
  }),
);

const StateSchema = lazy(() =>
  z.object({
    logs: z.number().int(),
    entries: z.number().int().describe('raw points stored (the last 24 hours)'),
    dbSizeBytes: z.number().int(),
    oldestEntry: z.string().nullable(),
    retention: z.array(z.object({ level: z.string(), bucketMs: z.number().nullable(), keepMs: z.number() })),
  }),
);

export const insightsContract = defineContract({
  name: 'insights',
  eventScope: 'service.insights.readonly',
  events: lazy(() => ({ ...resourceEvents('log', LogSchema()), ...resourceEvents('logentryboolean', LogEntryBooleanSchema()) })),
  operations: {
    getLogs: op(
      {
        method: 'GET',
        path: '/log',
        scope: 'service.insights.readonly',
        summary: 'Every log, keyed by `<uri>:<id>`',
      },
      () => ({
        output: z.record(z.string(), LogSchema()),
      }),
    ),
    getLog: op(
      {
        method: 'GET',
        path: '/log/:id',
        scope: 'service.insights.readonly',
        summary: 'One log by its key `<uri>:<id>`',
      },
      () => ({
        params: ByKey(),
        output: LogSchema(),
      }),
    ),
    getLogByUri: op(
      {
        method: 'GET',
        path: '/log/:uri/:id',
        scope: 'service.insights.readonly',
        extension: true,
        summary: 'One log by owner uri and id',
      },
      () => ({
        params: ByUriId(),
        output: LogSchema(),
      }),
    ),
    getLogEntries: op(
      {
        method: 'GET',
        path: '/log/:uri/:id/entry',
        scope: 'service.insights.readonly',
        summary: 'The entries of a log over a resolution, at most ~300 buckets',
      },
      () => ({
        params: ByUriId(),
        query: EntriesQuery(),
        output: EntriesSchema(),
      }),
    ),
    deleteLogEntries: op(
      {
        method: 'DELETE',
        path: '/log/:uri/:id/entry',
        scope: 'service.insights',
        summary: 'Delete every entry of a log, keeping the log; answers the log',
      },
      () => ({
        params: ByUriId(),
        output: LogSchema(),
      }),
    ),
    deleteLog: op(
      {
        method: 'DELETE',
        path: '/log/:uri/:id',
        scope: 'service.insights',
        summary: 'Delete a log and its entries',
        status: 204,
      },
      () => ({
        params: ByUriId(),
      }),
    ),
    getState: stateOperation({
      summary: 'Number of logs and entries, database size, oldest entry and the retention table',
      output: () => StateSchema(),
    }),
  },
});
