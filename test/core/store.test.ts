/**
 * The store over real files: sections checked by schema, coalesced durable writes, migrations
 * that keep a copy, a schema newer than the hub refused, one writer per data dir.
 */
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acquireDataLock, DataDirLockedError } from '../../src/core/data-lock.js';
import { SCHEMA_VERSION } from '../../src/core/migrations.js';
import { isNullRecord } from '../../src/core/null-prototype.js';
import { StoreSectionError } from '../../src/core/store.js';
import { holdDataLock } from '../helpers/lock.js';
import { blockStoreWrites, openStore, readStoreDoc } from '../helpers/store-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-store-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Bounds far from what these tests store, and a record bound the bound tests meet. */
const BIG = { section: 64 * 1024 * 1024, items: 'things' };
const REC = { ...BIG, record: 1024 * 1024, item: 'a thing' };

const Counter = z.object({ n: z.number().int(), items: z.array(z.string()) });
/** The document as the next open reads it: db.json and the journal of what changed since. */
const readDoc = (): Promise<Record<string, unknown>> => readStoreDoc(dir);

describe('Store', () => {
  it('writes the real file (not an in-memory adapter under NODE_ENV=test)', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const store = await openStore(dir);
    const counter = store.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG });
    await counter.update((c) => {
      c.n = 5;
    });
    expect(await readDoc()).toEqual({ schemaVersion: SCHEMA_VERSION, counter: { n: 5, items: [] } });
  });

  it('resolves every concurrent update only once its change is on disk', async () => {
    const store = await openStore(dir);
    const counter = store.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG });
    const updates = Array.from({ length: 200 }, (_, i) =>
      counter
        .update((c) => {
          c.items.push(`item${i}`);
        })
        .then(async () => ((await readDoc()).counter as { items: string[] }).items.includes(`item${i}`)),
    );
    const onDisk = await Promise.all(updates);
    expect(onDisk.every(Boolean)).toBe(true);
    expect(((await readDoc()).counter as { items: string[] }).items).toHaveLength(200);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('reopens what it wrote', async () => {
    const first = await openStore(dir);
    await first.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG }).update((c) => void (c.n = 42));
    const second = await openStore(dir);
    expect(second.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG }).value.n).toBe(42);
  });

  it('refuses a section that does not match its schema, naming it and the field', async () => {
    await writeFile(join(dir, 'db.json'), JSON.stringify({ schemaVersion: SCHEMA_VERSION, counter: { n: 'five', items: [] } }));
    const store = await openStore(dir);
    expect(() => store.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG })).toThrow(StoreSectionError);
    expect(() => store.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG })).toThrow(/section 'counter'.*n:/);
  });

  it('refuses a document from a newer hub', async () => {
    await writeFile(join(dir, 'db.json'), JSON.stringify({ schemaVersion: SCHEMA_VERSION + 1 }));
    await expect(openStore(dir)).rejects.toThrow(/newer than this hub understands/);
  });

  it('migrates an unversioned document, keeping a copy of it first', async () => {
    const old = JSON.stringify({ counter: { n: 1, items: ['a'] } });
    await writeFile(join(dir, 'db.json'), old);
    const store = await openStore(dir);
    expect((await readDoc()).schemaVersion).toBe(SCHEMA_VERSION);
    expect(await readFile(join(dir, 'db.json.v0.bak'), 'utf8')).toBe(old);
    expect(store.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG }).value).toEqual({ n: 1, items: ['a'] });
  });

  it("moves a version 1 document's widget store owners to Homey's form (homey:app:<id>)", async () => {
    const old = {
      schemaVersion: 1,
      dashboards: {
        dashboards: {},
        widgetStores: { w1: { id: 'w1', ownerUri: 'hearth:app:com.example.x', state: { a: 1 } }, w2: { id: 'w2', ownerUri: 'homey:app:y', state: {} } },
      },
    };
    await writeFile(join(dir, 'db.json'), JSON.stringify(old));
    await openStore(dir);
    const doc = (await readDoc()) as unknown as typeof old;
    expect(doc.schemaVersion).toBe(SCHEMA_VERSION);
    expect(doc.dashboards.widgetStores).toEqual({
      w1: { id: 'w1', ownerUri: 'homey:app:com.example.x', state: { a: 1 } },
      w2: { id: 'w2', ownerUri: 'homey:app:y', state: {} },
    });
    expect(JSON.parse(await readFile(join(dir, 'db.json.v1.bak'), 'utf8'))).toEqual(old);
  });

  it('gives a snapshot of what is on disk: a change is in it once its write is', async () => {
    const store = await openStore(dir);
    const counter = store.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG });
    const pending = counter.update((c) => void (c.n = 9));
    expect(JSON.parse(store.snapshot().toString())).toEqual({ schemaVersion: SCHEMA_VERSION, counter: { n: 0, items: [] } });
    await pending;
    expect(JSON.parse(store.snapshot().toString())).toEqual({ schemaVersion: SCHEMA_VERSION, counter: { n: 9, items: [] } });
  });
});

