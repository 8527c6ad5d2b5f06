/**
 * The store writes what changed: a write appends its changes to a journal beside db.json (one
 * record changed is one record on disk), db.json is written whole only when the journal outgrows
 * it and at a clean stop, and what is read back after any stop is every acknowledged write: a
 * cut-off entry is dropped (and kept aside), a journal db.json already holds changes nothing.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SCHEMA_VERSION } from '../../src/core/migrations.js';
import type { Store } from '../../src/core/store.js';
import { journalName, listJournals } from '../../src/core/store-journal.js';
import { openStore, readStoreDoc } from '../helpers/store-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-journal-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const BOUND = { section: 64 * 1024 * 1024, items: 'things', record: 1024 * 1024, item: 'a thing' };
const Thing = z.object({ name: z.string(), on: z.boolean() });
const Counter = z.object({ n: z.number().int() });

const journals = () => listJournals(dir, 'db.json');
const journalBytes = async () => {
  let bytes = 0;
  // A compaction may remove a journal between the listing and its stat: it holds nothing then.
  for (const n of await journals()) bytes += (await stat(join(dir, journalName('db.json', n))).catch(() => ({ size: 0 }))).size;
  return bytes;
};

/** A store with `count` records of about 100 bytes each, written whole (closed), and opened again. */
async function homeOf(count: number): Promise<Store> {
  const first = await openStore(dir);
  const things = first.records('things', Thing, BOUND);
  const ids = Array.from({ length: count }, (_, i) => `thing-${String(i).padStart(5, '0')}-${'x'.repeat(60)}`);
  await things.update((d) => {
    for (const id of ids) d[id] = { name: `Thing ${id}`, on: false };
  });
  await first.close();
  return openStore(dir);
}

describe('a write costs what it changed', () => {
  it('appends one changed record to the journal, and leaves db.json as it was, whatever the size of the home', async () => {
    const grown: number[] = [];
    for (const count of [10, 5000]) {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir);
      const store = await homeOf(count);
      const things = store.records('things', Thing, BOUND);
      const base = await readFile(join(dir, 'db.json'), 'utf8');
      const id = Object.keys(things.value)[3]!;
      const before = await journalBytes();
      await things.updateSome([id], (d) => void (d[id]!.on = true));
      grown.push((await journalBytes()) - before);
      // db.json is as it was: the change is in the journal only.
      expect(await readFile(join(dir, 'db.json'), 'utf8')).toBe(base);
      expect(((await readStoreDoc(dir)).things as Record<string, { on: boolean }>)[id]!.on).toBe(true);
    }
    // 10 records or 5,000 (half a megabyte): the same bytes written (the journal's first line aside).
    expect(grown[1]! - grown[0]!).toBe(0);
    expect(grown[1]).toBeLessThan(300);
  });

  it('a section changed whole is journalled whole; records not named are not written', async () => {
    const store = await homeOf(100);
    const counter = store.section('counter', Counter, () => ({ n: 0 }), { bytes: BOUND });
    await counter.update((c) => void (c.n = 7));
    const [n] = await journals();
    const text = await readFile(join(dir, journalName('db.json', n!)), 'utf8');
    expect(text).toContain('["S","counter",{"n":7}]');
    expect(text).not.toContain('thing-');
  });
});

describe('what readers see of a record section', () => {
  it('changes in place once the write is on disk, with a revision that moves then (what is derived from it is made again)', async () => {
    const store = await homeOf(3);
    const things = store.records('things', Thing, BOUND);
    const map = things.value;
    const [id] = Object.keys(map);
    const revision = things.revision;
    const write = things.updateSome([id!], (d) => void (d[id!]!.on = true));
    expect([things.value[id!]!.on, things.revision, things.next[id!]!.on]).toEqual([false, revision, true]);
    await write;
    expect([things.value[id!]!.on, things.revision, things.value === map]).toEqual([true, revision + 1, true]);
  });
});

