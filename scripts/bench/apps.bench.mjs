// Apps runtime figures against the built code in dist/: an app's start, contained as on this
// machine (prlimit, bubblewrap's namespaces where it works, the permission model, bootstrap,
// handshake, onInit), next to a bare child_process.fork of a script that only says "ready"; PSS
// per running app (bubblewrap's process and node's) next to a bare child node process; and the time
// from a crash to the first restart being ready; and the hub's request latency while three apps
// misbehave (one spins a core, one blows its heap in a crash loop, one floods stdout) next to the
// same hub with no apps. Medians of interleaved runs (shared machine).
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load, OWNER, pssOf, startHub } from './lib.mjs';

const RUNS = 15;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A Homey app (CommonJS app.js) whose onInit runs `body`. */
async function writeApp(appsDir, id, body) {
  const dir = join(appsDir, id);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'app.json'), JSON.stringify({ id, version: '1.0.0', sdk: 3, name: { en: id } }));
  await writeFile(join(dir, 'app.js'), `const Homey = require('homey');\nmodule.exports = class extends Homey.App { async onInit() { ${body} } };\n`);
  return dir;
}

export default async function bench({ root, log }) {
  const dist = (p) => pathToFileURL(join(root, 'dist', p)).href;
  const { AppChild } = await import(dist('apps/host/child.js'));
  const { AppSupervisor, DEFAULT_SUPERVISOR_OPTIONS } = await import(dist('apps/host/supervisor.js'));
  const { prepareAppsFolder } = await import(dist('apps/host/sdk-link.js'));
  const { probeSandbox } = await import(dist('apps/host/sandbox.js'));
  const { HOMEY_VERSION } = await import(dist('apps/host/app-state.js'));
  const work = await mkdtemp(join(tmpdir(), 'hearth-bench-apps-'));
  try {
    const appDir = await writeApp(work, 'com.bench.idle', '');
    const crashDir = await writeApp(work, 'com.bench.crash', "setTimeout(() => { throw new Error('bench crash'); }, 50);");
    // As the runtime does: require('homey') in the apps finds the SDK through this link, and apps
    // run contained as they do on this machine (namespaces where bubblewrap works).
    const sdk = await prepareAppsFolder(work);
    const sandbox = await probeSandbox('auto');
    log(`apps run ${sandbox.containment === 'namespaces' ? 'in namespaces (bubblewrap)' : `with the permission model only: ${sandbox.reason}`}`);
    const bare = join(work, 'bare.cjs');
    // Like the bootstrap: says ready and listens on its IPC channel (which keeps it alive).
    await writeFile(bare, "process.on('message', () => {}); process.send('ready');");
    const userdata = join(work, 'userdata');
    await mkdir(userdata);
    const opts = { ...DEFAULT_SUPERVISOR_OPTIONS, heapMb: 128 };
    const state = {
      language: 'en',
      units: 'metric',
      strings: {},
      english: {},
      settings: {},
      defaults: {},
      location: null,
      timezone: 'UTC',
      homeyVersion: HOMEY_VERSION,
    };
    const spec = (dir, id) => ({
      id,
      version: '1.0.0',
      dir,
      userdata,
      readPaths: [sdk.modules],
      sandbox,
      network: false,
      limits: { memoryMb: 128, openFiles: 1024, processes: 64, tmpMb: 16 },
      diskMb: 64,
      appsPackage: join(work, 'package.json'),
      sdkLink: sdk.link,
      init: () => ({
        app: { id, version: '1.0.0', dir, main: 'app.js', userdata },
        manifest: { id, version: '1.0.0', sdk: 3, name: { en: id } },
        permissions: [],
        state,
      }),
    });
    const hooks = { stdout() {}, stderr() {}, dispatch: async () => null };

    const bareFork = async () => {
      const t = performance.now();
      const child = fork(bare, [], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
      await new Promise((r) => child.once('message', r));
      const ms = performance.now() - t;
      return { ms, child };
    };
    const appStart = async () => {
      const t = performance.now();
      const child = await AppChild.start(spec(appDir, 'com.bench.idle'), opts, hooks);
      return { ms: performance.now() - t, child };
    };

    log('fork-to-ready: app vs bare fork');
    const bareMs = [];
    const appMs = [];
    const bareRss = [];
    const appRss = [];
    for (let i = 0; i < RUNS; i++) {
      // Alternate which goes first so neither side pays for the other's teardown.
      let a;
      let b;
      if (i % 2 === 0) {
        b = await bareFork();
        a = await appStart();
      } else {
        a = await appStart();
        b = await bareFork();
      }
      bareMs.push(b.ms);
      appMs.push(a.ms);
      if (i >= RUNS - 5) {
        // RSS once both have settled.
        await sleep(300);
        bareRss.push(await pssOf([b.child.pid]));
        // The app's cost is bubblewrap's process and node's.
        appRss.push(await pssOf([a.child.outerPid, a.child.pid]));
      }
      b.child.kill('SIGKILL');
      await a.child.stop();
    }

    log('crash-to-restart (first attempt, default backoff)');
    // The supervisor's timers are unref'd (they must not keep a stopping hub alive): hold the loop open.
    const keepAlive = setInterval(() => {}, 1000);
    const restartMs = [];
    for (let i = 0; i < 5; i++) {
      let crashedAt = 0;
      const done = new Promise((resolve) => {
        let sup;
        sup = new AppSupervisor('com.bench.crash', join(work, `logs-${i}`), opts, {
          onChange: (s) => {
            if (s.crashed && s.state === 'stopped' && !crashedAt) crashedAt = performance.now();
            if (crashedAt && s.ready) {
              restartMs.push(performance.now() - crashedAt);
              void sup.stop().then(resolve);
            }
          },
          onCrash() {},
          dispatch: async () => null,
          spec: () => spec(crashDir, 'com.bench.crash'),
        });
        void mkdir(join(work, `logs-${i}`), { recursive: true }).then(() => sup.start());
      });
      await done;
    }
    clearInterval(keepAlive);

    log('hub latency: misbehaving apps vs no apps');
    const badApps = join(work, 'bad-apps');
    await writeApp(badApps, 'com.bench.spin', 'setTimeout(() => { for (;;) {} }, 100);');
    await writeApp(badApps, 'com.bench.hog', "const k = []; setInterval(() => { for (let i = 0; i < 20000; i++) k.push({ i, s: 'x'.repeat(64) + i }); }, 1);");
    await writeApp(badApps, 'com.bench.flood', "setInterval(() => { for (let i = 0; i < 200; i++) console.log('flood', i, Date.now()); }, 1);");
    const url = (hub) => `${hub.url}/api/manager/i18n/option/language`;
    const headers = { authorization: `Bearer ${OWNER}` };
    const quiet = await startHub(root);
    const noisy = await startHub(root, { appsDir: badApps, args: ['--app-heap-mb', '32'] });
    const quietP99 = [];
    const noisyP99 = [];
    try {
      await sleep(1500); // let the apps start misbehaving
      await load(url(quiet), { headers, seconds: 1 });
      await load(url(noisy), { headers, seconds: 1 });
      for (let round = 0; round < 3; round++) {
        quietP99.push((await load(url(quiet), { headers, seconds: 3 })).p99);
        noisyP99.push((await load(url(noisy), { headers, seconds: 3 })).p99);
      }
    } finally {
      await quiet.stop();
      await noisy.stop();
    }

    const b = median(bareMs);
    const a = median(appMs);
    const MiB = 1024 * 1024;
    const br = median(bareRss) / MiB;
    const ar = median(appRss) / MiB;
    return [
      {
        name: `app start, ${sandbox.containment} (spawn to onInit done)`,
        value: a,
        unit: 'ms',
        baseline: 'bare child_process.fork',
        baselineValue: b,
        ratio: a / b,
        target: '<= 1.5x',
      },
      {
        name: `PSS per running app, ${sandbox.containment}`,
        value: ar,
        unit: 'MiB',
        baseline: 'bare child node',
        baselineValue: br,
        ratio: ar / br,
        target: `<= baseline + 8 MiB (${(ar - br).toFixed(1)} MiB over)`,
      },
      { name: 'crash-to-restart (first attempt)', value: median(restartMs), unit: 'ms', target: '<= 1500 ms' },
      {
        name: 'hub option GET p99 with 3 misbehaving apps',
        value: median(noisyP99),
        unit: 'ms',
        baseline: 'same hub, no apps',
        baselineValue: median(quietP99),
        ratio: median(noisyP99) / median(quietP99),
        target: 'flat (a spinning app takes one of the cores)',
      },
    ];
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
