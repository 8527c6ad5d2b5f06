// Containment figures against the built code in dist/: an app's start (prlimit, bubblewrap's
// namespaces, the permission model, the bootstrap, the SDK, the handshake, onInit) next to a bare
// child_process.fork of a script that only says "ready"; and what a contained idle app costs in
// PSS (bubblewrap's process and node's, shared pages counted once per sharer) next to a bare
// idle node child. Targets: start <= 1.5x the bare fork, PSS <= the bare child + 8 MiB.
// Medians of interleaved runs (shared machine).
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, sleep } from './lib.mjs';

const RUNS = 11;
const MiB = 1024 * 1024;

/** PSS of a process in bytes (smaps_rollup), 0 when it is gone. */
async function pss(pid) {
  const text = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  return Number(/^Pss:\s+(\d+) kB/m.exec(text)?.[1] ?? 0) * 1024;
}

/** The process and every descendant of it. */
async function tree(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    const kids = await readFile(`/proc/${out[i]}/task/${out[i]}/children`, 'utf8').catch(() => '');
    out.push(...kids.trim().split(/\s+/).filter(Boolean).map(Number));
  }
  return out;
}

export default async function bench({ root, log }) {
  const dist = (p) => pathToFileURL(join(root, 'dist', p)).href;
  const { AppChild } = await import(dist('apps/child.js'));
  const { DEFAULT_SUPERVISOR_OPTIONS } = await import(dist('apps/supervisor.js'));
  const { prepareAppsFolder } = await import(dist('apps/sdk-link.js'));
  const { probeSandbox } = await import(dist('apps/sandbox.js'));
  const { HOMEY_VERSION } = await import(dist('apps/app-state.js'));
  const work = await mkdtemp(join(tmpdir(), 'hearth-bench-containment-'));
  const children = [];
  try {
    const sandbox = await probeSandbox('auto');
    if (sandbox.containment !== 'namespaces') throw new Error(`apps cannot run in namespaces here: ${sandbox.reason}`);
    const id = 'com.bench.idle';
    const dir = join(work, id);
    await mkdir(dir);
    await writeFile(join(dir, 'app.json'), JSON.stringify({ id, version: '1.0.0', sdk: 3, name: { en: id } }));
    await writeFile(join(dir, 'app.js'), "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n");
    const sdkLink = await prepareAppsFolder(work);
    const userdata = join(work, 'userdata');
    await mkdir(userdata);
    const bare = join(work, 'bare.cjs');
    // Like the bootstrap's hello: says ready, then idles on its IPC channel.
    await writeFile(bare, "process.on('message', () => {}); process.send('ready');");
    const opts = { ...DEFAULT_SUPERVISOR_OPTIONS, heapMb: 128 };
    const state = { language: 'en', units: 'metric', strings: {}, english: {}, settings: {}, defaults: {}, location: null, timezone: 'UTC', homeyVersion: HOMEY_VERSION };
    const spec = {
      id,
      version: '1.0.0',
      dir,
      userdata,
      readPaths: [sdkLink],
      sandbox,
      network: false,
      limits: { memoryMb: 128, openFiles: 1024, processes: 64, tmpMb: 16 },
      diskMb: 64,
      appsPackage: join(work, 'package.json'),
      sdkLink,
      init: () => ({ app: { id, version: '1.0.0', dir, main: 'app.js', userdata }, manifest: { id, version: '1.0.0', sdk: 3, name: { en: id } }, permissions: [], state }),
    };
    const hooks = { stdout() {}, stderr() {}, dispatch: async () => null };

    const bareFork = async () => {
      const t = performance.now();
      const child = fork(bare, [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
      await new Promise((r) => child.once('message', r));
      return { ms: performance.now() - t, pids: [child.pid], stop: () => child.kill('SIGKILL') };
    };
    const contained = async () => {
      const t = performance.now();
      const child = await AppChild.start(spec, opts, hooks);
      const ms = performance.now() - t;
      return { ms, pids: await tree(child.outerPid ?? child.pid), stop: () => child.kill('SIGKILL') };
    };

    log(`start: a contained app vs a bare fork, ${RUNS} interleaved runs`);
    const bareMs = [];
    const appMs = [];
    for (let i = 0; i < RUNS; i++) {
      const b = await bareFork();
      bareMs.push(b.ms);
      b.stop();
      const a = await contained();
      appMs.push(a.ms);
      a.stop();
      await sleep(50);
    }

    log('PSS: five contained idle apps and five bare children side by side, after they settle');
    const apps = [];
    const bares = [];
    for (let i = 0; i < 5; i++) {
      apps.push(await contained());
      bares.push(await bareFork());
    }
    children.push(...apps, ...bares);
    await sleep(3000);
    const appPss = [];
    for (const a of apps) appPss.push((await Promise.all(a.pids.map(pss))).reduce((x, y) => x + y, 0));
    const barePss = [];
    for (const b of bares) barePss.push(await pss(b.pids[0]));
    const startRatio = median(appMs) / median(bareMs);
    const extra = (median(appPss) - median(barePss)) / MiB;
    return [
      { name: 'app start, contained (spawn to onInit done)', value: median(appMs), unit: 'ms', baseline: 'bare fork to ready', baselineValue: median(bareMs), ratio: startRatio, target: '<= 1.5' },
      { name: 'idle app PSS, contained (bubblewrap + node)', value: median(appPss) / MiB, unit: 'MiB', baseline: 'bare idle node child', baselineValue: median(barePss) / MiB, ratio: median(appPss) / median(barePss), target: `<= bare + 8 MiB (now +${extra.toFixed(1)})` },
    ];
  } finally {
    for (const c of children) c.stop();
    await rm(work, { recursive: true, force: true });
  }
}
