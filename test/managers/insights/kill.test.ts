/**
 * SIGKILL during heavy writes: a real child process writes through the storage and writer,
 * is killed with -9 mid-stream, and the database must open clean with everything that was
 * reported committed, and rollups that agree with the raw points (commits are atomic).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS } from '../../../src/managers/insights/levels.js';
import { InsightsStorage } from '../../../src/managers/insights/storage.js';
import { compileSources } from '../../helpers/compile.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let work: string;
let build: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'hearth-insights-kill-'));
  build = join(work, 'build');
  // Compile just the storage modules (tests run from source; the child needs JavaScript).
  await compileSources(build, 'src/managers/insights', ['src/managers/insights/writer.ts', 'src/managers/insights/storage.ts']);
  // Bare imports (better-sqlite3) resolve through a node_modules beside the build.
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Report {
  at: number;
  /** The newest point of each live log this commit held (0: none). */
  maxT: number[];
}

async function runAndKill(file: string, commitsBeforeKill: number, delayMs: number): Promise<{ reports: Report[]; killAt: number }> {
  const child = spawn(process.execPath, [join(ROOT, 'test/managers/insights/fixtures/kill-writer.mjs'), build, file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const reports: Report[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((res) => child.on('exit', (_code, signal) => res(signal)));
  const killAt = await new Promise<number>((res, rej) => {
    child.on('exit', () => rej(new Error(`writer exited early: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const [, , ...maxT] = line.split(' ');
      reports.push({ at: Date.now(), maxT: maxT.map(Number) });
      if (reports.length === commitsBeforeKill) {
        setTimeout(() => {
          const at = Date.now();
          child.kill('SIGKILL');
          res(at);
        }, delayMs);
      }
    });
  });
  expect(await exited).toBe('SIGKILL');
  return { reports: reports.filter((r) => r.at <= killAt), killAt };
}

describe('SIGKILL during heavy writes', () => {
  it.each([
    [3, 0],
    [4, 450],
    [3, 900],
  ])(
    'after %d commits and %d ms: the database is intact and keeps every reported commit',
    async (commits, delay) => {
      const file = join(work, `kill-${commits}-${delay}.db`);
      const { reports, killAt } = await runAndKill(file, commits, delay);
      const storage = InsightsStorage.open(file);
      try {
        expect(storage.db.pragma('integrity_check', { simple: true })).toBe('ok');
        const logs = storage.listLogs();
        expect(logs.map((l) => l.id)).toEqual(['live1', 'live2', 'live3', 'backfill']);
        for (const [i, log] of logs.slice(0, 3).entries()) {
          // A tick commits in slices: what counts is each log's own newest reported point.
          const held = reports.filter((r) => r.maxT[i]! > 0);
          expect(held.length).toBeGreaterThan(0);
          const reported = Math.max(...held.map((r) => r.maxT[i]!));
          const { maxT, bad } = storage.db
            .prepare<[number], { maxT: number; bad: number }>('SELECT max(t) AS maxT, sum(t != v) AS bad FROM raw WHERE log = ?')
            .get(log.row)!;
          // Everything reported committed survived, and values are what was written.
          expect(maxT).toBeGreaterThanOrEqual(reported);
          expect(bad).toBe(0);
          // The lost tail is what was written after the last commit: one tick (1 s) at most,
          // plus the slot held open. Measured against the writer's own clock, not the test's.
          expect(killAt - maxT).toBeLessThanOrEqual(2000 + (killAt - held.at(-1)!.at));
        }
        // Raw points and every rollup level were committed together.
        for (const level of LEVELS) {
          const mismatch = storage.db
            .prepare<[], { c: number }>(
              `SELECT count(*) AS c FROM (
               SELECT log, CAST(t / ${level.width} AS INTEGER) AS b, count(*) AS n, sum(v) AS s, min(v) AS mn, max(v) AS mx
               FROM raw GROUP BY log, b) r
             FULL JOIN ${level.table} l USING (log, b)
             WHERE r.n IS NOT l.n OR abs(r.s - l.s) > 1e-6 * abs(r.s) OR r.mn IS NOT l.mn OR r.mx IS NOT l.mx`,
            )
            .get()!;
          expect(mismatch.c).toBe(0);
        }
      } finally {
        storage.close();
      }
    },
    60_000,
  );
});
