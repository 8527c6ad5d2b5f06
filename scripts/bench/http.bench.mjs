// Foundation figures: an authenticated option GET on the hub next to a bare Hono hello-world.
// The hub's memory and start-up are the footprint bench's (footprint.bench.mjs).
import { join } from 'node:path';
import { load, median, OWNER, startHub, startListening, stopChild } from './lib.mjs';

export default async function bench({ root, log }) {
  const bare = await startListening([join(root, 'scripts/bench/bare-hono.mjs')]);
  const hub = await startHub(root).catch(async (err) => {
    await stopChild(bare.child);
    throw err;
  });
  try {
    const bareUrl = `http://127.0.0.1:${bare.port}/hello`;
    const hubUrl = `${hub.url}/api/manager/i18n/option/language`;
    const headers = { authorization: `Bearer ${OWNER}` };
    log('warming up');
    await load(bareUrl, { seconds: 1 });
    await load(hubUrl, { headers, seconds: 1 });
    const b = [];
    const h = [];
    // Many short rounds in alternating order, each hub round paired with the bare round next to
    // it: the machine's speed drifts by a third within a minute, and a ratio of neighbours
    // cancels most of that drift where a ratio of two medians does not.
    for (let round = 0; round < 9; round++) {
      const hubFirst = round % 2 === 1;
      if (hubFirst) h.push(await load(hubUrl, { headers, seconds: 2 }));
      b.push(await load(bareUrl, { seconds: 2 }));
      if (!hubFirst) h.push(await load(hubUrl, { headers, seconds: 2 }));
      log(`round ${round + 1}: bare ${b.at(-1).rps.toFixed(0)} req/s, hub ${h.at(-1).rps.toFixed(0)} req/s`);
    }
    const bareRps = median(b.map((x) => x.rps));
    const hubRps = median(h.map((x) => x.rps));
    const ratio = median(h.map((x, i) => x.rps / b[i].rps));
    const bareP99 = median(b.map((x) => x.p99));
    const hubP99 = median(h.map((x) => x.p99));

    return [
      { name: 'option GET throughput', value: hubRps, unit: 'req/s', baseline: 'bare Hono', baselineValue: bareRps, ratio, target: '>= 0.80' },
      // autocannon reports whole milliseconds: below 1 ms a ratio means nothing.
      {
        name: 'option GET p99 latency',
        value: hubP99,
        unit: 'ms',
        baseline: 'bare Hono',
        baselineValue: bareP99,
        ...(bareP99 >= 1 ? { ratio: hubP99 / bareP99 } : {}),
      },
    ];
  } finally {
    await stopChild(bare.child);
    await hub.stop();
  }
}
