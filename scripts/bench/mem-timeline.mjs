// The hub's memory over its first minutes, by kind of mapping, to see what grows after the first
// minute (docs/performance.md): `node scripts/bench/mem-timeline.mjs [seconds] [--env K=V ...]`
// starts a hub with 10 idle minimal apps on a private copy of node and prints, every 10 s, its
// PSS (and the whole home's: the hub, its apps and their bubblewrap processes) and the private
// memory of V8's heap spaces' anonymous mappings, malloc's heap, the node
// binary and the rest (from /proc/<pid>/smaps).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { privateNode, processTree, pssOf, sleep, smapsByKind, startHub } from './lib.mjs';

const root = resolve(import.meta.dirname, '../..');
const seconds = Number(process.argv[2] ?? 120);
const env = Object.fromEntries(
  process.argv
    .slice(3)
    .filter((a) => a.includes('='))
    .map((a) => a.split(/=(.*)/s).slice(0, 2)),
);
const MiB = 2 ** 20;

const byKind = (pid) =>
  smapsByKind(pid, ['Private_Clean', 'Private_Dirty'], (n) => (n === '' ? '[anon]' : n.startsWith('/') ? (n.includes('/node') ? 'node binary' : 'files') : n));

const work = await mkdtemp(join(tmpdir(), 'hearth-mem-'));
const appsDir = join(work, 'apps');
for (let i = 0; i < 10; i++) {
  const id = `com.bench.idle${i}`;
  await mkdir(join(appsDir, id), { recursive: true });
  await writeFile(join(appsDir, id, 'app.json'), JSON.stringify({ id, version: '1.0.0', sdk: 3, name: { en: id }, compatibility: '>=5.0.0' }));
  await writeFile(
    join(appsDir, id, 'app.js'),
    "const Homey = require('homey');\nmodule.exports = class extends Homey.App { async onInit() { this.log('ready'); } };\n",
  );
}
const node = await privateNode();
const hub = await startHub(root, { appsDir, node: node.path, env });
const started = Date.now();
try {
  while (Date.now() - started < seconds * 1000) {
    await sleep(10_000);
    const pid = hub.child.pid;
    const k = await byKind(pid);
    const f = (v) => ((v ?? 0) / MiB).toFixed(1);
    const tree = await processTree(pid);
    const own = await pssOf([pid]);
    console.log(
      `${Math.round((Date.now() - started) / 1000)} s: home ${f(await pssOf(tree))} MiB (${tree.length} processes); hub PSS ${f(own)} MiB; private: anon ${f(k['[anon]'])}, heap ${f(k['[heap]'])}, node ${f(k['node binary'])}, files ${f(k.files)}, stack ${f(k['[stack]'])}`,
    );
  }
} finally {
  await hub.stop();
  await rm(work, { recursive: true, force: true });
  await node.remove();
}
