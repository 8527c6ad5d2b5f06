/** What the hub remembers of a stream stays bounded: the oldest dropped, what is used kept. */
import { describe, expect, test } from 'vitest';
import { KeptMap, KeptSet } from '../../src/core/kept.js';

describe('a kept map and set', () => {
  test('keep at most their bound, dropping the one set longest ago', () => {
    const map = new KeptMap<string, number>(3);
    for (let i = 0; i < 10; i++) map.set(`k${i}`, i);
    expect([...map]).toEqual([
      ['k7', 7],
      ['k8', 8],
      ['k9', 9],
    ]);
    const set = new KeptSet<number>(2);
    for (let i = 0; i < 5; i++) set.add(i);
    expect([...set]).toEqual([3, 4]);
  });

  test('a key set again is the newest, so what is used keeps its place', () => {
    const map = new KeptMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 3).set('c', 4);
    expect([...map]).toEqual([
      ['a', 3],
      ['c', 4],
    ]);
    const set = new KeptSet<string>(2);
    set.add('a').add('b').add('a').add('c');
    expect([...set]).toEqual(['a', 'c']);
    map.clear();
    expect(map.size).toBe(0);
  });
});