describe('what is read back', () => {
  it('after a stop without close (a kill): every write, from db.json and the journal; the next open folds the journal into db.json', async () => {
    const store = await homeOf(5);
    const things = store.records('things', Thing, BOUND);
    const ids = Object.keys(things.value);
    await things.updateSome([ids[0]!], (d) => void (d[ids[0]!]!.name = 'renamed'));
    await things.updateSome([ids[1]!], (d) => void delete d[ids[1]!]);
    await things.updateSome(['new'], (d) => void (d.new = { name: 'New', on: true }));
    // No close: as after SIGKILL.
    const again = await openStore(dir);
    const read = again.records('things', Thing, BOUND).value;
    expect(read[ids[0]!]!.name).toBe('renamed');
    expect(Object.hasOwn(read, ids[1]!)).toBe(false);
    expect(read.new).toEqual({ name: 'New', on: true });
    expect(await journals()).toEqual([]);
    expect((JSON.parse(await readFile(join(dir, 'db.json'), 'utf8')) as { things: object }).things).toEqual({ ...read });
  });

  it('a clean close leaves db.json whole and no journal', async () => {
    const store = await homeOf(3);
    await store.section('counter', Counter, () => ({ n: 0 }), { bytes: BOUND }).update((c) => void (c.n = 3));
    expect((await journals()).length).toBe(1);
    await store.close();
    expect(await journals()).toEqual([]);
    expect((JSON.parse(await readFile(join(dir, 'db.json'), 'utf8')) as { counter: unknown }).counter).toEqual({ n: 3 });
  });

  it('a record named __proto__ is an ordinary record through the journal', async () => {
    const store = await openStore(dir);
    const things = store.records('things', Thing, BOUND);
    await things.updateSome(
      ['__proto__'],
      (d) => void Object.defineProperty(d, '__proto__', { value: { name: 'P', on: true }, enumerable: true, writable: true, configurable: true }),
    );
    const again = await openStore(dir);
    const read = again.records('things', Thing, BOUND).value;
    expect(Object.keys(read)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  it('drops an entry a power cut cut off, keeps a copy of the journal aside, and opens with every whole entry', async () => {
    const store = await openStore(dir);
    const counter = store.section('counter', Counter, () => ({ n: 0 }), { bytes: BOUND });
    await counter.update((c) => void (c.n = 1));
    await counter.update((c) => void (c.n = 2));
    const [n] = await journals();
    const file = join(dir, journalName('db.json', n!));
    // Half an entry: what a power cut in the middle of a write leaves.
    await writeFile(file, `${await readFile(file, 'utf8')}20 0000abcd\n["S","counter",{"n"`);
    const again = await openStore(dir);
    expect(again.section('counter', Counter, () => ({ n: 0 }), { bytes: BOUND }).value).toEqual({ n: 2 });
    expect(again.ignored).toEqual([
      { file: journalName('db.json', n!), bytes: 31, keptIn: expect.stringMatching(/^set-aside\/.+-db\.json\.journal\.\d+$/) as string },
    ]);
    expect(await readFile(join(dir, again.ignored[0]!.keptIn), 'utf8')).toContain('["S","counter",{"n"');
  });

  it('stops at an entry whose checksum does not hold (damage), keeping what comes after aside', async () => {
    const store = await openStore(dir);
    const counter = store.section('counter', Counter, () => ({ n: 0 }), { bytes: BOUND });
    for (const v of [1, 2, 3]) await counter.update((c) => void (c.n = v));
    const [n] = await journals();
    const file = join(dir, journalName('db.json', n!));
    await writeFile(file, (await readFile(file, 'utf8')).replace('{"n":2}', '{"n":9}'));
    const again = await openStore(dir);
    expect(again.section('counter', Counter, () => ({ n: 0 }), { bytes: BOUND }).value).toEqual({ n: 1 });
    expect(again.ignored).toHaveLength(1);
  });
});

describe('compaction', () => {
  it('writes db.json whole once the journal outgrows it, keeps the journal bounded, and loses nothing', async () => {
    const store = await openStore(dir);
    const things = store.records('things', z.object({ text: z.string() }), BOUND);
    const biggest: number[] = [];
    for (let i = 0; i < 600; i++) {
      const id = `t${i % 20}`;
      await things.updateSome([id], (d) => void (d[id] = { text: `${i}:${'y'.repeat(4000)}` }));
      biggest.push(await journalBytes());
    }
    await store.flush();
    // 600 writes of 4 KB (2.4 MB) went through; the journals never held more than twice 1 MiB
    // (the one being folded into db.json and the one after it), and db.json was written whole.
    expect(Math.max(...biggest)).toBeLessThan(2 * 1024 * 1024 + 8192);
    expect(Object.keys((JSON.parse(await readFile(join(dir, 'db.json'), 'utf8')) as { things?: object }).things ?? {})).toHaveLength(20);
    const doc = await readStoreDoc(dir);
    expect((doc.things as Record<string, { text: string }>).t19!.text.startsWith('599:')).toBe(true);
    expect(Object.keys(doc.things as object)).toHaveLength(20);
  });

  it('reads the same document whether a stop came before, during or after a compaction (replaying what db.json holds changes nothing)', async () => {
    const store = await homeOf(50);
    const things = store.records('things', Thing, BOUND);
    const ids = Object.keys(things.value);
    for (const [i, id] of ids.slice(0, 10).entries()) await things.updateSome([id], (d) => void (d[id]!.name = `n${i}`));
    await things.update((d) => {
      for (const id of ids.slice(10, 20)) delete d[id];
    });
    await things.updateSome([ids[25]!], (d) => void (d[ids[25]!]!.on = true));
    const [n] = await journals();
    const journal = join(dir, journalName('db.json', n!));
    const kept = join(dir, 'kept-journal');
    await copyFile(journal, kept);
    const expected = await readStoreDoc(dir);
    // A stop between writing db.json whole and removing the journal: both are there.
    await store.close();
    await copyFile(kept, journal);
    expect(await readStoreDoc(dir)).toEqual(expected);
    const again = await openStore(dir);
    expect({ ...again.records('things', Thing, BOUND).value }).toEqual(expected.things);
  });
});

describe('an older layout and migrations', () => {
  it("opens an older hub's db.json (no journal) as it is, and writes it whole only when it must", async () => {
    const old = { schemaVersion: SCHEMA_VERSION, things: { a: { name: 'A', on: true } } };
    await writeFile(join(dir, 'db.json'), JSON.stringify(old));
    const store = await openStore(dir);
    expect({ ...store.records('things', Thing, BOUND).value }).toEqual(old.things);
    expect(await readFile(join(dir, 'db.json'), 'utf8')).toBe(JSON.stringify(old));
    expect(await journals()).toEqual([]);
  });

  it('replays journals before migrating, and skips a journal a migration already folded into db.json', async () => {
    // An older hub stopped with a change in its journal.
    await writeFile(join(dir, 'db.json'), JSON.stringify({ schemaVersion: 1, things: {} }));
    const entry = JSON.stringify([['R', 'things', 'a', { name: 'A', on: true }]]);
    const { crc32 } = await import('node:zlib');
    const framed = (v: number) => `hearth-journal 1 ${v}\n${Buffer.byteLength(entry)} ${crc32(entry).toString(16).padStart(8, '0')}\n${entry}\n`;
    await writeFile(join(dir, journalName('db.json', 4)), framed(1));
    const store = await openStore(dir);
    expect(store.records('things', Thing, BOUND).value.a).toEqual({ name: 'A', on: true });
    // The copy kept before migrating holds the journal's change too.
    expect(JSON.parse(await readFile(join(dir, 'db.json.v1.bak'), 'utf8'))).toEqual({ schemaVersion: 1, things: { a: { name: 'A', on: true } } });
    expect(await journals()).toEqual([]);
    // A version-1 journal beside a version-2 db.json was folded in by the migration: not replayed.
    await writeFile(join(dir, 'db.json'), JSON.stringify({ schemaVersion: SCHEMA_VERSION, things: {} }));
    await writeFile(join(dir, journalName('db.json', 5)), framed(SCHEMA_VERSION - 1));
    expect((await readStoreDoc(dir)).things).toEqual({});
  });
});

describe('files', () => {
  it('leaves no temp file and at most one journal after writes', async () => {
    const store = await homeOf(20);
    const counter = store.section('counter', Counter, () => ({ n: 0 }), { bytes: BOUND });
    await Promise.all(Array.from({ length: 50 }, (_, i) => counter.update((c) => void (c.n = i))));
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect((await journals()).length).toBe(1);
  });
});
