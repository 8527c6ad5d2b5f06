// Store bench: the cost of one durable write (one device record changed, made durable) against
// the size of the data, with the built store (dist/core/store.js). A write appends what changed
// to the journal, so its cost should be flat: the same with 10 records as with 5,000 (about
// 1.3 MB of db.json, more than a 1,000-device home). The baseline is the small store measured in
// the same run; rounds alternate between the two so machine noise falls on both.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

const WRITES = 400;
const ROUNDS = 3;
const BOUND = { section: 64 * 1024 * 1024, items: 'devices', record: 1024 * 1024, item: 'a device' };
const Device = z.object({ name: z.string(), zone: z.string(), capabilities: z.record(z.string(), z.unknown()), on: z.boolean() });

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const median = (xs) => quantile(xs, 0.5);

async function storeOf(root, count, work) {
  const { Store } = await import(join(root, 'dist/core/store.js'));
  const dir = await mkdtemp(join(work, `store-${count}-`));
  const first = await Store.open(dir);
  const devices = first.records('devices', Device, BOUND);
  await devices.update((d) => {
    for (let i = 0; i < count; i++) {
      d[`device-${i}-${'0'.repeat(24)}`] = {
        name: `Device ${i}`,
        zone: 'zone-0000-0000',
        capabilities: { onoff: { value: false, title: 'On' }, dim: { value: 0.5, title: 'Dim' }, measure_power: { value: 12.5, title: 'Power' } },
        on: false,
      };
    }
  });
  await first.close();
  const store = await Store.open(dir);
  return { store, devices: store.records('devices', Device, BOUND), dir, bytes: (await stat(join(dir, 'db.json'))).size };
}

/** Milliseconds of each of WRITES one-record writes, one at a time (each waits for its fsync). */
async function writes(home) {
  const ids = Object.keys(home.devices.value);
  const times = [];
  for (let i = 0; i < WRITES; i++) {
    const id = ids[(i * 7) % ids.length];
    const t = performance.now();
    await home.devices.updateSome([id], (d) => {
      d[id].name = `Device renamed ${i}`;
    });
    times.push(performance.now() - t);
  }
  return times;
}

export default async function bench({ root, log }) {
  const work = await mkdtemp(join(tmpdir(), 'hearth-bench-store-'));
  try {
    const small = await storeOf(root, 10, work);
    const big = await storeOf(root, 5000, work);
    log(`db.json: ${small.bytes} bytes with 10 devices, ${(big.bytes / 1048576).toFixed(2)} MiB with 5,000`);
    const smallTimes = [];
    const bigTimes = [];
    for (let r = 0; r < ROUNDS; r++) {
      smallTimes.push(...(await writes(small)));
      bigTimes.push(...(await writes(big)));
      log(
        `round ${r + 1}: p50 ${median(smallTimes).toFixed(2)} / ${median(bigTimes).toFixed(2)} ms, p99 ${quantile(smallTimes, 0.99).toFixed(2)} / ${quantile(bigTimes, 0.99).toFixed(2)} ms (10 / 5,000 devices)`,
      );
    }
    await small.store.close();
    await big.store.close();
    const row = (name, q) => ({
      name,
      value: quantile(bigTimes, q),
      unit: 'ms',
      baseline: 'the same write with 10 devices',
      baselineValue: quantile(smallTimes, q),
      ratio: quantile(bigTimes, q) / quantile(smallTimes, q),
      target: '<= 1.2 (flat)',
    });
    return [row(`one device changed, durable, with 5,000 devices (${(big.bytes / 1048576).toFixed(1)} MiB of db.json): p50`, 0.5), row('the same: p99', 0.99)];
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