describe('readers see only durable state', () => {
  it('shows a change to readers only once its write is on disk, while queued changes build on each other', async () => {
    const store = await openStore(dir);
    const counter = store.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG });
    const first = counter.update((c) => void c.items.push('a'));
    const second = counter.update((c) => void c.items.push('b')); // queued: sees 'a' already
    expect(counter.value).toEqual({ n: 0, items: [] });
    await first;
    expect(counter.value.items).toContain('a');
    await second;
    expect(counter.value).toEqual({ n: 0, items: ['a', 'b'] });
  });

  it('a change whose write fails is never seen by a reader or a backup snapshot', async () => {
    const store = await openStore(dir);
    const counter = store.section('counter', Counter, () => ({ n: 1, items: [] }), { bytes: BIG });
    await counter.update((c) => void (c.n = 1));
    await blockStoreWrites(dir);
    const failing = counter.update((c) => void (c.n = 666));
    const seen = [counter.value.n, JSON.parse(store.snapshot().toString()).counter.n as number];
    await expect(failing).rejects.toThrow();
    seen.push(counter.value.n);
    expect(seen).toEqual([1, 1, 1]);
  });

  it("a mutate that throws halfway changes nothing, and other callers' queued changes still land", async () => {
    const store = await openStore(dir);
    const counter = store.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG });
    const before = counter.update((c) => void c.items.push('before'));
    const broken = counter.update((c) => {
      c.n = 42;
      c.items.push('half');
      throw new Error('mutate failed halfway');
    });
    const after = counter.update((c) => void c.items.push('after'));
    await expect(broken).rejects.toThrow('mutate failed halfway');
    await before;
    await after;
    expect(counter.value).toEqual({ n: 0, items: ['before', 'after'] });
    expect(await readDoc()).toEqual({ schemaVersion: SCHEMA_VERSION, counter: { n: 0, items: ['before', 'after'] } });
  });

  it('copies keep caller-keyed records free of a prototype (a __proto__ key stays a key)', async () => {
    const { safeRecord } = await import('../../src/core/null-prototype.js');
    const store = await openStore(dir);
    const map = store.section('map', safeRecord(z.string(), z.number()), () => ({}), { bytes: BIG });
    // biome-ignore lint/suspicious/noProto: the test is that writing __proto__ changes no prototype
    await map.update((m) => void (m.__proto__ = 1));
    await map.update((m) => void (m.other = 2));
    expect(isNullRecord(map.value)).toBe(true);
    expect(Object.keys(map.value).sort()).toEqual(['__proto__', 'other']);
    expect(({} as Record<string, unknown>).other).toBeUndefined();
  });
});

