#!/usr/bin/env node
// Where the hub's memory goes, module by module (docs/performance.md): `node
// scripts/bench/memory-by-module.mjs` after `npm run build`. Each row is a fresh node that loads
// the rows above it and its own, then collects garbage twice and reads its private memory (USS:
// pages no other process shares) and V8's live heap; the row's figures are the increase over the
// row above. A module's cost is what it adds after the ones before it (the first to need V8's
// compilers pays for them), so the order is the hub's own. The last rows
// are the hub's own modules loaded, and the real hub started on an empty data dir, left idle.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, sleep, startHub } from './lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const MiB = 2 ** 20;

// Each step is code run (in order, after the ones above) in the measured process.
const STEPS = [
  ['node, idle (the whole process, not an increase)', ''],
  ['zod', "await import('zod');"],
  ['hono', "await import('hono');"],
  ['ws', "await import('ws');"],
  ['pino', "(await import('pino')).pino({ level: 'info' });"],
  ['better-sqlite3, one open database', "const D = (await import('better-sqlite3')).default; const d = new D(':memory:'); d.exec('create table t (a)');"],
  ['semver', "await import('semver');"],
  ['local time (Date in TZ; no Intl)', "process.env.TZ = 'Europe/Amsterdam'; new Date().getHours();"],
];

/** Private memory and V8 live heap of a fresh node running `code`, after two full collections. */
function measure(code) {
  const script = `${code}
globalThis.gc(); await new Promise((r) => setTimeout(r, 200)); globalThis.gc();
const { readFileSync } = await import('node:fs');
const r = readFileSync('/proc/self/smaps_rollup', 'utf8');
const kb = (k) => Number(new RegExp('^' + k + ':\\\\s+(\\\\d+)', 'm').exec(r)[1]);
process.stdout.write(JSON.stringify({ uss: (kb('Private_Clean') + kb('Private_Dirty')) * 1024, heap: process.memoryUsage().heapUsed }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`step failed: ${code}`))));
  });
}

/** The median of three fresh processes (a process's private pages move by ~0.1 MiB). */
async function steady(code) {
  const runs = [await measure(code), await measure(code), await measure(code)];
  return { uss: median(runs.map((r) => r.uss)), heap: median(runs.map((r) => r.heap)) };
}

const rows = [];
let code = '';
let before = null;
for (const [name, step] of STEPS) {
  code += `${step}\n`;
  const now = await steady(code);
  rows.push({ name, uss: before ? now.uss - before.uss : now.uss, heap: before ? now.heap - before.heap : now.heap });
  before = now;
}
// The hub's own code: its modules as tsc built them (dist/main.js and all it imports), loaded.
// The daemon runs them bundled (dist/hearth.cjs), which holds a little less.
const daemon = pathToFileURL(join(root, 'dist/main.js')).href;
const loaded = await steady(`${code}await import(${JSON.stringify(daemon)});`);
rows.push({ name: "the hub's own modules (140), loaded", uss: loaded.uss - before.uss, heap: loaded.heap - before.heap });

// The real hub, started and idle: its USS after V8's memory reducer, next to the loaded code.
const apps = await mkdtemp(join(tmpdir(), 'hearth-memory-apps-'));
const hub = await startHub(root, { appsDir: apps });
await sleep(30_000); // past V8's memory reducer (footprint.bench.mjs)
const { readFile } = await import('node:fs/promises');
const rollup = await readFile(`/proc/${hub.child.pid}/smaps_rollup`, 'utf8');
const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(rollup)[1]);
const hubUss = (kb('Private_Clean') + kb('Private_Dirty')) * 1024;
const hubPss = kb('Pss') * 1024;
await hub.stop();
await rm(apps, { recursive: true, force: true });

// V8's live heap is exact; private memory also counts the heap pages V8 grew into and has not
// given back yet (after a collection it keeps them until its memory reducer runs), so it moves
// by about a MiB from one row to the next.
console.log('| step (each after the ones above) | V8 live heap added | private memory (USS) added |');
console.log('|---|---|---|');
for (const r of rows) console.log(`| ${r.name} | ${(r.heap / MiB).toFixed(1)} MiB | ${(r.uss / MiB).toFixed(1)} MiB |`);
console.log(`| all of the above, loaded and not started | ${(loaded.heap / MiB).toFixed(1)} MiB | ${(loaded.uss / MiB).toFixed(1)} MiB |`);
console.log(
  `| **the hub (bundled), started and idle 30 s** | | **${(hubUss / MiB).toFixed(1)} MiB** (PSS ${(hubPss / MiB).toFixed(1)} MiB, alone on this machine's node) |`,
);
