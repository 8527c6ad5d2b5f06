// A store record's hand check (core/schema-shortcut.ts) vouches only for what its schema makes
// into the very same thing, and a record it vouches for is stored as it is, not copied.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nullRecord } from '../../src/core/null-prototype.js';
import { takenAsIs } from '../../src/core/schema-shortcut.js';
import { DeviceValues, isDeviceValues } from '../../src/managers/devices/device-record.js';
import { openStore } from '../helpers/store-files.js';

const at = '2026-11-30T01:00:00.000Z';
const values = (entries: Record<string, unknown>): Record<string, unknown> => Object.assign(nullRecord(), entries);

/** Every object of `v`, depth first, as its kind: 'null' (a null-prototype map), 'plain', or another. */
function kinds(v: unknown, out: string[] = []): string[] {
  if (typeof v !== 'object' || v === null) return out;
  const proto: unknown = Object.getPrototypeOf(v);
  out.push(proto === Object.prototype ? 'plain' : Object.getPrototypeOf(proto ?? {}) === null || proto === null ? 'null' : 'other');
  for (const x of Object.values(v)) kinds(x, out);
  return out;
}

const CASES: Array<[string, unknown]> = [
  ['empty', values({})],
  [
    'each kind of value',
    values({
      onoff: { value: true, lastUpdated: at },
      dim: { value: 0.5, lastUpdated: at },
      mode: { value: 'eco', lastUpdated: null },
      x: { value: null, lastUpdated: null },
    }),
  ],
  ['a __proto__ capability', values({ ['__proto__']: { value: 1, lastUpdated: at } })],
  ['zero and a negative zero', values({ a: { value: 0, lastUpdated: at }, b: { value: -0, lastUpdated: at } })],
  ['NaN', values({ a: { value: Number.NaN, lastUpdated: at } })],
  ['Infinity', values({ a: { value: Number.POSITIVE_INFINITY, lastUpdated: at } })],
  ['an object as a value', values({ a: { value: { x: 1 }, lastUpdated: at } })],
  ['a number as a time', values({ a: { value: 1, lastUpdated: 5 } })],
  ['a missing time', values({ a: { value: 1 } })],
  ['an extra key', values({ a: { value: 1, lastUpdated: at, extra: 2 } })],
  ['the keys the other way round', values({ a: { lastUpdated: at, value: 1 } })],
  ['a null-prototype value', values({ a: Object.assign(nullRecord(), { value: 1, lastUpdated: at }) })],
  ['a plain map', { a: { value: 1, lastUpdated: at } }],
  ['an array', [{ value: 1, lastUpdated: at }]],
  ['null', null],
  ['a symbol key', Object.assign(values({}), { [Symbol('s')]: 1 })],
  [
    'a class instance as a value',
    values({
      a: new (class V {
        value = 1;
        lastUpdated = at;
      })(),
    }),
  ],
  ['a hidden field in a value', values({ a: Object.defineProperty({ value: 1, lastUpdated: at }, 'hidden', { value: 2, enumerable: false }) })],
  ['a hidden capability', Object.defineProperty(values({}), 'a', { value: { value: 1, lastUpdated: at }, enumerable: false })],
];

describe('DeviceValues shortcut', () => {
  it.each(CASES)('vouches only for what the schema makes the same JSON of the same kinds of object: %s', (_name, v) => {
    const parsed = DeviceValues.safeParse(v);
    if (isDeviceValues(v)) {
      expect(parsed.success).toBe(true);
      expect(JSON.stringify(parsed.data)).toBe(JSON.stringify(v));
      expect(kinds(v)).toEqual(kinds(parsed.data));
    }
  });

  it('vouches for the values a flush writes, and refuses what the schema refuses or changes', () => {
    const vouched = CASES.filter(([, v]) => isDeviceValues(v)).map(([n]) => n);
    expect(vouched).toEqual(['empty', 'each kind of value', 'a __proto__ capability', 'zero and a negative zero']);
    expect(takenAsIs(DeviceValues, CASES[1]![1])).toBe(true);
  });
});

describe('a record section whose schema has a shortcut', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-shortcut-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const BOUND = { record: 64 * 1024, item: 'values', section: 1024 * 1024, items: 'values' };

  it('stores a record it vouches for as it is, and puts the rest through the schema', async () => {
    const store = await openStore(dir);
    const section = store.records('device-values', DeviceValues, BOUND);
    const lamp = values({ dim: { value: 0.5, lastUpdated: at } });
    await section.updateSome(['lamp'], (d) => void (d.lamp = lamp as never));
    expect(section.value.lamp).toBe(lamp);
    // An extra key: the schema's copy, without it.
    await section.updateSome(['lamp'], (d) => void (d.lamp = values({ dim: { value: 0.6, lastUpdated: at, extra: 1 } }) as never));
    expect(section.value.lamp).toEqual(values({ dim: { value: 0.6, lastUpdated: at } }));
    // NaN: refused with a 400 sentence, nothing changed.
    await expect(section.updateSome(['lamp'], (d) => void (d.lamp = values({ dim: { value: Number.NaN, lastUpdated: at } }) as never))).rejects.toThrow(
      /does not fit/,
    );
    expect(section.value.lamp).toEqual(values({ dim: { value: 0.6, lastUpdated: at } }));
    await store.close();
    const again = (await openStore(dir)).records('device-values', DeviceValues, BOUND);
    expect(JSON.stringify(again.value)).toBe(JSON.stringify({ lamp: { dim: { value: 0.6, lastUpdated: at } } }));
  });
});
