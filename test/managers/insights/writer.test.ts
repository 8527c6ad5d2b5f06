import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommitResult, InsightsStorage, Point } from '../../../src/managers/insights/storage.js';
import { EntryWriter, PRUNE_SLICE, SLICE } from '../../../src/managers/insights/writer.js';
import { meta, openTemp } from './helpers.js';

const T0 = Date.parse('2026-06-15T10:00:00.000Z');

let storage: InsightsStorage;
let cleanup: () => void;
let clock: number;
let commits: CommitResult[];
let writer: EntryWriter;
beforeEach(() => {
  ({ storage, cleanup } = openTemp());
  clock = T0;
  commits = [];
  writer = new EntryWriter(storage, { now: () => clock, onCommit: (r) => commits.push(r) });
});
afterEach(() => {
  writer.stop();
  cleanup();
});

const raw = (log: number): Point[] => storage.db.prepare<[number], Point>('SELECT log, t, v FROM raw WHERE log = ? ORDER BY t').all(log);

describe('entry writer', () => {
  it('coalesces writes within a 100 ms slot: the last one wins and the queue does not grow', () => {
    const log = storage.insertLog(meta('n')).row;
    for (let i = 0; i < 1000; i++) writer.add(log, T0 + (i % 100), i);
    expect(writer.pendingCount).toBe(1);
    clock = T0 + 100;
    writer.flush();
    expect(raw(log)).toEqual([{ log, t: T0 + 99, v: 999 }]);
    expect(writer.pendingCount).toBe(0);
  });

  it('keeps a fast writer to 10 points per second', () => {
    const log = storage.insertLog(meta('n')).row;
    // 3 s of a writer at 1000 writes/s, committing once a second.
    for (let ms = 0; ms < 3000; ms++) {
      clock = T0 + ms;
      writer.add(log, clock, ms);
      if (ms % 1000 === 999) writer.flush();
      expect(writer.pendingCount).toBeLessThanOrEqual(11);
    }
    writer.stop();
    const points = raw(log);
    expect(points).toHaveLength(30);
    // Each slot holds its last write.
    expect(points.map((p) => p.v)).toEqual(Array.from({ length: 30 }, (_, i) => i * 100 + 99));
  });

  it('holds the open slot back, so a late write to it still replaces', () => {
    const log = storage.insertLog(meta('n')).row;
    clock = T0 + 50;
    writer.add(log, T0 + 10, 1);
    expect(writer.flush()).toBeNull();
    writer.add(log, T0 + 60, 2);
    clock = T0 + 100;
    writer.flush();
    expect(raw(log)).toEqual([{ log, t: T0 + 60, v: 2 }]);
  });

  it('commits past points at once and everything on stop', () => {
    const log = storage.insertLog(meta('n')).row;
    writer.add(log, T0 - 5000, 1);
    writer.add(log, T0 - 4000, 2);
    writer.add(log, T0, 3);
    const r = writer.flush();
    expect(r?.added.map((p) => p.v)).toEqual([1, 2]);
    writer.stop();
    expect(raw(log).map((p) => p.v)).toEqual([1, 2, 3]);
    expect(commits).toHaveLength(2);
    expect(storage.getLog(log)).toMatchObject({ lastValue: 3, lastUpdated: T0 });
  });

  it('commits early when a backfill passes the pending bound', () => {
    const log = storage.insertLog(meta('n')).row;
    const small = new EntryWriter(storage, { now: () => clock, maxPending: 100 });
    for (let i = 0; i < 1000; i++) small.add(log, T0 - 100_000 + i * 100, i);
    expect(small.pendingCount).toBeLessThanOrEqual(100);
    small.stop();
    expect(raw(log)).toHaveLength(1000);
  });

  it('keeps a batch queued when its commit fails, and commits it once the database takes writes again', () => {
    const log = storage.insertLog(meta('n')).row;
    writer.add(log, T0 - 3000, 1);
    writer.add(log, T0 - 2000, 2);
    // A real write failure: the connection refuses writes (SQLITE_READONLY).
    storage.db.pragma('query_only = ON');
    expect(() => writer.flush()).toThrow(/readonly/i);
    expect(writer.pendingCount).toBe(2);
    writer.add(log, T0 - 2000, 3); // a newer write to a queued slot still wins
    storage.db.pragma('query_only = OFF');
    writer.flush();
    expect(raw(log).map((p) => p.v)).toEqual([1, 3]);
  });

  it('refuses new points while the queue is full and commits keep failing', () => {
    const log = storage.insertLog(meta('n')).row;
    const small = new EntryWriter(storage, { now: () => clock, maxPending: 10 });
    storage.db.pragma('query_only = ON');
    for (let i = 0; i < 10; i++) small.add(log, T0 - 100_000 + i * 100, i);
    expect(() => small.add(log, T0 - 50_000, 99)).toThrow(/readonly/i);
    expect(small.pendingCount).toBe(10);
    storage.db.pragma('query_only = OFF');
    small.stop();
    expect(raw(log)).toHaveLength(10);
  });

  it('forgets the queued points of a dropped log', () => {
    const log = storage.insertLog(meta('n')).row;
    writer.add(log, T0 - 1000, 1);
    writer.drop(log);
    expect(writer.pendingCount).toBe(0);
    writer.stop();
    expect(raw(log)).toEqual([]);
  });
});

