/**
 * Maps keyed by a caller's string (ids from a path, setting names, record keys in db.json or in a
 * request body) are null-prototype objects, never plain `{}`: on a plain object, `__proto__`
 * replaces the prototype (or `Object.prototype` itself, through `map['__proto__'].field = ...`),
 * and `constructor` or `toString` read as present. With a null prototype every string is an
 * ordinary own key, so any name round-trips: listed, readable, written to disk and read back.
 * Code that needs iteration order or non-string keys uses a `Map` instead.
 */
import { z } from 'zod';

/**
 * What every such map inherits from: nothing. An object with no properties and no prototype,
 * frozen, so the map's own keys are all it has (no `__proto__` accessor, `constructor` or
 * `toString`), as with `Object.create(null)`. Made on it rather than on null because V8 keeps an
 * object with a null prototype as a hash table of its own (~160 bytes even empty), where this one
 * shares a hidden class with every map of the same keys: a device's data, store, settings and
 * options were ~1.1 MiB of a 1,000-device home's heap (a heap snapshot of the home bench).
 */
const NOTHING: object = Object.freeze(Object.create(null));

/** An empty map for caller-chosen keys. */
export function nullRecord<V>(): Record<string, V> {
  return Object.create(NOTHING) as Record<string, V>;
}

/** Makes a map JSON.parse made (its keys all own, as JSON's are) such a map, in place. */
export function adoptAsNullRecord(map: object): void {
  Object.setPrototypeOf(map, NOTHING);
}

/** Whether `value` is such a map: an object that inherits no key. */
export function isNullRecord(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === NOTHING || proto === null;
}

/**
 * A deep copy of JSON data in which every object has a null prototype: a draft a change may key
 * by a caller's string (`draft[id] = ...`, `__proto__` included) before the schema makes it
 * what is stored. Walks with its own stack, so depth cannot overflow it.
 */
export function nullProtoClone<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const root: unknown = Array.isArray(value) ? [] : nullRecord();
  const stack: Array<[unknown, Record<string, unknown> | unknown[]]> = [[value, root as Record<string, unknown>]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    for (const [k, v] of Object.entries(from as object)) {
      let copy: unknown = v;
      if (typeof v === 'object' && v !== null) {
        copy = Array.isArray(v) ? [] : nullRecord();
        stack.push([v, copy as Record<string, unknown>]);
      }
      if (Array.isArray(to)) to[Number(k)] = copy;
      else to[k] = copy;
    }
  }
  return root as T;
}

/** A null-prototype copy of `entries` (every own key kept, `__proto__` included). */
export function toNullRecord<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  const out = nullRecord<V>();
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/**
 * zod's `z.record` drops an own `__proto__` key without a word (and builds its result as `{}`);
 * the key travels through it under this name instead, which no JSON text a person writes holds.
 */
const PROTO_STANDIN = '\u0000__proto__';

/** A path segment of a zod issue as the caller wrote it (the `__proto__` stand-in undone). */
export const issueKey = (segment: PropertyKey): string => (segment === PROTO_STANDIN ? '__proto__' : String(segment));

function protoStandIn(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input) || !Object.hasOwn(input, '__proto__')) return input;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    Object.defineProperty(copy, k === '__proto__' ? PROTO_STANDIN : k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/**
 * `z.record(key, value)` whose output is a null-prototype object that keeps every key of the
 * input, `__proto__` included. Use it for every record parsed from a request, a file or an app:
 * store sections, bodies, manifests. The JSON schema (OpenAPI) is that of `z.record`.
 *
 * @example const Section = safeRecord(z.string(), TokenRecord) // Section.parse(JSON.parse(text))
 */
export function safeRecord<K extends z.ZodType<string, string>, V extends z.ZodType>(
  key: K,
  value: V,
  params?: Parameters<typeof z.record>[2],
): z.ZodType<Record<z.output<K>, z.output<V>>, Record<z.input<K>, z.input<V>>> {
  const made = z
    .preprocess(protoStandIn, z.record(key, value, params))
    .transform((parsed) => toNullRecord(Object.entries(parsed).map(([k, v]) => [k === PROTO_STANDIN ? '__proto__' : k, v] as const)));
  SAFE_RECORDS.set(made, value);
  return made as never;
}

/** Each safeRecord made, with the schema of its values (what a trusted section's shape is read from: store-shape.ts). */
const SAFE_RECORDS = new WeakMap<z.ZodType, z.ZodType>();

/** The schema of a safeRecord's values, or undefined when `schema` is no safeRecord. */
export const safeRecordValues = (schema: z.ZodType): z.ZodType | undefined => SAFE_RECORDS.get(schema);
