// The machine's own floor under the home bench's absolute targets (a p99 in ms), measured in the
// same run: what two bare Node processes take to pass a message there and back, and what one small
// append takes to be made durable, each 300 times at the bench's pace (20 a second). A machine
// whose floor is near a target cannot show the hub meeting it, whatever the hub does: on a shared
// two-core machine the IPC round trip's p50 was 0.55 ms and its p99 1.2-9 ms (a stall of 140-200 ms
// in every run of 30 s).
import { fork } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { p99, sleep } from './lib.mjs';

const ROUNDS = 300;
const EVERY_MS = 50;

if (process.argv[2] === 'echo') process.on('message', (m) => process.send(m));

/** p99 (ms) of an IPC round trip to a bare child and of a 200-byte append + fdatasync. */
export async function machineFloor() {
  const child = fork(new URL(import.meta.url).pathname, ['echo']);
  const ipc = [];
  try {
    await new Promise((r) => child.once('spawn', r));
    for (let i = 0; i < ROUNDS; i++) {
      const t = performance.now();
      await new Promise((r) => {
        child.once('message', r);
        child.send(i);
      });
      ipc.push(performance.now() - t);
      await sleep(EVERY_MS);
    }
  } finally {
    child.kill();
  }
  const dir = await mkdtemp(join(tmpdir(), 'hearth-bench-floor-'));
  const file = await open(join(dir, 'journal'), 'a');
  const durable = [];
  try {
    const line = Buffer.from(`${'x'.repeat(199)}\n`);
    for (let i = 0; i < ROUNDS; i++) {
      const t = performance.now();
      await file.write(line);
      await file.datasync();
      durable.push(performance.now() - t);
      await sleep(EVERY_MS);
    }
  } finally {
    await file.close();
    await rm(dir, { recursive: true, force: true });
  }
  return { ipc: p99(ipc), durable: p99(durable) };
}