describe('record sections (a change copies only the records it names)', () => {
  const Device = z.object({ name: z.string(), on: z.boolean() });

  it('adds, changes and deletes the records named, leaves the others the very same objects, and keeps it all on disk', async () => {
    const store = await openStore(dir);
    const devices = store.records('devices', Device, REC);
    await devices.updateSome(['a', 'b'], (d) => {
      d.a = { name: 'A', on: false };
      d.b = { name: 'B', on: false };
    });
    const b = devices.value.b;
    await devices.updateSome(['a'], (d) => void (d.a!.on = true));
    expect(devices.value.b).toBe(b); // not copied
    await devices.updateSome(['b', 'c'], (d) => {
      expect(Object.keys(d)).toEqual(['b']); // a named record that does not exist is absent
      delete d.b;
    });
    expect(devices.value).toEqual({ a: { name: 'A', on: true } });
    expect(isNullRecord(devices.value)).toBe(true);
    expect((await readDoc()).devices).toEqual({ a: { name: 'A', on: true } });
    const again = (await openStore(dir)).records('devices', Device, REC);
    expect(again.value.a).toEqual({ name: 'A', on: true });
  });

  it('refuses a change to a record it did not name, and a mutate that throws changes nothing', async () => {
    const store = await openStore(dir);
    const devices = store.records('devices', Device, REC);
    await devices.updateSome(['a'], (d) => void (d.a = { name: 'A', on: false }));
    await expect(devices.updateSome(['a'], (d) => void (d.sneaky = { name: 'S', on: true }))).rejects.toThrow(/named a but changed sneaky/);
    await expect(
      devices.updateSome(['a'], (d) => {
        d.a!.on = true;
        throw new Error('halfway');
      }),
    ).rejects.toThrow('halfway');
    expect(devices.value).toEqual({ a: { name: 'A', on: false } });
    // The draft was a copy: what readers saw was never touched.
    expect((await readDoc()).devices).toEqual({ a: { name: 'A', on: false } });
  });

  it('builds on queued changes, whole-section and per-record alike', async () => {
    const store = await openStore(dir);
    const devices = store.records('devices', Device, REC);
    const writes = [
      devices.update((d) => void (d.a = { name: 'A', on: false })),
      devices.updateSome(['a'], (d) => void (d.a!.on = true)),
      devices.updateSome(['b'], (d) => void (d.b = { name: 'B', on: true })),
      devices.update((d) => void (d.a!.name = 'A2')),
    ];
    await Promise.all(writes);
    expect(devices.value).toEqual({ a: { name: 'A2', on: true }, b: { name: 'B', on: true } });
  });
});

describe('a write that fails', () => {
  let unblockWrites: () => Promise<void>;
  const blockWrites = async () => {
    unblockWrites = await blockStoreWrites(dir);
  };

  it('rejects, takes its change out of memory, and leaves the file as it was', async () => {
    const store = await openStore(dir);
    const counter = store.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG });
    await counter.update((c) => void (c.n = 1));
    await blockWrites();
    await expect(counter.update((c) => void c.items.push('lost'))).rejects.toThrow();
    expect(counter.value).toEqual({ n: 1, items: [] });
    await unblockWrites();
    expect(await readDoc()).toEqual({ schemaVersion: SCHEMA_VERSION, counter: { n: 1, items: [] } });
    await counter.update((c) => void c.items.push('kept'));
    expect(counter.value).toEqual({ n: 1, items: ['kept'] });
    expect(await readDoc()).toEqual({ schemaVersion: SCHEMA_VERSION, counter: { n: 1, items: ['kept'] } });
  });

  it('fails the callers queued behind it too, whose changes it also took out, and the next write starts afresh', async () => {
    const store = await openStore(dir);
    const counter = store.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG });
    const other = store.section('other', z.object({ on: z.boolean() }), () => ({ on: false }), { bytes: BIG });
    await blockWrites();
    const first = counter.update((c) => void (c.n = 5)); // starts the write that fails
    const queued = other.update((o) => void (o.on = true)); // waits for the next write
    await expect(first).rejects.toThrow();
    await expect(queued).rejects.toThrow();
    expect([counter.value, other.value]).toEqual([{ n: 0, items: [] }, { on: false }]);
    await unblockWrites();
    await other.update((o) => void (o.on = true));
    const reopened = await openStore(dir);
    expect(reopened.section('other', z.object({ on: z.boolean() }), () => ({ on: false }), { bytes: BIG }).value).toEqual({ on: true });
    expect(reopened.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: BIG }).value).toEqual({ n: 0, items: [] });
  });
});

