/**
 * Gives back the young generation a burst of work grew, once the hub is idle again.
 *
 * V8 grows its new space (up to 16 MiB of semi-spaces) while a burst allocates fast, pairing 200
 * devices for instance, and shrinks it only through its memory reducer, which starts after a full
 * (mark-compact) collection and then collects at a low allocation rate. Past the first minute of a
 * process, a burst that does not fill old space triggers no full collection, so the reducer never
 * starts and the pages stay resident for good: measured, a hub at rest after pairing 200 devices
 * kept 16 MiB of new space (PSS +15 MiB) for as long as it was watched. One full collection once
 * the hub is idle wakes the reducer, which shrinks new space back to 1 MiB some 10-30 s later.
 *
 * The hub runs without --expose-gc (it is started by systemd, npm, and `hearth start` alike), so
 * the collection comes from a fresh context made while the flag is briefly on, the way test
 * runners' leak detectors do it; the context is dropped after use.
 */
import { cpuUsage } from 'node:process';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often the hub looks. */
const EVERY_MS = 15_000;
/** Idle: less CPU than this share of one core over the last look. */
const IDLE_SHARE = 0.02;
/** New space larger than this (V8 starts at 1 MiB) means a burst grew it. */
const GROWN_BYTES = 2 * 1024 * 1024;
/** After a collection the reducer did not follow (new space still grown), wait this long before another. */
const AT_MOST_EVERY_MS = 5 * 60_000;

/** Bytes of the young generation (semi-spaces) V8 holds now. */
export function youngBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

/** One full collection, from a context made while --expose-gc is briefly on (see above). */
export function collectOnce(): void {
  setFlagsFromString('--expose-gc');
  try {
    (runInNewContext('gc') as () => void)();
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

export interface SettleReports {
  /** New space has grown past its small size (seen at a look, once per growth). */
  grew?(youngBytes: number): void;
  /** A full collection was made, with new space this large. */
  collected?(youngBytes: number): void;
  /** New space is back to its small size after a collection. */
  shrunk?(youngBytes: number): void;
  /** New space went back to its small size before any collection of ours (V8 did it alone). */
  shrunkAlone?(youngBytes: number): void;
}

/** Starts looking; returns how to stop. */
export function settleHeapWhenIdle(reports: SettleReports = {}, everyMs = EVERY_MS): () => void {
  let last = cpuUsage();
  /** When the last collection was, while new space has stayed grown since; null once it shrank. */
  let collected: number | null = null;
  let grown = false;
  const timer = setInterval(() => {
    const now = cpuUsage();
    const busyMs = (now.user - last.user + now.system - last.system) / 1000;
    last = now;
    const young = youngBytes();
    if (young <= GROWN_BYTES) {
      if (collected !== null) reports.shrunk?.(young);
      else if (grown) reports.shrunkAlone?.(young);
      collected = null;
      grown = false;
      return;
    }
    if (!grown) reports.grew?.(young);
    grown = true;
    if (busyMs > everyMs * IDLE_SHARE) return;
    if (collected !== null && performance.now() - collected < AT_MOST_EVERY_MS) return;
    collected = performance.now();
    collectOnce();
    reports.collected?.(young);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
