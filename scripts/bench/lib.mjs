// Shared helpers of the bench files: start processes, load them, read their memory.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import WebSocket from 'ws';

export const OWNER = 'hth_bench-owner-token-0123456789abcdef0123456789abcdef';

/** Debian's Chromium and its flags, which test/web/browser.ts takes from here: the benches' browser is the tests'. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

/** Writes app `id` into `appsDir` from `{<path>: text or JSON value}`: the benches' test apps. */
export async function writeAppFiles(appsDir, id, files) {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(appsDir, id, name, '..'), { recursive: true });
    await writeFile(join(appsDir, id, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

/** Spawns `node <args>` and resolves once it prints a JSON line with msg 'listening'. */
export function startListening(args, env = {}, node = process.execPath) {
  const child = spawn(node, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    // A server that never says it listens is killed: a bench must not leave processes behind.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no 'listening' from ${args.join(' ')} in 30 s`));
    }, 30_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const e = JSON.parse(line);
        if (e.msg === 'listening') {
          clearTimeout(timer);
          resolve({ child, port: e.port, stop: () => stopChild(child) });
        }
      } catch {}
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before listening`));
    });
  });
}

export function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

/**
 * The node flags the daemon runs with, wherever it is started for real (the systemd unit's
 * ExecStart, `npm start`; test/hub/daemon-flags.test.ts holds them equal), so the benches
 * measure the hub as a device runs it. `--v8-pool-size=1`: V8's background threads (4 by
 * default, whatever the cores) each got a malloc arena of their own once GC work ran on them,
 * 5 MiB of an idle hub's memory after its first minute (docs/performance.md).
 */
export const DAEMON_NODE_FLAGS = ['--v8-pool-size=1'];

/**
 * The environment the daemon runs with, wherever it is started for real (the unit's
 * `Environment=`, `npm start`; the same test holds them equal). `MALLOC_ARENA_MAX=1`: every
 * thread allocates from glibc's one main arena. libuv's threads (a backup's gzip, file reads)
 * otherwise each made an arena of their own that kept its pages: 2 MiB of the hub after its
 * first backup, a minute after start (docs/performance.md). `MALLOC_MMAP_THRESHOLD_=131072`: a block
 * of 128 KiB or more is mapped on its own and given back when freed; glibc's own line rises to the
 * largest block freed, and the large blocks it then serves from its heap kept their pages (3 MiB
 * of an empty home's hub at rest, 5 MiB of a 1,000-device home's).
 */
export const DAEMON_ENV = { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '131072' };

/** The node arguments that start the built hub as a device starts it, on 127.0.0.1:`port` (0: any). */
export function hubArgs(root, { port = 0, dataDir, appsDir, host = '127.0.0.1' }) {
  return [...DAEMON_NODE_FLAGS, join(root, 'dist/cli.js'), 'start', '--host', host, '--port', String(port), '--data-dir', dataDir, '--apps-dir', appsDir];
}

/** The environment the bench hubs run with: the daemon's, the bench's owner token, `level` logging. */
export const hubEnv = (level = 'info') => ({ ...DAEMON_ENV, HEARTH_OWNER_TOKEN: OWNER, HEARTH_LOG_LEVEL: level });

/**
 * A hub on a temp data dir with an empty apps dir (unless given), started as a device starts it;
 * `wrap(node, args)` answers the executable and arguments that run it another way (in a cgroup).
 */
export async function startHub(root, { appsDir, env = {}, args = [], node = process.execPath, wrap, host = '127.0.0.1' } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-bench-'));
  const apps = appsDir ?? (await mkdtemp(join(tmpdir(), 'hearth-bench-apps-')));
  const all = [...hubArgs(root, { dataDir, appsDir: apps, host }), ...args];
  const [exe, argv] = wrap ? wrap(node, all) : [node, all];
  const hub = await startListening(argv, { ...hubEnv(), ...env }, exe);
  return {
    ...hub,
    dataDir,
    url: `http://${host}:${hub.port}`,
    async stop() {
      await hub.stop();
      await rm(dataDir, { recursive: true, force: true });
      if (!appsDir) await rm(apps, { recursive: true, force: true });
    },
  };
}

/** Requests/s and p99 latency (ms) of GET url under load. */
export async function load(url, { headers = {}, seconds = 4, connections = 16 } = {}) {
  const result = await autocannon({ url, headers, duration: seconds, connections, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

export const MiB = 2 ** 20;

/** A result row of a PSS (bytes) beside its baseline's, both in MiB, with their ratio. */
export const pssRow = (name, bytes, baseline, baselineBytes, target) => ({
  name,
  value: bytes / MiB,
  unit: 'MiB',
  baseline,
  baselineValue: baselineBytes / MiB,
  ratio: bytes / baselineBytes,
  target,
});

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The `p`th percentile of an ascending list. */
export const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
/** The 99th percentile of a list in any order. */
export const p99 = (xs) =>
  pct(
    [...xs].sort((a, b) => a - b),
    99,
  );
/** The wall clock in ms with a fraction, as an app in another process stamps it. */
export const wallNow = () => performance.timeOrigin + performance.now();

/** What `cond` answers once it answers something truthy, asked every `everyMs` at most `tries` times. */
export async function until(cond, what, { tries = 5000, everyMs = 1 } = {}) {
  for (let i = 0; i < tries; i++) {
    const v = await cond();
    if (v) return v;
    await sleep(everyMs);
  }
  throw new Error(`${what} never happened`);
}

/** Opens one of the hub's WebSockets and calls `onEvent(event, args)` for each frame. */
export async function socket(url, onEvent) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data));
    onEvent(frame.event, frame.args ?? []);
  });
  return ws;
}