describe("entry writer's ticks, in steps", () => {
  /** Records each commit's size and each prune step's, and whether the loop ran since the step before. */
  function watch(s: InsightsStorage) {
    const steps: string[] = [];
    let turns = 0;
    let seen: number | null = null;
    const between = () => {
      const ran = seen === null || turns > seen;
      seen = turns;
      return ran ? '' : ' (no turn of the loop since the step before)';
    };
    const spin = () => {
      turns++;
      loop = setImmediate(spin);
    };
    let loop = setImmediate(spin);
    const commit = s.commit.bind(s);
    const pruneSome = s.pruneSome.bind(s);
    s.commit = (points) => {
      steps.push(`commit ${points.length}${between()}`);
      return commit(points);
    };
    s.pruneSome = (pass, count) => {
      steps.push(`prune ${Math.min(count, pass.logs.length - pass.next)}${between()}`);
      return pruneSome(pass, count);
    };
    return { steps, stop: () => clearImmediate(loop) };
  }

  it(`commits a tick's points ${SLICE} at a time, letting the hub's other work in between`, async () => {
    const rows = Array.from({ length: 23 }, (_, i) => storage.insertLog(meta(`n${i}`)).row);
    const w = watch(storage);
    let idle = 0;
    const ticking = new EntryWriter(storage, { now: () => clock, flushMs: 10, onIdle: () => idle++ });
    for (const row of rows) ticking.add(row, T0 - 1000, row);
    ticking.start();
    await vi.waitFor(() => expect(idle).toBeGreaterThan(0));
    ticking.stop();
    w.stop();
    // The pass of pruning start() began comes after the points.
    expect(w.steps).toEqual(['commit 5', 'commit 5', 'commit 5', 'commit 5', 'commit 3', 'prune 23']);
    expect(rows.map((row) => raw(row).map((p) => p.v))).toEqual(rows.map((row) => [row]));
  });

  it(`prunes ${PRUNE_SLICE} logs at a time, the cutoffs moved first`, async () => {
    const rows = Array.from({ length: 250 }, (_, i) => storage.insertLog(meta(`n${i}`)).row);
    // A point of each log a day and a half old: past raw's horizon (a day), inside 1m's (two).
    storage.commit(rows.map((log) => ({ log, t: T0 - 1.5 * 86_400_000, v: 1 })));
    const w = watch(storage);
    let idle = 0;
    const ticking = new EntryWriter(storage, { now: () => clock, flushMs: 10, onIdle: () => idle++ });
    ticking.start();
    const count = (table: string) => storage.db.prepare(`SELECT count(*) AS n FROM ${table}`).get();
    expect(storage.db.prepare("SELECT cutoff FROM pruned WHERE level = 'raw'").get()).toEqual({ cutoff: T0 - 86_400_000 });
    expect(count('raw')).toEqual({ n: 250 });
    await vi.waitFor(() => expect(idle).toBeGreaterThan(0));
    ticking.stop();
    w.stop();
    expect(w.steps).toEqual(['prune 100', 'prune 100', 'prune 50']);
    expect(count('raw')).toEqual({ n: 0 });
    expect(count('r1m')).toEqual({ n: 250 });
  });
});
