/** Shared helpers of the insights suites: temp databases and brute-force references. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BucketRow, InsightsStorage, type LogMeta, type Point } from '../../../src/managers/insights/storage.js';

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-insights-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function openTemp(): { storage: InsightsStorage; dir: string; cleanup: () => void } {
  const { dir, cleanup } = tempDir();
  const storage = InsightsStorage.open(join(dir, 'insights.db'));
  return {
    storage,
    dir,
    cleanup: () => {
      storage.close();
      cleanup();
    },
  };
}

export const meta = (id: string, type: 'number' | 'boolean' = 'number', decimals: number | null = 2): LogMeta => ({
  uri: 'homey:app:com.example.test',
  id,
  title: `Log ${id}`,
  type,
  units: type === 'number' ? '°C' : null,
  decimals,
  titleTrue: type === 'boolean' ? 'On' : null,
  titleFalse: type === 'boolean' ? 'Off' : null,
  ownerUri: 'homey:app:com.example.test',
});

/** A deterministic PRNG so failures reproduce. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The points a store should hold after writing `writes` in order: last write per (log, t) wins. */
export function finalPoints(writes: readonly Point[]): Point[] {
  const m = new Map<string, Point>();
  for (const p of writes) m.set(`${p.log}:${p.t}`, p);
  return [...m.values()].sort((a, b) => a.t - b.t);
}

export type Bucket = BucketRow;

/** Brute-force aggregate of points per floor(t / width). */
export function bruteBuckets(points: readonly Point[], log: number, width: number): Map<number, Bucket> {
  const out = new Map<number, Bucket>();
  for (const p of points) {
    if (p.log !== log) continue;
    const b = Math.floor(p.t / width);
    const a = out.get(b);
    if (!a) out.set(b, { n: 1, s: p.v, mn: p.v, mx: p.v, lv: p.v, lt: p.t });
    else {
      a.n += 1;
      a.s += p.v;
      a.mn = Math.min(a.mn, p.v);
      a.mx = Math.max(a.mx, p.v);
      if (p.t >= a.lt) {
        a.lv = p.v;
        a.lt = p.t;
      }
    }
  }
  return out;
}
