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
import { safeRecord } from '../../core/null-prototype.js';
import type { Permission } from '../manifest/permissions.js';
import { DEVICE_APP_CALLS, DEVICE_HUB_CALLS } from './device-calls.js';
import { FLOW_APP_CALLS, FLOW_HUB_CALLS } from './flow-calls.js';
import { callDef } from './open-call.js';
import { hasDotSegment } from './segments.cjs';
import { keyProblem } from './setting-rules.cjs';

export { PROTOCOL_VERSION } from './wire.js';

const Id = z.number().int().nonnegative();
// The one rule of settings keys (setting-rules.cts), as the SDK and the hub's settings apply it.
const Key = z.string().superRefine((k, ctx) => {
  const problem = keyProblem(k);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
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

/** An autocomplete result: Homey lets an app add fields of its own, read back from the setting. */
export const AutocompleteItem = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  image: z.string().optional(),
  icon: z.string().optional(),
});

export const HeapInfo = z.object({ heapUsed: z.number(), heapTotal: z.number(), rss: z.number() });

const Location = z.object({ latitude: z.number(), longitude: z.number(), accuracy: z.number().optional() });
const Units = z.enum(['metric', 'imperial']);
/** Translations of the app in one language: locales/<language>.json. */
const Strings = JsonObject;

/**
 * What an app reads synchronously (Homey's settings, i18n, geolocation and clock getters are not
 * async): a copy kept in the app's process, sent with init and kept current by events. The
 * location is only sent to an app with the geolocation permission.
 */
export const AppState = z.object({
  language: z.string(),
  units: Units,
  /** The app's strings in the hub's language, and in English (the fallback). */
  strings: Strings,
  english: Strings,
  /** The app's saved settings, and the defaults its app.json declares (a saved value wins). */
  settings: JsonObject,
  defaults: JsonObject,
  location: Location.nullable(),
  timezone: z.string(),
  /** The Homey version whose SDK this hub offers (`this.homey.version`). */
  homeyVersion: z.string(),
  /** The hub's id (`this.homey.cloud.getHomeyId()`, X-Homey-ID). */
  hubId: z.string(),
});
export type AppState = z.infer<typeof AppState>;

interface CallDef {
  readonly args: z.ZodType;
  readonly result: z.ZodType;
  /** Manifest permission the call needs; null: every app may make it. */
  readonly permission: Permission | null;
}
const call = <A extends z.ZodType, R extends z.ZodType>(args: () => A, result: () => R, permission: Permission | null = null) =>
  callDef(args, result, permission) satisfies CallDef;

/** Largest audio sample an app may send (a frame from an app is 1 MiB at most, base64 is 4/3). */
export const MAX_SAMPLE_BASE64 = 700 * 1024;

/** Calls an app makes to the hub (through the Homey SDK's managers), served by the hub's call router. */
export const HUB_CALLS = {
  'settings.set': call(
    () => z.object({ key: Key, value: z.unknown() }),
    () => z.null(),
  ),
  'settings.unset': call(
    () => z.object({ key: Key }),
    () => z.null(),
  ),
  'insights.createLog': call(
    () => z.object({ id: LocalId, options: LogOptions }),
    () => LogInfo,
  ),
  'insights.createEntry': call(
    () => z.object({ id: LocalId, value: z.union([z.number(), z.boolean()]), date: z.iso.datetime({ offset: true }).optional() }),
    () => z.null(),
  ),
  'insights.getLogs': call(
    () => z.object({}),
    () => z.array(LogInfo),
  ),
  'insights.getLog': call(
    () => z.object({ id: LocalId }),
    () => LogInfo,
  ),
  'insights.deleteLog': call(
    () => z.object({ id: LocalId }),
    () => z.null(),
  ),
  'speech.say': call(
    () => z.object({ text: z.string().min(1).max(1000) }),
    () => z.null(),
    'homey:manager:speech-output',
  ),
  'audio.play': call(
    () => z.object({ format: z.enum(['wav', 'mp3']), sample: z.base64().max(MAX_SAMPLE_BASE64) }),
    () => z.null(),
  ),
  'api.realtime': call(
    () => z.object({ event: z.string().min(1).max(128), data: z.unknown() }),
    () => z.null(),
  ),
  'notifications.create': call(
    () => z.object({ excerpt: z.string().trim().min(1).max(1000) }),
    () => z.null(),
  ),
  'api.request': call(
    () =>
      z.object({
        method: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
        /** Relative to /api, within the managers' API: `/manager/i18n/state`. */
        // Checked as the hub will resolve it: no dot segment (plain or %2e) and no backslash, so
        // '/manager/../app/<other app>/...' cannot leave the managers' API (issue 22, finding 4).
        path: z
          .string()
          .max(2048)
          .startsWith('/manager/', { error: "an app may call the managers' API only: a path such as /manager/i18n/state" })
          .refine((p) => !hasDotSegment(p), { error: "a path to the managers' API has no '.' or '..' segments and no backslashes" }),
        body: z.unknown().optional(),
      }),
    () => z.object({ status: z.number().int(), body: z.unknown() }),
    'homey:manager:api',
  ),
  /**
   * How the app reaches the hub's Web API itself, for Homey's client inside it (homey-api's
   * createAppAPI): a token of its own with the read-only scopes of api.request, and the Unix
   * socket the hub serves its Web API on for this app alone (bound into its namespace).
   */
  'api.connection': call(
    () => z.object({}),
    () => z.object({ token: z.string(), socket: z.string() }),
    'homey:manager:api',
  ),
  /** `homey.cloud.getLocalAddress()`: where devices on the LAN reach the hub (`192.168.1.5:8720`). */
  'cloud.localAddress': call(
    () => z.object({}),
    () => z.object({ address: z.string().max(64) }),
  ),
  ...DEVICE_HUB_CALLS,
  ...FLOW_HUB_CALLS,
} as const;

