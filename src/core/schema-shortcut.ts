/**
 * Hand checks that stand in for a store record's zod schema on a hot write path. A shortcut says
 * a value is already exactly what the schema would make of it (the same JSON, the same kinds of
 * object), so it is stored as it is; anything it does not vouch for goes through the schema as
 * before, which describes the problem or makes the value what is stored. Each shortcut is held to
 * its schema by a test (test/core/schema-shortcut.test.ts).
 *
 * Why: a big home's capability values are written every few seconds, a hundred devices' at a
 * time; zod made a new copy of each record (and of each value in it), garbage that lived through
 * the write's fsync and was promoted, a third of what filled the hub's old generation between
 * collections (docs/performance.md).
 */
import type { z } from 'zod';

const SHORTCUTS = new WeakMap<z.ZodType, (value: unknown) => boolean>();

/** `schema`, with `takes(value)` vouching that the schema's output for `value` is `value` itself. */
export function withShortcut<S extends z.ZodType>(schema: S, takes: (value: unknown) => boolean): S {
  SHORTCUTS.set(schema, takes);
  return schema;
}

/** Whether `schema`'s shortcut vouches for `value` (no shortcut: no). */
export function takenAsIs(schema: z.ZodType, value: unknown): boolean {
  return SHORTCUTS.get(schema)?.(value) === true;
}
