/**
 * Sections this build wrote and nobody changed since open unchecked (store-trust.ts), giving
 * back exactly what their parse would (null-prototype maps where a safeRecord makes them); any
 * change outside the hub (db.json edited, another build, a journal's change) is checked as before.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isNullRecord, safeRecord } from '../../src/core/null-prototype.js';
import { Store } from '../../src/core/store.js';
import { NO_SHAPE, shapeOf } from '../../src/core/store-shape.js';
import { TRUST_FILE } from '../../src/core/store-trust.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-store-trust-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A key, not the prototype, in a null-prototype map. */
const PROTO = '__proto__';
const BIG = { section: 64 * 1024 * 1024, items: 'things', record: 1024 * 1024, item: 'a thing' };
const Thing = z.object({
  name: z.string(),
  data: safeRecord(z.string(), z.unknown()),
  options: safeRecord(z.string(), safeRecord(z.string(), z.unknown())),
  tags: z.array(z.object({ by: safeRecord(z.string(), z.number()) })),
  note: z.string().nullable().default(null),
  more: safeRecord(z.string(), z.number()).optional(),
});
const Settings = z.object({ mode: z.enum(['a', 'b']), limits: z.record(z.string(), z.object({ at: safeRecord(z.string(), z.boolean()) })) });
const Odd = z.object({ n: z.string().transform((s) => s.toUpperCase()) });

const thing = (name: string) => ({
  name,
  data: JSON.parse('{"__proto__":"own","constructor":1,"nested":{"deep":[1]}}') as Record<string, unknown>,
  options: { onoff: { title: 'On' }, toString: { x: 1 } },
  tags: [{ by: { a: 1 } }],
  note: null,
});

async function open(build: string | null, verify = true) {
  const store = await Store.open(dir, { build, verify });
  const things = store.records('things', Thing, BIG);
  const settings = store.section('settings', Settings, () => ({ mode: 'a' as const, limits: {} }), { bytes: BIG });
  const odd = store.section('odd', Odd, () => ({ n: 'x' }), { bytes: BIG });
  return { store, things, settings, odd };
}

/** A home written by build `b1` and stopped cleanly. */
async function written() {
  const s = await open('b1');
  await s.things.updateSome(['one', '__proto__'], (d) => {
    d.one = thing('one');
    d[PROTO] = thing('proto');
  });
  await s.settings.update((d) => {
    d.mode = 'b';
    d.limits.kitchen = { at: { night: true } };
  });
  await s.odd.update((d) => {
    d.n = 'y';
  });
  await s.store.close();
  return s;
}

describe('a section this build wrote', () => {
  it('opens unchecked as exactly what its parse makes: null-prototype maps where a safeRecord makes them', async () => {
    const before = await written();
    const after = await open('b1');
    expect(after.store.trustedAtOpen.sort()).toEqual(['settings', 'things']);
    // A transform: no shape stands for its parse, so it is always parsed.
    expect(shapeOf(Odd)).toBe(NO_SHAPE);
    expect(after.store.mistrusted).toEqual([]);
    expect(isDeepStrictEqual(after.things.value, before.things.value)).toBe(true);
    expect(isDeepStrictEqual(after.settings.value, before.settings.value)).toBe(true);
    const one = after.things.value.one!;
    expect(isNullRecord(after.things.value)).toBe(true);
    expect(isNullRecord(one.data)).toBe(true);
    expect(isNullRecord(one.options)).toBe(true);
    expect(isNullRecord(one.options.toString)).toBe(true);
    expect(isNullRecord(one.tags[0]!.by)).toBe(true);
    // What the schema leaves as given stays plain, as its parse leaves it.
    expect(Object.getPrototypeOf(one.data.nested)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(after.settings.value.limits)).toBe(Object.prototype);
    expect(isNullRecord(after.settings.value.limits.kitchen!.at)).toBe(true);
    // `__proto__` is an ordinary key, not the prototype.
    expect(after.things.value[PROTO]?.name).toBe('proto');
    expect(one.data[PROTO]).toBe('own');
    expect(after.odd.value).toEqual({ n: 'Y' });
  });

  it('is checked when db.json was changed since: a bad record is set aside as before', async () => {
    await written();
    const file = join(dir, 'db.json');
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.things.one.name = 42;
    await writeFile(file, JSON.stringify(doc));
    const after = await open('b1');
    expect(after.store.trustedAtOpen).toEqual([]);
    expect(Object.keys(after.things.value)).toEqual(['__proto__']);
    expect(after.store.setAside.map((a) => [a.section, a.records.map((r) => r.path.join('.'))])).toEqual([['things', ['one']]]);
  });

  it('is checked under another build, or with no build, or with no trust file', async () => {
    await written();
    expect((await open('b2')).store.trustedAtOpen).toEqual([]);
    await (await open('b1')).store.close();
    await rm(join(dir, TRUST_FILE));
    expect((await open('b1')).store.trustedAtOpen).toEqual([]);
    await (await open(null)).store.close();
    expect((await open('b1')).store.trustedAtOpen).toEqual([]);
  });

  it('is checked when a journal changed it after db.json (a stop that was not clean); the others are trusted', async () => {
    await written();
    const s = await open('b1');
    await s.settings.update((d) => {
      d.mode = 'a';
    });
    // Not closed: the change is in the journal only, as after a power cut.
    const after = await open('b1');
    expect(after.store.trustedAtOpen).toEqual(['things']);
    expect(after.settings.value.mode).toBe('a');
    // Checked at that start, and written whole at its stop: vouched for again.
    await after.store.close();
    expect((await open('b1')).store.trustedAtOpen.sort()).toEqual(['settings', 'things']);
  });

  it('keeps vouching for a trusted section nobody opened this time', async () => {
    await written();
    // A hub that opens only 'settings' still writes 'things' whole, vouched as before.
    const partial = await Store.open(dir, { build: 'b1', verify: true });
    partial.section('settings', Settings, () => ({ mode: 'a' as const, limits: {} }), { bytes: BIG });
    await partial.close();
    const trust = JSON.parse(await readFile(join(dir, TRUST_FILE), 'utf8'));
    expect(trust.sections).toEqual(['odd', 'settings', 'things']);
  });
});