/** One call of an app's or widget's Web API (app.json `api`), run by its api.js in the app. */
export const ApiCall = z.object({
  /** The widget whose api.js serves it; null for the app's own api.js. */
  widgetId: z.string().nullable(),
  /** The route's name: the function api.js exports. */
  route: z.string(),
  params: safeRecord(z.string(), z.string()),
  query: safeRecord(z.string(), z.string()),
  body: z.unknown(),
  /** The placed widget that called (`Homey.getWidgetInstanceId()` in its page), when a widget did. */
  widgetInstanceId: z.string().optional(),
});
export type ApiCall = z.infer<typeof ApiCall>;
/** What a route answered: its JSON, or the status and sentence of the error it threw. */
export const ApiAnswer = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), body: z.unknown() }),
  z.object({ ok: z.literal(false), status: z.number().int().min(400).max(599), message: z.string().max(4096) }),
]);
export type ApiAnswer = z.infer<typeof ApiAnswer>;

/** Calls the hub makes to an app, answered by the bootstrap in the child. */
export const APP_CALLS = {
  init: call(
    () =>
      z.object({
        /** `main`: the main module, relative to `dir`; null: the app has none and runs as the base Homey.App. */
        app: z.object({ id: z.string(), version: z.string(), dir: z.string(), main: z.string().nullable(), userdata: z.string() }),
        /** app.json as the app wrote it (`this.homey.manifest`). */
        manifest: JsonObject,
        permissions: z.array(z.string()),
        state: AppState,
      }),
    () => z.null(),
  ),
  uninit: call(
    () => z.object({}),
    () => z.null(),
  ),
  gc: call(
    () => z.object({}),
    () => z.object({ before: HeapInfo, after: HeapInfo }),
  ),
  autocomplete: call(
    () => z.object({ widgetId: z.string(), settingId: z.string(), query: z.string(), settings: JsonObject }),
    () => z.array(AutocompleteItem).max(200),
  ),
  api: call(
    () => ApiCall,
    () => ApiAnswer,
  ),
  ping: call(
    () => z.object({}),
    () => z.null(),
  ),
  ...DEVICE_APP_CALLS,
  ...FLOW_APP_CALLS,
} as const;

export type HubCalls = typeof HUB_CALLS;
export type AppCalls = typeof APP_CALLS;
export type HubCallMethod = keyof HubCalls;
export type AppCallMethod = keyof AppCalls;
export type HubCallArgs<M extends HubCallMethod> = z.output<HubCalls[M]['args']>;
export type HubCallResult<M extends HubCallMethod> = z.input<HubCalls[M]['result']>;
export type AppCallArgs<M extends AppCallMethod> = z.input<AppCalls[M]['args']>;
export type AppCallResult<M extends AppCallMethod> = z.output<AppCalls[M]['result']>;
/** What answers one of the hub's calls in the app, typed by the protocol's schemas for it. */
export type AppCallHandler<M extends AppCallMethod> = (args: AppCallArgs<M>) => Promise<AppCallResult<M>> | AppCallResult<M>;
/**
 * One handler for each of `K` (every call, unless narrowed): a table checked with `satisfies`,
 * so a call the protocol gains and the app does not answer fails to compile.
 */
export type AppCallHandlers<K extends AppCallMethod = AppCallMethod> = { readonly [M in K]: AppCallHandler<M> };

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

/** Notifications the hub pushes without expecting an answer: changes to the app's AppState. */
export const AppEvent = z.discriminatedUnion('name', [
  z.object({ name: z.literal('settings.set'), key: Key, value: z.unknown() }),
  z.object({ name: z.literal('settings.unset'), key: Key }),
  z.object({ name: z.literal('i18n.update'), language: z.string(), units: Units, strings: Strings, english: Strings }),
  z.object({ name: z.literal('geolocation.update'), location: Location.nullable() }),
  /** A flow that uses one of the app's cards was made, changed or deleted (the card emits `update`). */
  z.object({ name: z.literal('flow.update'), kind: z.enum(['trigger', 'condition', 'action']), card: z.string().max(128) }),
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
