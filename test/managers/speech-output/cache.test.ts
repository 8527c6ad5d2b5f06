/**
 * The on-disk speech cache: hits, least-recently-used eviction by total size, the index rebuilt
 * from the folder after a restart, and temp files of a crashed write cleaned up.
 */
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheKey, SpeechCache } from '../../../src/managers/speech-output/cache.js';
import { tempDir } from './tools.js';

const bytes = (n: number, fill: number): Uint8Array => new Uint8Array(n).fill(fill);
const key = (text: string): string => cacheKey({ engine: 'espeak-ng', voice: 'en-gb', speed: 1, text });

describe('SpeechCache', () => {
  it('keys on engine, voice, speed and text', () => {
    const base = { engine: 'espeak-ng', voice: 'en-gb', speed: 1, text: 'hi' };
    const keys = new Set([
      cacheKey(base),
      cacheKey({ ...base, engine: 'say' }),
      cacheKey({ ...base, voice: 'nl' }),
      cacheKey({ ...base, speed: 1.5 }),
      cacheKey({ ...base, text: 'hi!' }),
    ]);
    expect(keys.size).toBe(5);
    expect(cacheKey(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers a stored entry and misses an unknown one', async () => {
    const cache = new SpeechCache(await tempDir('cache'), 1000);
    await cache.open();
    await cache.put(key('a'), bytes(100, 1));
    expect(Buffer.from((await cache.get(key('a')))!)).toEqual(Buffer.from(bytes(100, 1)));
    expect(await cache.get(key('b'))).toBeNull();
  });

  it('evicts the least recently used entries when over its size bound', async () => {
    const dir = await tempDir('cache');
    const cache = new SpeechCache(dir, 1000);
    await cache.open();
    await cache.put(key('a'), bytes(250, 1));
    await cache.put(key('b'), bytes(250, 2));
    await cache.put(key('c'), bytes(250, 3));
    await cache.get(key('a')); // a is now more recent than b
    await cache.put(key('d'), bytes(250, 4));
    await cache.put(key('e'), bytes(250, 5));
    expect(cache.size).toEqual({ entries: 4, bytes: 1000 });
    expect(await cache.get(key('b'))).toBeNull();
    expect(await cache.get(key('a'))).not.toBeNull();
    expect((await readdir(dir)).sort()).toEqual([key('a'), key('c'), key('d'), key('e')].map((k) => `${k}.wav`).sort());
  });

  it('does not store entries over a quarter of its bound', async () => {
    const cache = new SpeechCache(await tempDir('cache'), 1000);
    await cache.open();
    await cache.put(key('big'), bytes(251, 1));
    expect(cache.size.entries).toBe(0);
  });

  it('rebuilds its index from the folder, oldest first, and removes crash leftovers', async () => {
    const dir = await tempDir('cache');
    await writeFile(join(dir, `${key('old')}.wav`), bytes(400, 1));
    await writeFile(join(dir, `${key('new')}.wav`), bytes(400, 2));
    await utimes(join(dir, `${key('old')}.wav`), new Date(1000), new Date(1000));
    await writeFile(join(dir, `.${key('half')}.123.0.tmp`), bytes(10, 0));
    const cache = new SpeechCache(dir, 1000);
    await cache.open();
    expect(cache.size).toEqual({ entries: 2, bytes: 800 });
    expect((await readdir(dir)).some((n) => n.endsWith('.tmp'))).toBe(false);
    await cache.put(key('third'), bytes(250, 3));
    // Over the bound: the entry with the oldest mtime goes first.
    expect(await cache.get(key('old'))).toBeNull();
    expect(Buffer.from((await cache.get(key('new')))!)).toEqual(Buffer.from(bytes(400, 2)));
  });
});
