/**
 * The hub's checks of the wire's frequent messages, by hand: a child's call and answer, and the
 * hub's own calls and answers. Each accepts only what the zod schema of protocol.ts accepts
 * (test/apps/wire-checks.test.ts holds them to it); what one does not accept goes through the
 * schema, which describes the problem or takes the rarer shapes (hello, an own `__proto__` key).
 *
 * Why by hand: an app's call reaches the hub every few tens of milliseconds, with zod's code out
 * of the CPU's caches by then; its schema took ~130 µs of the ~1 ms from a capability change's
 * frame to its last client's write (docs/performance.md), these checks a few.
 */
import { APP_CALLS, type ChildMessage, HUB_CALLS, type HubCallMethod } from '../wire/protocol.js';
import { isId } from '../wire/wire.js';

type Fields = Record<string, unknown>;

/** A JSON object: not an array, of the plain prototype (JSON.parse makes no other). */
function isPlainObject(x: unknown): x is Fields {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const proto: unknown = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** An error body as ErrorBody takes it: a code of at most 64 characters, a message of 4,096. */
const isErrorBody = (e: unknown): e is { code: string; message: string } =>
  isPlainObject(e) && typeof e.code === 'string' && e.code.length <= 64 && typeof e.message === 'string' && e.message.length <= 4096;

/**
 * A child's call, result or error when it surely matches ChildMessage; undefined for anything
 * else, which the caller then gives the schema. A call's arguments are each method's to check
 * (the router parses them into new objects), so one with an own `__proto__` key goes the slow
 * way, where the schema keeps the key as a name.
 */
export function childMessageOf(m: unknown): ChildMessage | undefined {
  if (!isPlainObject(m) || !isId(m.id)) return undefined;
  switch (m.type) {
    case 'call': {
      const { method, args } = m;
      if (typeof method !== 'string' || !Object.hasOwn(HUB_CALLS, method)) return undefined;
      if (!isPlainObject(args) || Object.hasOwn(args, '__proto__')) return undefined;
      return { type: 'call', id: m.id, method: method as keyof typeof HUB_CALLS, args };
    }
    case 'result':
      return Object.hasOwn(m, 'result') ? { type: 'result', id: m.id, result: m.result } : undefined;
    case 'error':
      return isErrorBody(m.error) ? { type: 'error', id: m.id, error: { code: m.error.code, message: m.error.message } } : undefined;
    default:
      return undefined;
  }
}

/**
 * A call message as HubMessage takes it: a known method, an integer id, an object of arguments
 * (what RpcPeer makes of the hub's own calls). The arguments' own shapes are each method's
 * handler's to check in the app, as they were under the zod check (a record of unknowns).
 */
export function isOwnCall(m: unknown): boolean {
  if (!isPlainObject(m)) return false;
  const { type, id, method, args } = m;
  return type === 'call' && isId(id) && typeof method === 'string' && Object.hasOwn(APP_CALLS, method) && isPlainObject(args) && Object.keys(m).length === 4;
}

/** An answer as HubMessage takes it (answerOf makes them): a result, or an error body within its bounds. */
export function isOwnAnswer(m: unknown): boolean {
  if (!isPlainObject(m) || !isId(m.id)) return false;
  if (m.type === 'result') return Object.hasOwn(m, 'result') && Object.keys(m).length === 3;
  return m.type === 'error' && isErrorBody(m.error) && Object.keys(m).length === 3 && Object.keys(m.error).length === 2;
}

/** A capability id as device-calls.ts's CapabilityId takes it: `onoff`, `measure_temperature.inside`. */
const CAPABILITY_ID = /^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64})?$/;

/** A value as CapabilityValue takes it: a boolean, a finite number, a string of 4,096 characters at most, null. */
const isCapabilityValue = (v: unknown): boolean =>
  v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length <= 4096);

/**
 * The arguments of `device.setCapabilityValue` (every capability change an app makes: the call
 * the hub hears most) as its schema parses them, when they surely fit; undefined for anything
 * else, which the caller gives the schema (it describes the problem). The schema keeps only its
 * three keys: so does this.
 */
export function capabilityArgsOf(args: unknown): { id: string; capabilityId: string; value: boolean | number | string | null } | undefined {
  if (!isPlainObject(args)) return undefined;
  const { id, capabilityId, value } = args;
  if (typeof id !== 'string' || id.length < 1 || id.length > 64) return undefined;
  if (typeof capabilityId !== 'string' || !CAPABILITY_ID.test(capabilityId)) return undefined;
  if (!Object.hasOwn(args, 'value') || !isCapabilityValue(value)) return undefined;
  return { id, capabilityId, value: value as boolean | number | string | null };
}

/**
 * The hub calls whose arguments are checked by hand when they surely fit (the router gives the
 * rest to their schemas), and whose answer is null, which their schema takes without a parse.
 */
export const HAND_CHECKED: Partial<Record<HubCallMethod, (args: unknown) => object | undefined>> = {
  'device.setCapabilityValue': capabilityArgsOf,
};
