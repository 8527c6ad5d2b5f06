/**
 * db.json written whole in pieces (json-pieces.ts, writePiecesDurable): the file is the text
 * JSON.stringify makes of the document, and writing a big home's document leaves no string of
 * its size behind (V8 keeps large strings until a full collection: measured, 2.7 MiB of a big
 * home's hub at rest, the text and the Buffer made to write it).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapSpaceStatistics } from 'node:v8';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writePiecesDurable } from '../../src/core/durable-file.js';
import { jsonBytes, jsonPieces } from '../../src/core/json-pieces.js';
import { nullRecord } from '../../src/core/null-prototype.js';
import { DB_FILE } from '../../src/core/store.js';
import { openStore } from '../helpers/store-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-json-pieces-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A key, not the prototype, in a null-prototype map. */
const PROTO = '__proto__';

const joined = (doc: object): string => {
  const pieces: string[] = [];
  jsonPieces(doc, (p) => pieces.push(p));
  return pieces.join('');
};

describe('jsonPieces', () => {
  it('makes the text JSON.stringify makes, whatever the sections hold', () => {
    const records = nullRecord<unknown>();
    records[PROTO] = { name: 'a key, not the prototype' };
    records['7'] = { name: 'an index-like key, first in order' };
    records.gone = undefined;
    records.fn = () => 1;
    records.text = 'a "quoted" \u2028 line, a lone \ud800 surrogate, 😀';
    const docs: object[] = [
      {},
      { schemaVersion: 3 },
      { schemaVersion: 3, empty: {}, none: nullRecord(), list: [1, { a: undefined }, undefined], nothing: null },
      { schemaVersion: 3, records, later: { 2: 'b', 1: 'a', z: [{ deep: { deeper: [null] } }] } },
      { when: new Date(0), boxed: Object(5), map: new Map([['a', 1]]), own: { toJSON: () => 'said' }, skipped: undefined, sym: Symbol('s') },
      { skipped: undefined, fn: () => 1, kept: true },
    ];
    for (const doc of docs) {
      expect(joined(doc)).toBe(JSON.stringify(doc));
      expect(jsonBytes(doc).equals(Buffer.from(JSON.stringify(doc), 'utf8'))).toBe(true);
    }
  });

  it('refuses to copy as bytes a document that answers differently each time it is walked', () => {
    let calls = 0;
    const grows = { toJSON: () => 'x'.repeat(++calls * 10) };
    expect(() => jsonBytes({ grows })).toThrow(/changed while it was copied/);
    calls = 10;
    const shrinks = { toJSON: () => 'x'.repeat(--calls * 10) };
    expect(() => jsonBytes({ shrinks })).toThrow(/changed while it was copied/);
  });

  it('hands over no piece larger than one entry of a section', () => {
    const section = nullRecord<unknown>();
    for (let i = 0; i < 1000; i++) section[`d${i}`] = { name: `device ${i}`, values: { dim: i / 1000 } };
    let largest = 0;
    jsonPieces({ schemaVersion: 1, devices: section }, (p) => {
      largest = Math.max(largest, p.length);
    });
    expect(largest).toBeLessThan(JSON.stringify(section.d999).length + 10);
  });
});

describe('writePiecesDurable', () => {
  it('writes what the pieces say, and nothing when they throw', async () => {
    const file = join(dir, 'out.json');
    const doc = { schemaVersion: 1, things: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`t${i}`, { n: i, s: 'é'.repeat(i % 40) }])) };
    await writePiecesDurable(file, (put) => jsonPieces(doc, put));
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(doc));
    await expect(
      writePiecesDurable(file, (put) => {
        put('{"half":');
        throw new Error('the document could not be written');
      }),
    ).rejects.toThrow('could not be written');
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(doc));
  });
});

describe("the store's whole write", () => {
  it('leaves no string of the whole document in the large-object space', async () => {
    const store = await openStore(dir);
    const things = store.records('things', z.object({ name: z.string() }), { section: 64 << 20, items: 'things', record: 1 << 20, item: 'a thing' });
    // ~4 MiB of records, journaled: a clean stop writes them whole into db.json.
    await things.update((d) => {
      for (let i = 0; i < 4000; i++) d[`thing-${i}`] = { name: `${i}`.padEnd(1000, 'x') };
    });
    const large = () => getHeapSpaceStatistics().find((s) => s.space_name === 'large_object_space')!.space_used_size;
    const before = large();
    await store.close();
    // JSON.stringify of the document put >= 4 MiB there (a collection in between can only lower it).
    expect(large() - before).toBeLessThan(1 << 20);
    const text = await readFile(join(dir, DB_FILE), 'utf8');
    expect(text.length).toBeGreaterThan(4_000_000);
    expect(Object.keys((JSON.parse(text) as { things: object }).things)).toHaveLength(4000);
  });
});

describe("the store's snapshot (a backup's copy)", () => {
  it('is the JSON of the document as bytes, with no string of the whole in the large-object space', async () => {
    const store = await openStore(dir);
    const things = store.records('things', z.object({ name: z.string() }), { section: 64 << 20, items: 'things', record: 1 << 20, item: 'a thing' });
    await things.update((d) => {
      for (let i = 0; i < 4000; i++) d[`thing-${i}`] = { name: `${i} ünïcode`.padEnd(1000, 'x') };
    });
    const large = () => getHeapSpaceStatistics().find((s) => s.space_name === 'large_object_space')!.space_used_size;
    const before = large();
    const bytes = store.snapshot();
    // JSON.stringify of the document put >= 4 MiB there (a collection in between can only lower it).
    expect(large() - before).toBeLessThan(1 << 20);
    expect(bytes.length).toBeGreaterThan(4_000_000);
    const doc = JSON.parse(bytes.toString('utf8')) as { things: Record<string, { name: string }> };
    expect(Object.keys(doc.things)).toHaveLength(4000);
    expect(doc.things['thing-7']!.name.startsWith('7 ünïcode')).toBe(true);
  });
});
