/**
 * What the child process may not do: read the hub's files, write outside its userdata, spawn
 * processes or workers, see the hub's secrets; and how the hub copes with an app that eats its
 * heap or spins the CPU.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pause, waitUntil } from '../helpers/poll.js';
import { assertBuilt, homeyApp, ROOT, removeAll, startRuntime, type TestRuntime, tempDir, writeApp } from './helpers.js';

let appsDir: string;
let dataDir: string;
let outside: string;
let t: TestRuntime | undefined;

beforeAll(assertBuilt);
beforeEach(async () => {
  appsDir = await tempDir('hearth-apps-');
  dataDir = await tempDir('hearth-data-');
  outside = await tempDir('hearth-outside-');
});
afterEach(async () => {
  await t?.close();
  t = undefined;
  await removeAll(appsDir, dataDir, outside);
});

// What an app can do with the channel's file descriptor behind the SDK's back: write frames
// of its own (fs.writeSync on a descriptor bypasses the permission model).
const FORGE = `const forge = (m) => { const b = Buffer.from(JSON.stringify(m)); const h = Buffer.alloc(4); h.writeUInt32BE(b.length); require('fs').writeSync(3, Buffer.concat([h, b])); };`;

// Counts the app's runs in a file of its userdata (its working folder), written before onInit
// goes on: a setting would do, but the hub stores an app's setting a moment after it is set.
const COUNT_RUNS = `const countRun = () => {
  const file = require('node:path').join(process.cwd(), 'runs');
  let runs = 0;
  try { runs = Number(require('node:fs').readFileSync(file, 'utf8')); } catch {}
  require('node:fs').writeFileSync(file, String(runs + 1));
  return runs + 1;
};`;
const runsOf = (id: string): number => {
  try {
    return Number(readFileSync(join(dataDir, 'apps', id, 'userdata', 'runs'), 'utf8'));
  } catch {
    return 0;
  }
};

function probeApp(dataDir: string, outside: string): string {
  const userdata = join(dataDir, 'apps', 'com.test.probe', 'userdata');
  const sdkLink = join(appsDir, 'node_modules', 'homey');
  return homeyApp(
    `
  async onInit() {
    const userdata = ${JSON.stringify(userdata)};
    const results = {
      readDb: attempt(() => fs.readFileSync(${JSON.stringify(join(dataDir, 'db.json'))}, 'utf8')),
      readOwnerToken: attempt(() => fs.readFileSync(${JSON.stringify(join(dataDir, 'owner-token'))}, 'utf8')),
      readOtherApp: attempt(() => fs.readFileSync(${JSON.stringify(join(appsDir, 'com.test.other', 'app.json'))}, 'utf8')),
      // The SDK link is readable; through it, only the SDK is.
      readOtherAppThroughLink: attempt(() => fs.readFileSync(path.join(${JSON.stringify(sdkLink)}, '..', '..', 'com.test.other', 'app.json'), 'utf8')),
      readSdk: attempt(() => JSON.parse(fs.readFileSync(path.join(${JSON.stringify(sdkLink)}, 'package.json'), 'utf8')).name),
      readHubCode: attempt(() => fs.readFileSync(${JSON.stringify(join(ROOT, 'dist', 'hub.js'))}, 'utf8')),
      // What Node's module loader looks at (before Node 20.20 a refused look stopped the app):
      // the package.json files above the app and the bootstrap, and the SDK link's folder.
      readScopeAbove: attempt(() => JSON.parse(fs.readFileSync(${JSON.stringify(join(appsDir, 'package.json'))}, 'utf8')).description),
      readHubPackage: attempt(() => JSON.parse(fs.readFileSync(${JSON.stringify(join(ROOT, 'package.json'))}, 'utf8')).name),
      readBesideScope: attempt(() => fs.readFileSync(${JSON.stringify(join(appsDir, 'notes.json'))}, 'utf8')),
      lookBesideLink: attempt(() => fs.statSync(path.join(${JSON.stringify(sdkLink)}, '..', 'homey.js'))),
      readEtc: attempt(() => fs.readFileSync('/etc/hostname', 'utf8')),
      // The libraries the hub lends (matter.js) resolve from the apps folder; the rest of its node_modules does not.
      lentLibrary: attempt(() => require.resolve('@matter/main').startsWith(${JSON.stringify(join(ROOT, 'node_modules', '@matter', 'main'))})),
      writeLent: attempt(() => fs.writeFileSync(path.join(path.dirname(require.resolve('@matter/main')), 'x.js'), '')),
      readHubModule: attempt(() => fs.readFileSync(${JSON.stringify(join(ROOT, 'node_modules', 'hono', 'package.json'))}, 'utf8')),
      requireHubModule: attempt(() => require.resolve('hono')),
      writeOutside: attempt(() => fs.writeFileSync(${JSON.stringify(join(outside, 'pwned'))}, 'x')),
      writeOwnFolder: attempt(() => fs.writeFileSync(path.join(this.homey.dir, 'pwned'), 'x')),
      writeSdk: attempt(() => fs.writeFileSync(path.join(${JSON.stringify(sdkLink)}, 'index.cjs'), 'module.exports = {}')),
      replaceSdkLink: attempt(() => fs.renameSync(${JSON.stringify(sdkLink)}, path.join(userdata, 'stolen'))),
      writeUserdata: attempt(() => fs.writeFileSync(path.join(userdata, 'note.txt'), 'kept')),
      readUserdata: attempt(() => fs.readFileSync(path.join(userdata, 'note.txt'), 'utf8')),
      cwdIsUserdata: process.cwd() === userdata && this.homey.tmpdir === userdata,
      spawn: attempt(() => require('node:child_process').execSync('echo pwned')),
      worker: attempt(() => new (require('node:worker_threads').Worker)('1', { eval: true })),
      // Known escape hatches of the permission model, closed on Node 20.20:
      binding: attempt(() => typeof process.binding('fs').open),
      symlinkOut: attempt(() => fs.symlinkSync('/etc/passwd', path.join(userdata, 'link'))),
      hardlinkOut: attempt(() => fs.linkSync(${JSON.stringify(join(dataDir, 'db.json'))}, path.join(userdata, 'hard'))),
      inspector: attempt(() => require('node:inspector').open(0)),
      nativeAddon: attempt(() => process.dlopen({ exports: {} }, path.join(this.homey.dir, 'x.node'))),
      ownerTokenEnv: process.env.HEARTH_OWNER_TOKEN === undefined ? 'absent' : 'present',
      nodeOptionsEnv: process.env.NODE_OPTIONS === undefined ? 'absent' : 'present',
    };
    this.homey.settings.set('results', results);
  }`,
    `const fs = require('node:fs');
const path = require('node:path');
function attempt(fn) { try { const r = fn(); return r === undefined ? 'ok' : 'ok:' + String(r).slice(0, 40); } catch (e) { return e.code || e.message; } }`,
  );
}

describe('permission model', () => {
  it('lets an app read and write only its own folders, and spawn nothing', async () => {
    await writeFile(join(dataDir, 'owner-token'), 'hth_secret\n', { mode: 0o600 });
    await writeFile(join(appsDir, 'notes.json'), '{}');
    await writeApp(appsDir, 'com.test.other', { code: homeyApp('') });
    await writeApp(appsDir, 'com.test.probe', { code: probeApp(dataDir, outside) });
    process.env.HEARTH_OWNER_TOKEN = 'hth_secret';
    try {
      t = await startRuntime({ appsDir, dataDir });
    } finally {
      delete process.env.HEARTH_OWNER_TOKEN;
    }
    await t.until('com.test.probe', (a) => a.ready, 'ready');
    expect(await t.setting('com.test.probe', 'results')).toEqual({
      readDb: 'ERR_ACCESS_DENIED',
      readOwnerToken: 'ERR_ACCESS_DENIED',
      readOtherApp: 'ERR_ACCESS_DENIED',
      readOtherAppThroughLink: 'ERR_ACCESS_DENIED',
      readSdk: 'ok:homey',
      readHubCode: 'ERR_ACCESS_DENIED',
      readScopeAbove: "ok:hearth's apps folder: apps without a pac",
      readHubPackage: 'ok:hearth',
      readBesideScope: 'ERR_ACCESS_DENIED',
      lookBesideLink: 'ENOENT',
      readEtc: 'ERR_ACCESS_DENIED',
      lentLibrary: 'ok:true',
      writeLent: 'ERR_ACCESS_DENIED',
      readHubModule: 'ERR_ACCESS_DENIED',
      requireHubModule: 'MODULE_NOT_FOUND',
      writeOutside: 'ERR_ACCESS_DENIED',
      writeOwnFolder: 'ERR_ACCESS_DENIED',
      writeSdk: 'ERR_ACCESS_DENIED',
      replaceSdkLink: 'ERR_ACCESS_DENIED',
      writeUserdata: 'ok',
      readUserdata: 'ok:kept',
      cwdIsUserdata: true,
      spawn: 'ERR_ACCESS_DENIED',
      worker: 'ERR_ACCESS_DENIED',
      binding: 'ERR_ACCESS_DENIED',
      symlinkOut: 'ERR_ACCESS_DENIED',
      hardlinkOut: 'ERR_ACCESS_DENIED',
      inspector: 'ERR_ACCESS_DENIED',
      nativeAddon: 'ERR_DLOPEN_DISABLED',
      ownerTokenEnv: 'absent',
      nodeOptionsEnv: 'absent',
    });
  });

  // Says, reads the location and creates a log through the SDK, then makes the same speech call
  // past the SDK: a well-formed frame of its own on the channel, which only the hub can refuse.
  const SAYER = homeyApp(
    `
  async onInit() {
    const r = {};
    try { await this.homey.speechOutput.say('through the sdk'); r.say = 'ok'; } catch (e) { r.say = e.code + ': ' + e.message; }
    try { r.geo = String(this.homey.geolocation.getLatitude()); } catch (e) { r.geo = e.code + ': ' + e.message; }
    try { await this.homey.insights.createLog('x', { title: 'X', type: 'number' }); r.insights = 'ok'; } catch (e) { r.insights = e.code + ': ' + e.message; }
    forge({ type: 'call', id: 900001, method: 'speech.say', args: { text: 'forged by ' + this.id } });
    this.homey.settings.set('r', r);
  }`,
    FORGE,
  );

  it('refuses SDK calls whose permission the manifest lacks, naming the permission, in the app and in the hub', async () => {
    await writeApp(appsDir, 'com.test.nosay', { code: SAYER, manifest: { permissions: ['hearth:system:sensors'] } });
    await writeApp(appsDir, 'com.test.say', { code: SAYER, manifest: { permissions: ['homey:manager:speech-output', 'homey:manager:geolocation'] } });
    const said: string[] = [];
    t = await startRuntime({
      appsDir,
      dataDir,
      setup: (rt) =>
        rt.router.handle('speech.say', (app, { text }) => {
          said.push(`${app.id}: ${text}`);
          return null;
        }),
    });
    // The forged frame went before the setting: once the setting is stored, the hub has answered it.
    expect(await t.setting('com.test.nosay', 'r')).toEqual({
      say: 'permission_denied: speechOutput.say needs the permission \'homey:manager:speech-output\'; add it to "permissions" in app.json',
      geo: 'permission_denied: geolocation.getLatitude needs the permission \'homey:manager:geolocation\'; add it to "permissions" in app.json',
      // Insights needs no permission; this runtime has no insights manager to serve it.
      insights: 'not_available: insights.createLog is not available on this hub: the insights manager does not serve it',
    });
    expect(await t.setting('com.test.say', 'r')).toEqual({
      say: 'ok',
      geo: 'undefined',
      insights: 'not_available: insights.createLog is not available on this hub: the insights manager does not serve it',
    });
    expect(said.sort()).toEqual(['com.test.say: forged by com.test.say', 'com.test.say: through the sdk']);
  });
});

describe('misbehaving apps', () => {
  it('stops an app at its heap limit and reports it', async () => {
    await writeApp(appsDir, 'com.test.hog', {
      code: homeyApp(`async onInit() {
        const keep = [];
        setInterval(() => { for (let i = 0; i < 20000; i++) keep.push({ i, s: 'x'.repeat(64) + i }); }, 1);
      }`),
    });
    t = await startRuntime({ appsDir, dataDir, heapMb: 32, supervisor: { crashLimit: 1 } });
    const app = await t.until('com.test.hog', (a) => a.crashed && a.state === 'stopped', 'stopped at its heap limit', 30_000);
    expect(app.exitSignal).toBe('SIGABRT');
    expect(app.crashedMessage).toContain('its JavaScript heap reached its limit of 32 MiB');
    expect((await t.rt.crashLog('com.test.hog')).stderr).toMatch(/Reached heap limit|JavaScript heap out of memory/);
  });

  it('counts what an app uses against its ceiling, not what it maps: 100 MiB reserved and untouched under a 64 MiB ceiling runs on', async () => {
    await writeApp(appsDir, 'com.test.reserve', {
      manifest: { hearth: { memoryMb: 64 } },
      code: homeyApp(`async onInit() {
        // Mapped, never touched: address space V8 or a library reserves, not memory in use.
        this.reserved = Buffer.allocUnsafeSlow(100 * 1024 * 1024);
        this.homey.settings.set('reserved', this.reserved.length);
      }`),
    });
    t = await startRuntime({ appsDir, dataDir, supervisor: { usageIntervalMs: 100 } });
    expect(await t.setting('com.test.reserve', 'reserved')).toBe(100 * 1024 * 1024);
    await pause(1_000, 'a few samples of its memory');
    expect(t.rt.get('com.test.reserve')).toMatchObject({ state: 'running', crashed: false });
  });

  it('stops an app that holds more than its ceiling, saying it was what it used', async () => {
    await writeApp(appsDir, 'com.test.holder', {
      manifest: { hearth: { memoryMb: 64 } },
      code: homeyApp(`async onInit() {
        this.held = [];
        for (let i = 0; i < 12; i++) this.held.push(Buffer.alloc(8 * 1024 * 1024, 1));
      }`),
    });
    t = await startRuntime({ appsDir, dataDir, supervisor: { usageIntervalMs: 100, crashLimit: 1 } });
    const app = await t.until('com.test.holder', (a) => a.crashed && a.state === 'stopped', 'stopped over its ceiling', 30_000);
    expect(app.crashedMessage).toMatch(/it used \d+ MiB of memory \(its proportional set size\), over its ceiling of 64 MiB/);
  });

  it('restarts an app that spins the CPU and ignores SIGTERM (SIGKILL path)', { timeout: 60_000 }, async () => {
    await writeApp(appsDir, 'com.test.spin', {
      code: homeyApp(
        `async onInit() {
        process.on('SIGTERM', () => {});
        countRun();
        setTimeout(() => { for (;;) {} }, 50);
      }`,
        COUNT_RUNS,
      ),
    });
    t = await startRuntime({ appsDir, dataDir, supervisor: { stopTimeoutMs: 300, killGraceMs: 300 } });
    await t.until('com.test.spin', (a) => a.ready, 'ready');
    expect(runsOf('com.test.spin')).toBe(1);
    // Spinning for sure once it has burnt 200 ms of CPU after ready (it does nothing else; at
    // nice 10 on a loaded machine that can take a while, so this waits on CPU time, not clock).
    const pid = t.rt.supervisor('com.test.spin').pid!;
    const ticks = async () => {
      const f = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
      return Number(f[11]) + Number(f[12]);
    };
    const start = await ticks();
    await waitUntil(async () => (await ticks()) - start >= 20, 'the spinner using 20 ticks of CPU', 600);
    const app = await t.rt.decisions.restart('com.test.spin');
    expect(app).toMatchObject({ state: 'running', ready: true, exitSignal: 'SIGKILL' });
    expect(runsOf('com.test.spin')).toBe(2);
  });

  it('survives an app that forges channel messages and floods calls', async () => {
    await writeApp(appsDir, 'com.test.forger', {
      code: homeyApp(
        `async onInit() {
        forge({ type: 'hello', protocol: 2, pid: 1 });
        forge({ type: 'call', id: 'x', method: 'settings.set' });
        forge({ type: 'call', id: 5, method: 'fs.readFile', args: { path: '/etc/shadow' } });
        forge({ type: 'result', id: 424242, result: 'nobody asked' });
        const results = await Promise.allSettled(Array.from({ length: 300 }, (_, i) => this.homey.api.realtime('k' + i, i)));
        const busy = results.filter((r) => r.status === 'rejected' && r.reason.code === 'busy').length;
        const limited = results.filter((r) => r.status === 'rejected' && r.reason.code === 'rate_limited').length;
        const ok = results.filter((r) => r.status === 'fulfilled').length;
        this.homey.settings.set('tally', { total: busy + limited + ok });
      }`,
        FORGE,
      ),
    });
    t = await startRuntime({ appsDir, dataDir });
    const app = await t.until('com.test.forger', (a) => a.ready, 'ready');
    expect(app).toMatchObject({ state: 'running', crashed: false, exitCount: 0 });
    // Each call is answered: done, refused as busy (too many in flight) or past the realtime budget.
    expect(await t.setting('com.test.forger', 'tally')).toEqual({ total: 300 });
    const { stderr } = await t.rt.crashLog('com.test.forger');
    // A second hello, a malformed call, a call of no SDK method, an answer nobody waits for: each
    // refused and counted (far under the budget); the first three are described.
    expect(stderr.match(/hearth: refused a message from the app/g)?.length).toBe(3);
    expect(stderr).toContain('a second hello');
  });

  it('stops an app that writes an oversize message or raw bytes to its channel, before the hub buffers it', async () => {
    await writeApp(appsDir, 'com.test.flood', {
      code: homeyApp(
        `async onInit() {
        const runs = countRun();
        const fs = require('fs');
        if (runs === 1) {
          // A header announcing 1 GiB, then data that never ends.
          const h = Buffer.alloc(4); h.writeUInt32BE(1024 * 1024 * 1024);
          fs.writeSync(3, h);
          const mb = Buffer.alloc(1024 * 1024, 120);
          setInterval(() => { try { fs.writeSync(3, mb); } catch {} }, 1);
        } else if (runs === 2) {
          fs.writeSync(3, 'not a frame at all');
        } else {
          // Through the SDK, a message over the limit is refused in the app, which stays up.
          await this.homey.api.realtime('big', 'x'.repeat(2 * 1024 * 1024)).catch((err) => this.homey.settings.set('refused', err.code + ': ' + err.message));
        }
      }`,
        COUNT_RUNS,
      ),
    });
    t = await startRuntime({ appsDir, dataDir });
    const app = await t.until('com.test.flood', (a) => a.ready && a.exitCount === 2, 'restarted twice');
    expect(app).toMatchObject({ state: 'running', exitSignal: 'SIGKILL', exitCount: 2 });
    expect(runsOf('com.test.flood')).toBe(3);
    expect(await t.setting('com.test.flood', 'refused')).toMatch(
      /^invalid_args: 'api.realtime' could not be sent: a message of \d+ bytes is over the limit of 1048576$/,
    );
    const { stderr, lastCrash } = await t.rt.crashLog('com.test.flood');
    expect(stderr).toContain('its channel to the hub broke (a message of 1073741824 bytes is over the limit of 1048576)');
    expect(stderr).toContain('its channel to the hub broke (a message of 1852797984 bytes is over the limit of 1048576)');
    expect(lastCrash).toMatchObject({ exitSignal: 'SIGKILL' });
  });

  // Counts its runs in a setting; on the first its event loop stops (reads nothing, answers nothing).
  const SPINS_ON_FIRST_RUN = homeyApp(
    `async onInit() {
    if (countRun() === 1) setTimeout(() => { for (;;) {} }, 50);
  }`,
    COUNT_RUNS,
  );

  it("stops an app that leaves the hub's messages unread, before they pile up in the hub", async () => {
    await writeApp(appsDir, 'com.test.deaf', {
      code: SPINS_ON_FIRST_RUN,
    });
    t = await startRuntime({ appsDir, dataDir });
    await t.until('com.test.deaf', (a) => a.ready, 'ready');
    await pause(200, 'the app spinning: nothing reads its channel');
    // Each change is sent to the app: 60 KB at a time, 18 MB in all, past the 16 MiB it may leave unread.
    for (let i = 0; i < 300 && t.rt.supervisor('com.test.deaf').state.exitCount === 0; i++) {
      await t.rt.settings.set('com.test.deaf', 'blob', `${i}`.padEnd(60_000, 'x'));
    }
    const app = await t.until('com.test.deaf', (a) => a.ready && a.exitCount === 1, 'restarted');
    expect(app.exitSignal).toBe('SIGKILL');
    const log = await t.rt.crashLog('com.test.deaf');
    expect(log.lastCrash?.message).toMatch(/^the hub stopped the app: it left \d+ bytes of the hub's messages unread/);
    expect(log.stderr).toMatch(/stopped the app: it left \d+ bytes of the hub's messages unread/);
  });

  it('kills an app whose event loop stops answering pings and restarts it', async () => {
    await writeApp(appsDir, 'com.test.hang', {
      code: SPINS_ON_FIRST_RUN,
    });
    t = await startRuntime({ appsDir, dataDir, supervisor: { pingIntervalMs: 200, callTimeoutMs: 300 } });
    const app = await t.until('com.test.hang', (a) => a.ready && a.exitCount === 1, 'restarted');
    expect(app.exitSignal).toBe('SIGKILL');
    expect(runsOf('com.test.hang')).toBe(2);
    expect((await t.rt.crashLog('com.test.hang')).stderr).toContain('did not answer a ping');
  });
});
