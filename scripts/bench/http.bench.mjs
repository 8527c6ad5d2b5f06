// Foundation figures: an authenticated option GET on the hub next to a bare Hono hello-world,
// and the idle hub's RSS next to a bare idle node process and next to the mandated libraries
// loaded and idle without the hub's code (bare-stack.mjs).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { OWNER, load, median, rss, sleep, startHub, startListening, stopChild } from './lib.mjs';

export default async function bench({ root, log }) {
  const bare = await startListening([join(root, 'scripts/bench/bare-hono.mjs')]);
  const stack = await startListening([join(root, 'scripts/bench/bare-stack.mjs')]).catch(async (err) => {
    await stopChild(bare.child);
    throw err;
  });
  const hub = await startHub(root).catch(async (err) => {
    await stopChild(bare.child);
    await stopChild(stack.child);
    throw err;
  });
  try {
    // Idle RSS first: a settled hub that has served nothing yet, next to a node doing nothing.
    const idle = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    await sleep(3000);
    const hubRss = await rss(hub.child.pid);
    const nodeRss = await rss(idle.pid);
    const stackRss = await rss(stack.child.pid);
    await stopChild(stack.child);
    await stopChild(idle);

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
      { name: 'option GET throughput', value: hubRps, unit: 'req/s', baseline: 'bare Hono', baselineValue: bareRps, ratio, target: '>= 0.70' },
      // autocannon reports whole milliseconds: below 1 ms a ratio means nothing.
      { name: 'option GET p99 latency', value: hubP99, unit: 'ms', baseline: 'bare Hono', baselineValue: bareP99, ...(bareP99 >= 1 ? { ratio: hubP99 / bareP99 } : {}) },
      { name: 'idle RSS', value: hubRss / 2 ** 20, unit: 'MiB', baseline: 'bare node', baselineValue: nodeRss / 2 ** 20, ratio: hubRss / nodeRss, target: '<= 1.5' },
      // The mandated libraries idle with none of the hub's code (bare-stack.mjs): what the hub's
      // own code adds. The 1.5x target above is below this baseline (docs/performance.md).
      { name: 'idle RSS', value: hubRss / 2 ** 20, unit: 'MiB', baseline: 'mandated stack', baselineValue: stackRss / 2 ** 20, ratio: hubRss / stackRss, target: '<= 1.15 (proposed)' },
    ];
  } finally {
    await stopChild(bare.child);
    await stopChild(stack.child);
    await hub.stop();
  }
}
