/**
 * Maps keyed by a caller's string inherit no key (a `__proto__` key is a key, `toString` is
 * absent), and cost what a plain object costs: a big home holds thousands of them (each device's
 * data, store, settings and options), and V8 makes an object with a null prototype a hash table
 * of its own, ~160 bytes even empty.
 */
import { getHeapStatistics } from 'node:v8';
import { describe, expect, test } from 'vitest';
import { collectOnce } from '../../src/core/heap-settle.js';
import { isNullRecord, nullProtoClone, nullRecord, toNullRecord } from '../../src/core/null-prototype.js';

/** Bytes the heap holds after a full collection. */
function heldBytes(): number {
  collectOnce();
  return getHeapStatistics().used_heap_size;
}

describe('a caller-keyed map', () => {
  test('holds every name as its own key and inherits none', () => {
    const map: Record<string, unknown> = toNullRecord<unknown>([
      ['__proto__', 1],
      ['constructor', 2],
    ]);
    const name: string = 'toString';
    map[name] = 3; // written, as a caller's key is
    expect(Object.keys(map)).toEqual(['__proto__', 'constructor', 'toString']);
    // biome-ignore lint/suspicious/noProto: the test is that __proto__ reads the key, not the prototype
    expect(map.__proto__).toBe(1);
    expect(isNullRecord(map)).toBe(true);
    const empty = nullRecord<unknown>();
    for (const inherited of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) expect(inherited in empty).toBe(false);
    expect(JSON.stringify(map)).toBe('{"__proto__":1,"constructor":2,"toString":3}');
    // Deep copies make such maps all the way down, arrays staying arrays.
    const copy = nullProtoClone({ a: { b: [{ c: 1 }] } });
    expect(isNullRecord(copy.a)).toBe(true);
    expect(Array.isArray(copy.a.b)).toBe(true);
    expect(isNullRecord(copy.a.b[0])).toBe(true);
    expect(isNullRecord({})).toBe(false);
    expect(isNullRecord(Object.create(null))).toBe(true);
  });

  test('costs about what a plain object costs, not a hash table each', () => {
    const kept: Record<string, unknown>[] = [];
    const before = heldBytes();
    for (let i = 0; i < 20_000; i++) {
      const map = nullRecord<unknown>();
      if (i % 2 === 0) map.dim = i; // half empty, half with one key, as a device's records are
      kept.push(map);
    }
    const each = (heldBytes() - before) / kept.length;
    // A plain object and its slot in the array: ~65-80 bytes; made with a null prototype, ~190.
    expect(each).toBeLessThan(120);
  });
});
