/**
 * What the insights operations answer about logs and their entries, as zod schemas: the
 * operation table declares them and the web app takes its types from here. Free of Node
 * imports, so the browser build can type-check against it.
 */

import { z } from 'zod';
import { lazy } from '../../core/contract.js';

export const LogSchema = lazy(() =>
  z.object({
    id: z.string().describe("Homey V3's id: `<ownerUri>:<ownerId>` (homey:device:<id>:onoff), what homey-api works the owner out from"),
    ownerId: z.string().describe("the log's id within its owner (onoff)"),
    uri: z.string().describe('the owner, as Homey V2 named it: homey:app:<appId>, homey:device:<id> or homey:manager:<name>'),
    title: z.string(),
    type: z.enum(['number', 'boolean']),
    units: z.string().nullable(),
    decimals: z.number().int().nullable(),
    titleTrue: z.string().nullable(),
    titleFalse: z.string().nullable(),
    lastValue: z.union([z.number(), z.boolean()]).nullable(),
    lastUpdated: z.string().nullable().describe('ISO-8601 time of the latest entry'),
    ownerUri: z.string(),
  }),
);

/** One point of a boolean log, as logentryboolean.* events carry it (t and v null: all of the log's points). */
export const LogEntryBooleanSchema = lazy(() =>
  z.object({ id: z.string(), log: z.string(), uri: z.string(), t: z.iso.datetime().nullable(), v: z.boolean().nullable() }),
);

export const EntriesSchema = lazy(() =>
  z.object({
    id: z.string(),
    uri: z.string(),
    start: z.string(),
    end: z.string(),
    step: z.number().describe('bucket width in ms'),
    updatesIn: z.number().describe('ms until the current bucket closes (the answer changes)'),
    values: z.array(z.object({ t: z.string(), v: z.union([z.number(), z.boolean()]).nullable() })),
    lastValue: z.union([z.number(), z.boolean()]).nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
  }),
);
export type LogView = z.infer<ReturnType<typeof LogSchema>>;
export type EntriesView = z.infer<ReturnType<typeof EntriesSchema>>;
