/**
 * What a schema's parse makes of a value it made itself, without checking it again: the store
 * trusts a section this build wrote and nobody changed since (store-trust.ts), and JSON.parse gives
 * back its data with one difference only: the maps a safeRecord makes are null-prototype objects
 * (null-prototype.ts), JSON.parse's are plain. A shape says where those maps are; applying it
 * makes each one (inheriting no key), in place. A schema whose parse may change a value in any other way
 * (a transform, a union whose branches differ in shape, a kind not listed here) has no shape:
 * its section is always parsed.
 */
import type { z } from 'zod';
import { adoptAsNullRecord, safeRecordValues } from './null-prototype.js';

/** Where in a value the null-prototype maps are; null: nowhere. */
export type Shape = {
  /** The value is a map a safeRecord makes (it is made one: inheriting no key). */
  readonly nullProto: boolean;
  /** The shape of each of its own values (a record's). */
  readonly values: Shape;
  /** The shapes of some of its keys (an object's). */
  readonly keys: ReadonlyArray<readonly [string, NonNullable<Shape>]>;
  /** The shape of each item (an array's). */
  readonly items: Shape;
} | null;

/** A schema whose parse a shape cannot stand for. */
export const NO_SHAPE = Symbol('no shape');

/** Deeper than this, a schema is taken as having no shape (a lazy schema that refers to itself). */
const MAX_DEPTH = 24;

/** Kinds whose parse gives back what it was given (when it was valid). */
const AS_GIVEN = new Set(['string', 'number', 'int', 'boolean', 'null', 'undefined', 'unknown', 'any', 'enum', 'literal', 'template_literal', 'nan', 'never']);
/** Kinds that parse as their inner schema does. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  getter?: () => z.ZodType;
};

const shapes = new WeakMap<z.ZodType, Shape | typeof NO_SHAPE>();

/** The shape of what `schema` makes, or NO_SHAPE. Worked out once per schema. */
export function shapeOf(schema: z.ZodType): Shape | typeof NO_SHAPE {
  const known = shapes.get(schema);
  if (known !== undefined) return known;
  const shape = work(schema, 0);
  shapes.set(schema, shape);
  return shape;
}

function work(schema: z.ZodType, depth: number): Shape | typeof NO_SHAPE {
  if (depth > MAX_DEPTH) return NO_SHAPE;
  const values = safeRecordValues(schema);
  if (values) {
    const inner = work(values, depth + 1);
    return inner === NO_SHAPE ? NO_SHAPE : { nullProto: true, values: inner, keys: [], items: null };
  }
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  if (AS_GIVEN.has(def.type)) return null;
  if (WRAPPERS.has(def.type) && def.innerType) return work(def.innerType, depth + 1);
  switch (def.type) {
    case 'object': {
      const keys: Array<readonly [string, NonNullable<Shape>]> = [];
      for (const [key, s] of Object.entries(def.shape ?? {})) {
        const inner = work(s, depth + 1);
        if (inner === NO_SHAPE) return NO_SHAPE;
        if (inner !== null) keys.push([key, inner]);
      }
      // Keys beyond the shape are kept as given (a loose object) only when nothing is made of them.
      if (def.catchall && work(def.catchall, depth + 1) !== null) return NO_SHAPE;
      return keys.length > 0 ? { nullProto: false, values: null, keys, items: null } : null;
    }
    case 'array': {
      const items = def.element ? work(def.element, depth + 1) : NO_SHAPE;
      if (items === NO_SHAPE) return NO_SHAPE;
      return items === null ? null : { nullProto: false, values: null, keys: [], items };
    }
    case 'record': {
      // zod's own record makes a plain object, as JSON.parse does.
      const inner = def.valueType ? work(def.valueType, depth + 1) : NO_SHAPE;
      if (inner === NO_SHAPE) return NO_SHAPE;
      return inner === null ? null : { nullProto: false, values: inner, keys: [], items: null };
    }
    case 'union':
      // Which branch a value took is known only by parsing it: trusted only when none makes anything.
      return (def.options ?? []).every((o) => work(o, depth + 1) === null) ? null : NO_SHAPE;
    case 'lazy':
      return def.getter ? work(def.getter(), depth + 1) : NO_SHAPE;
    case 'pipe': {
      if (!def.in || !def.out) return NO_SHAPE;
      const given = work(def.in, depth + 1);
      return given === NO_SHAPE ? NO_SHAPE : work(def.out, depth + 1);
    }
    default:
      // A transform (its function may make anything), and every kind not known here.
      return NO_SHAPE;
  }
}

/** Makes the maps `shape` names in `value` null-prototype maps (inheriting no key), in place. */
export function applyShape(value: unknown, shape: Shape): void {
  if (shape === null || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    if (shape.items) for (const item of value) applyShape(item, shape.items);
    return;
  }
  const map = value as Record<string, unknown>;
  for (const [key, inner] of shape.keys) if (Object.hasOwn(map, key)) applyShape(map[key], inner);
  if (shape.values) for (const key of Object.keys(map)) applyShape(map[key], shape.values);
  if (shape.nullProto) adoptAsNullRecord(map);
}
