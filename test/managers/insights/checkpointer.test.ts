// The insights database's WAL checkpoints run in a thread of their own (src/managers/insights/
// checkpointer.ts): the hub's connection never checkpoints while the thread is there, the
// thread's checkpoints keep the WAL from growing, and the hub's connection takes the work back
// when the thread is gone.
import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CheckpointAnswer, Checkpointer } from '../../../src/managers/insights/checkpointer.js';
import type { InsightsStorage } from '../../../src/managers/insights/storage.js';
import { pause } from '../../helpers/poll.js';
import { meta, openTemp } from './helpers.js';

const T0 = Date.parse('2026-06-15T10:00:00.000Z');

let storage: InsightsStorage;
let cleanup: () => void;
let rows: number[];
beforeEach(() => {
  ({ storage, cleanup } = openTemp());
  rows = Array.from({ length: 300 }, (_, i) => storage.insertLog(meta(`n${i}`)).row);
});
afterEach(() => cleanup());

/** A second of a big home's points: one to each of the 300 logs, a page or more each. */
const second = (s: number) => storage.commit(rows.map((log, i) => ({ log, t: T0 + s * 1000 + i, v: s + i })));
const walBytes = () => statSync(`${storage.file}-wal`).size;
const autocheckpoint = () => storage.db.pragma('wal_autocheckpoint', { simple: true });

describe('insights checkpoints in a thread', () => {
  it("checkpoints the whole WAL off the hub's thread, so the next write starts it again", async () => {
    const answers: CheckpointAnswer[] = [];
    const c = new Checkpointer(storage.db, storage.file, { everyMs: 0, onAnswer: (a) => answers.push(a) });
    try {
      expect(autocheckpoint()).toBe(0);
      let size = 0;
      for (let s = 0; s < 12; s++) {
        second(s);
        if (s === 0) size = walBytes();
        c.soon();
        await vi.waitFor(() => expect(answers).toHaveLength(s + 1));
      }
      // Each answer: every frame of the WAL copied back.
      for (const a of answers) expect(a).toMatchObject({ busy: 0, checkpointed: (a as { log: number }).log });
      expect((answers[0] as { log: number }).log).toBeGreaterThan(100);
      // Twelve seconds' frames fit in the first second's room: the WAL was started again each time.
      expect(walBytes()).toBeLessThanOrEqual(size * 1.5);
      expect(c.threaded).toBe(true);
    } finally {
      c.stop();
    }
  });

  it('asks no more often than every interval, and not while one is under way', async () => {
    let clock = T0;
    const answers: CheckpointAnswer[] = [];
    const c = new Checkpointer(storage.db, storage.file, { everyMs: 10_000, now: () => clock, onAnswer: (a) => answers.push(a) });
    try {
      second(0);
      c.soon();
      clock += 10_000;
      c.soon();
      c.soon();
      await vi.waitFor(() => expect(answers).toHaveLength(1));
      c.soon();
      await pause(100, 'a request that should not be sent: its answer would come within this');
      expect(answers).toHaveLength(1);
    } finally {
      c.stop();
    }
  });

  it("gives the checkpoints back to the hub's connection when the thread is gone", async () => {
    const gone: unknown[] = [];
    const c = new Checkpointer(storage.db, storage.file, { everyMs: 0, onFallback: (why) => gone.push(why) });
    expect(autocheckpoint()).toBe(0);
    // The thread ends as an uncaught error would end it.
    await (c as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await vi.waitFor(() => expect(gone).toHaveLength(1));
    expect(String(gone[0])).toMatch(/checkpoint thread exited/);
    expect(c.threaded).toBe(false);
    expect(autocheckpoint()).toBe(1000);
    // And SQLite's own checkpoints keep the WAL bounded again.
    for (let s = 0; s < 30; s++) second(s);
    expect(walBytes()).toBeLessThan(12 * 1024 * 1024);
  });
});
