/**
 * The IPC protocol between the hub and an app's child process: one discriminated union per
 * direction, and one table per direction of the calls it can make (args and result schemas).
 * The hub parses every message from a child with these schemas and checks every message it
 * sends against them, so both sides of the wire only ever see messages that match.
 *
 * The child does not load zod (12 MB of RSS and ~60 ms of start time per app on this machine);
 * it imports only the types from here and checks envelopes with the dependency-free guard in
 * wire.ts, which test/apps/protocol.test.ts holds against these schemas.
 */
import { z } from 'zod';
import type { Permission } from './permissions.js';
import { safeRecord } from '../core/records.js';

export { PROTOCOL_VERSION } from './wire.js';

const Id = z.number().int().nonnegative();
const Key = z.string().min(1).max(256);
const LocalId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'must be 1-128 letters, digits, _ . : or -');
const JsonObject = safeRecord(z.string(), z.unknown());

export const LogOptions = z.object({
  title: z.union([z.string().min(1).max(200), safeRecord(z.string(), z.string())]),
  type: z.enum(['number', 'boolean']).default('number'),
  units: z.string().max(32).optional(),
  decimals: z.number().int().min(0).max(10).optional(),
  titleTrue: z.string().max(200).optional(),
  titleFalse: z.string().max(200).optional(),
});
/** What the insights manager answers about a log; it may carry more fields than these. */
export const LogInfo = z.looseObject({ id: z.string(), uri: z.string() });

export const AutocompleteItem = z.object({
  id: z.union([z.string(), z.number()]),
  name: z.string(),
  description: z.string().optional(),
  image: z.string().optional(),
});

export const HeapInfo = z.object({ heapUsed: z.number(), heapTotal: z.number(), rss: z.number() });

interface CallDef {
  readonly args: z.ZodType;
  readonly result: z.ZodType;
  /** Manifest permission the call needs; null: every app may make it. */
  readonly permission: Permission | null;
}
const call = <A extends z.ZodType, R extends z.ZodType>(args: A, result: R, permission: Permission | null = null) =>
  ({ args, result, permission }) satisfies CallDef;

/** Calls an app makes to the hub (through the `hub` handle), served by the hub's call router. */
export const HUB_CALLS = {
  'settings.get': call(z.object({ key: Key }), z.unknown()),
  'settings.set': call(z.object({ key: Key, value: z.unknown() }), z.null()),
  'settings.unset': call(z.object({ key: Key }), z.null()),
  'settings.getKeys': call(z.object({}), z.array(z.string())),
  'insights.createLog': call(z.object({ id: LocalId, options: LogOptions }), LogInfo, 'hearth:manager:insights'),
  'insights.createEntry': call(
    z.object({ id: LocalId, value: z.union([z.number(), z.boolean()]), date: z.iso.datetime({ offset: true }).optional() }),
    z.null(),
    'hearth:manager:insights',
  ),
  'insights.getLogs': call(z.object({}), z.array(LogInfo), 'hearth:manager:insights'),
  'insights.deleteLog': call(z.object({ id: LocalId }), z.null(), 'hearth:manager:insights'),
  'dashboards.getWidgetStoreState': call(z.object({ id: Key }), JsonObject),
  'dashboards.setWidgetStoreState': call(
    z.object({ id: Key, state: JsonObject, replace: z.boolean().optional() }),
    JsonObject,
  ),
  'speech.say': call(z.object({ text: z.string().min(1).max(1000) }), z.null(), 'hearth:manager:speech-output'),
  'i18n.getLanguage': call(z.object({}), z.string()),
  'i18n.getUnits': call(z.object({}), z.enum(['metric', 'imperial'])),
  'geolocation.getLocation': call(
    z.object({}),
    z.object({ latitude: z.number(), longitude: z.number(), accuracy: z.number().optional() }).nullable(),
    'hearth:manager:geolocation',
  ),
} as const;

/** Calls the hub makes to an app, answered by the bootstrap in the child. */
export const APP_CALLS = {
  init: call(
    z.object({
      app: z.object({ id: z.string(), version: z.string(), dir: z.string(), main: z.string(), userdata: z.string() }),
      language: z.string(),
      units: z.enum(['metric', 'imperial']),
    }),
    z.null(),
  ),
  uninit: call(z.object({}), z.null()),
  gc: call(z.object({}), z.object({ before: HeapInfo, after: HeapInfo })),
  autocomplete: call(
    z.object({ widgetId: z.string(), settingId: z.string(), query: z.string(), settings: JsonObject }),
    z.array(AutocompleteItem).max(200),
  ),
  ping: call(z.object({}), z.null()),
} as const;

export type HubCalls = typeof HUB_CALLS;
export type AppCalls = typeof APP_CALLS;
export type HubCallMethod = keyof HubCalls;
export type AppCallMethod = keyof AppCalls;
export type HubCallArgs<M extends HubCallMethod> = z.output<HubCalls[M]['args']>;
export type HubCallResult<M extends HubCallMethod> = z.input<HubCalls[M]['result']>;
export type AppCallArgs<M extends AppCallMethod> = z.input<AppCalls[M]['args']>;
export type AppCallResult<M extends AppCallMethod> = z.output<AppCalls[M]['result']>;

const names = <T extends object>(table: T) => Object.keys(table) as [keyof T & string, ...(keyof T & string)[]];

/** An error answer: `code` is machine-readable (see WireErrorCode in wire.ts), `message` a sentence. */
const ErrorBody = z.object({ code: z.string().max(64), message: z.string().max(4096) });
const ResultMsg = z.object({ type: z.literal('result'), id: Id, result: z.unknown() });
const ErrorMsg = z.object({ type: z.literal('error'), id: Id, error: ErrorBody });

/** Everything a child may send. */
export const ChildMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), protocol: z.number().int(), pid: z.number().int() }),
  z.object({ type: z.literal('call'), id: Id, method: z.enum(names(HUB_CALLS)), args: JsonObject }),
  ResultMsg,
  ErrorMsg,
]);
export type ChildMessage = z.infer<typeof ChildMessage>;

/** Notifications the hub pushes without expecting an answer. */
export const AppEvent = z.discriminatedUnion('name', [
  z.object({ name: z.literal('settings.set'), key: Key, value: z.unknown() }),
  z.object({ name: z.literal('settings.unset'), key: Key }),
  z.object({ name: z.literal('i18n.update'), language: z.string(), units: z.enum(['metric', 'imperial']) }),
]);
export type AppEvent = z.infer<typeof AppEvent>;

/** Everything the hub may send. */
export const HubMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('call'), id: Id, method: z.enum(names(APP_CALLS)), args: JsonObject }),
  ResultMsg,
  ErrorMsg,
  z.object({ type: z.literal('event'), event: AppEvent }),
]);
export type HubMessage = z.infer<typeof HubMessage>;