describe('data dir lock', () => {
  it('admits one holder at a time, and is free again once released', async () => {
    const release = await acquireDataLock(dir);
    await expect(acquireDataLock(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    await release();
    const again = await acquireDataLock(dir);
    await again();
  });

  it('is not fooled by a lock file naming a live process that is not a hub (pid reuse after a power cut)', async () => {
    await writeFile(join(dir, 'hearth.lock'), String(process.ppid)); // alive, and not holding the lock
    const release = await acquireDataLock(dir);
    expect((await readFile(join(dir, 'hearth.lock'), 'utf8')).trim()).toBe(String(process.pid));
    await release();
  });

  it('stays with the place, not the folder: a data dir swapped for a new one (a restore) is still locked', async () => {
    const data = join(dir, 'data');
    await mkdir(data);
    const release = await acquireDataLock(data);
    await rename(data, join(dir, 'data.pre-restore'));
    await mkdir(data);
    await expect(acquireDataLock(data)).rejects.toBeInstanceOf(DataDirLockedError);
    // Another folder of the same name elsewhere is another lock.
    await mkdir(join(dir, 'elsewhere', 'data'), { recursive: true });
    const other = await acquireDataLock(join(dir, 'elsewhere', 'data'));
    await other();
    await release();
  });

  it('is free the moment its holder dies, however it dies (SIGKILL)', async () => {
    const holder = await holdDataLock(dir);
    await expect(acquireDataLock(dir)).rejects.toThrow(`data dir ${dir} is in use by another hearth process (pid ${holder.pid}); stop it first`);
    await holder.kill();
    const release = await acquireDataLock(dir);
    await release();
  });
});

describe('every write is checked against its schema; a record that does not parse is set aside at open', () => {
  const Variable = z.object({ name: z.string(), value: z.string().max(10) });
  const Doc = z.object({ title: z.string().max(10), pages: z.record(z.string(), z.object({ text: z.string() })) });

  it('refuses a write that does not fit, with a 400 sentence, and changes nothing in memory or on disk', async () => {
    const store = await openStore(dir);
    const vars = store.records('vars', Variable, REC);
    await vars.updateSome(['a'], (d) => void (d.a = { name: 'A', value: 'short' }));
    const refused = vars.updateSome(['a'], (d) => void (d.a = { name: 'A', value: 'x'.repeat(20) }));
    await expect(refused).rejects.toMatchObject({
      status: 400,
      message: "the change was not made: what 'vars' record 'a' would hold does not fit: value: Too big: expected string to have <=10 characters",
    });
    const doc = store.section('doc', Doc, () => ({ title: 'ok', pages: {} }), { bytes: BIG });
    await expect(doc.update((d) => void (d.title = 'far too long a title'))).rejects.toMatchObject({ status: 400 });
    expect(vars.value.a).toEqual({ name: 'A', value: 'short' });
    expect(doc.value.title).toBe('ok');
    expect((await readDoc()).vars).toEqual({ a: { name: 'A', value: 'short' } });
    // The section still takes good writes, and opens again.
    await vars.updateSome(['a'], (d) => void delete d.a);
    expect((await openStore(dir)).records('vars', Variable, REC).value).toEqual({});
  });

  it('sets a bad record aside in a file of its own, opens the section with the others, and writes it without', async () => {
    await writeFile(
      join(dir, 'db.json'),
      JSON.stringify({
        schemaVersion: SCHEMA_VERSION,
        vars: { good: { name: 'G', value: 'fine' }, bad: { name: 'B', value: 'x'.repeat(20) }, worse: 7 },
        doc: { title: 'ok', pages: { one: { text: 'a' }, two: { text: 2 } } },
      }),
    );
    const store = await openStore(dir);
    const vars = store.records('vars', Variable, REC);
    expect(vars.value).toEqual({ good: { name: 'G', value: 'fine' } });
    const doc = store.section('doc', Doc, () => ({ title: '', pages: {} }), { bytes: BIG, records: [['pages', '*']] });
    expect(doc.value.pages).toEqual({ one: { text: 'a' } });
    expect(store.setAside.map((a) => [a.section, a.records.map((r) => r.path.join('.'))])).toEqual([
      ['vars', ['bad', 'worse']],
      ['doc', ['pages.two']],
    ]);
    const kept = JSON.parse(await readFile(join(dir, store.setAside[0]!.file), 'utf8')) as {
      section: string;
      records: Array<{ path: string[]; reason: string; value: unknown }>;
    };
    expect(kept.section).toBe('vars');
    expect(kept.records[0]).toEqual({
      path: ['bad'],
      reason: 'bad.value: Too big: expected string to have <=10 characters',
      value: { name: 'B', value: 'x'.repeat(20) },
    });
    expect(kept.records[1]!.value).toBe(7);
    await store.flush();
    // What readers see after that write is still the section without them.
    expect(vars.value).toEqual({ good: { name: 'G', value: 'fine' } });
    expect((await readDoc()).vars).toEqual({ good: { name: 'G', value: 'fine' } });
    const again = await openStore(dir);
    again.records('vars', Variable, REC);
    again.section('doc', Doc, () => ({ title: '', pages: {} }), { bytes: BIG, records: [['pages', '*']] });
    expect(again.setAside).toEqual([]);
    expect((await readdir(join(dir, 'set-aside'))).length).toBe(2);
  });

  it('does not set aside what is not a record: a section of the wrong shape is refused, and the file is left as it was', async () => {
    const text = JSON.stringify({ schemaVersion: SCHEMA_VERSION, doc: { title: 'far too long a title', pages: {} }, vars: ['not', 'a', 'map'] });
    await writeFile(join(dir, 'db.json'), text);
    const store = await openStore(dir);
    expect(() => store.section('doc', Doc, () => ({ title: '', pages: {} }), { bytes: BIG, records: [['pages', '*']] })).toThrow(/section 'doc'.*title/);
    expect(() => store.records('vars', Variable, REC)).toThrow(/section 'vars'/);
    expect(store.setAside).toEqual([]);
    expect(await readFile(join(dir, 'db.json'), 'utf8')).toBe(text);
  });
});

describe('every section is bounded in bytes', () => {
  const Note = z.object({ text: z.string() });
  const SMALL = { record: 1024, item: 'a note', section: 4096, items: 'notes' };

  it('refuses a record past its bound and a change past the section bound with a 413 sentence, changing nothing', async () => {
    const store = await openStore(dir);
    const notes = store.records('notes', Note, SMALL);
    await expect(notes.updateSome(['big'], (d) => void (d.big = { text: 'x'.repeat(2000) }))).rejects.toMatchObject({
      status: 413,
      message: 'not stored: a note holds at most 1 KiB, and this one would hold 2 KiB',
    });
    for (let i = 0; i < 4; i++) await notes.updateSome([`n${i}`], (d) => void (d[`n${i}`] = { text: 'y'.repeat(900) }));
    await expect(notes.updateSome(['n4'], (d) => void (d.n4 = { text: 'y'.repeat(900) }))).rejects.toMatchObject({
      status: 413,
      message: "not stored: the home's notes hold at most 4 KiB in all, and this change would make them 5 KiB; remove some first",
    });
    expect(Object.keys(notes.value)).toEqual(['n0', 'n1', 'n2', 'n3']);
    expect(Object.keys((await readDoc()).notes as object)).toEqual(['n0', 'n1', 'n2', 'n3']);
    // A change that makes the section smaller always goes through.
    await notes.updateSome(['n0'], (d) => void (d.n0 = { text: 'short' }));
    await notes.updateSome(['n1'], (d) => void delete d.n1);
    expect(Object.keys(notes.value)).toEqual(['n0', 'n2', 'n3']);
  });

  it('bounds a whole section too, and lets a section already past its bound (an older hub) shrink', async () => {
    await writeFile(join(dir, 'db.json'), JSON.stringify({ schemaVersion: SCHEMA_VERSION, counter: { n: 0, items: Array(300).fill('item') } }));
    const store = await openStore(dir);
    const counter = store.section('counter', Counter, () => ({ n: 0, items: [] }), { bytes: { section: 1024, items: 'counters' } });
    await expect(counter.update((c) => void c.items.push('more'))).rejects.toMatchObject({ status: 413 });
    await counter.update((c) => void c.items.splice(0, 100));
    expect(counter.value.items).toHaveLength(200);
  });
});