/** PSS (shared pages counted once per sharer) of the distinct processes of `pids`, in bytes. */
export async function pssOf(pids) {
  let total = 0;
  for (const pid of new Set(pids)) {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
    total += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
  }
  return total;
}

/**
 * PSS of `pid` by kind of mapping, in bytes: the node binary's pages (shared with every node on
 * the machine, so they move with what else runs), glibc's heap, anonymous memory (V8's heap,
 * mostly) and the rest. What a PSS figure is made of, so a run that moves says which part did.
 */
export function pssByKind(pid) {
  const kindOf = (name) => (name === '' ? 'anonymous' : name === '[heap]' ? 'heap' : /\/node$/.test(name) ? 'node' : 'other');
  return smapsByKind(pid, ['Pss'], kindOf, { node: 0, heap: 0, anonymous: 0, other: 0 });
}

/**
 * The `fields` of `/proc/<pid>/smaps` (in bytes) summed by kind of mapping: `kindOf(name)` of each
 * mapping's name ('' for anonymous memory), into `kinds` (the kinds always answered, at 0).
 */
export async function smapsByKind(pid, fields, kindOf, kinds = {}) {
  const text = await readFile(`/proc/${pid}/smaps`, 'utf8').catch(() => '');
  const field = new RegExp(`^(?:${fields.join('|')}):\\s+(\\d+) kB`);
  let kind = kindOf('');
  for (const line of text.split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      kind = kindOf(head[1] ?? '');
      continue;
    }
    const m = field.exec(line);
    if (m) kinds[kind] = (kinds[kind] ?? 0) + Number(m[1]) * 1024;
  }
  return kinds;
}

/** `pid` and every process below it (bubblewrap's processes and node, for an app), from /proc. */
export async function processTree(pid) {
  const out = [pid];
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => []);
  for (const task of tasks) {
    const children = (await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')).trim();
    for (const child of children ? children.split(/\s+/) : []) out.push(...(await processTree(Number(child))));
  }
  return out;
}

/** A TCP port that was free a moment ago (for servers whose spawn-to-ready is timed). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A copy of the node binary in a temp folder, for memory figures: PSS splits a page of
 * /usr/bin/node among every process that maps it, other people's node processes on this shared
 * machine included, which came and went mid-run (11 bare nodes measured 78 to 97 MiB). Nothing
 * else maps the copy, so a home run from it is measured as it would be alone on a board.
 * `remove()` deletes it.
 */
export async function privateNode() {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-bench-node-'));
  await mkdir(join(dir, 'bin'));
  const path = join(dir, 'bin', 'node');
  await copyFile(process.execPath, path);
  await import('node:fs/promises').then((fs) => fs.chmod(path, 0o755));
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Keep-alive connections for `api`: the bench asks the hub between the samples it takes, and a
 * lean client keeps its own work (and its garbage collection, which stalls the stamping of what
 * arrives) out of the figures: `fetch` made ~100 KB of garbage a call, and the home bench's own
 * scavenges of 5-16 ms were the largest of the capability change's slow samples.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** An authenticated call to a bench hub (from startHub): the parsed JSON answer, or an error naming the call. */
export function api(hub, method, path, body) {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const { hostname, port } = new URL(hub.url);
  const headers = { authorization: `Bearer ${OWNER}` };
  if (data !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, host: hostname, port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => {
        if (res.statusCode < 200 || res.statusCode >= 300) return reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`));
        // In an event handler a parse error would be thrown past the caller: it rejects the call.
        try {
          resolve(text ? JSON.parse(text) : null);
        } catch (err) {
          reject(new Error(`${method} ${path}: not JSON: ${err.message}`));
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
}

/**
 * What the bench's sockets heard, waited for without polling: each handler calls `heard()`, and
 * `waitFor(cond, what)` resolves once `cond()` holds after one (a 1 ms timer asked thousands of
 * times a round is work on the machine being measured).
 */
export function arrivals(timeoutMs = 10_000) {
  let waiting = [];
  return {
    heard() {
      const woken = waiting;
      waiting = [];
      for (const wake of woken) wake();
    },
    async waitFor(cond, what) {
      const started = performance.now();
      while (!cond()) {
        const left = timeoutMs - (performance.now() - started);
        if (left <= 0) throw new Error(`${what} never happened (${timeoutMs} ms)`);
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
}

/** ms from spawn to the first 200 of GET url, polled every 2 ms on fresh connections. */
export async function spawnToFirst200(args, env, url, init = {}) {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
  try {
    for (;;) {
      const res = await fetch(url, { ...init, headers: { ...init.headers, connection: 'close' } }).catch(() => null);
      if (res) {
        await res.arrayBuffer();
        if (res.status === 200) return performance.now() - t0;
      }
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}`);
      if (performance.now() - t0 > 30_000) throw new Error(`${url}: no 200 within 30 s`);
      await sleep(2);
    }
  } finally {
    await stopChild(child);
  }
}
