/**
 * The runtime with real child processes: handshake, settings, gc, crash -> backoff -> give up,
 * crash log surviving a restart, broken manifests and failing onInit listed as crashed, and apps
 * starting a core at a time.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StartGate } from '../../src/apps/host/start-gate.js';
import { pause } from '../helpers/poll.js';
import { readStoreDoc } from '../helpers/store-files.js';
import { assertBuilt, homeyApp, removeAll, startRuntime, type TestRuntime, tempDir, writeApp } from './helpers.js';

let appsDir: string;
let dataDir: string;
let t: TestRuntime | undefined;

beforeAll(assertBuilt);
beforeEach(async () => {
  appsDir = await tempDir('hearth-apps-');
  dataDir = await tempDir('hearth-data-');
});
afterEach(async () => {
  await t?.close();
  t = undefined;
  await removeAll(appsDir, dataDir);
});

const HELLO = homeyApp(`
  async onInit() {
    this.log('hello from', this.homey.manifest.id, this.homey.manifest.version);
    this.homey.settings.set('started', true);
    this.homey.settings.on('set', (key) => { if (key === 'ping') this.homey.settings.set('pong', this.homey.settings.get('ping')); });
  }
  async onUninit() { console.log('uninit called'); }`);

describe('app lifecycle', () => {
  it('starts an app through the handshake and shows the App fields', async () => {
    await writeApp(appsDir, 'com.test.hello', { code: HELLO, manifest: { permissions: ['homey:manager:geolocation'] } });
    t = await startRuntime({ appsDir, dataDir });
    const app = await t.until('com.test.hello', (a) => a.ready, 'ready');
    expect(app).toMatchObject({
      id: 'com.test.hello',
      name: 'com.test.hello',
      description: null,
      version: '1.0.0',
      sdk: 3,
      origin: 'local',
      channel: null,
      enabled: true,
      autoupdate: true,
      state: 'running',
      ready: true,
      crashed: false,
      crashedMessage: null,
      exitCount: 0,
      compatible: true,
      incompatibleReason: null,
      unsupported: [],
      permissions: ['homey:manager:geolocation'],
      settings: [],
      settingsPage: false,
    });
    expect(await t.setting('com.test.hello', 'started')).toBe(true);
    expect((await t.rt.crashLog('com.test.hello')).stdout).toMatch(/^\S+Z \[log\] \[TestApp\] hello from com\.test\.hello 1\.0\.0$/m);
    const states = t.events.filter((e) => e.app.id === 'com.test.hello').map((e) => e.app.state);
    expect(states).toContain('starting');
    expect(states.at(-1)).toBe('running');
  });

  it('notifies the app of settings changed through the hub and persists them', async () => {
    await writeApp(appsDir, 'com.test.hello', { code: HELLO });
    t = await startRuntime({ appsDir, dataDir });
    await t.until('com.test.hello', (a) => a.ready, 'ready');
    await t.setting('com.test.hello', 'started');
    await t.rt.settings.set('com.test.hello', 'ping', { n: 42 });
    // The app answers by writing 'pong' through the SDK; wait for that round trip.
    expect(await t.setting('com.test.hello', 'pong')).toEqual({ n: 42 });
    await t.store.flush();
    const db = await readStoreDoc<{ apps: Record<string, { settings: unknown }> }>(dataDir);
    expect(db.apps['com.test.hello']?.settings).toEqual({ started: true, ping: { n: 42 }, pong: { n: 42 } });
  });

  it('refuses a setting larger than 64 KiB', async () => {
    await writeApp(appsDir, 'com.test.hello', { code: HELLO });
    t = await startRuntime({ appsDir, dataDir });
    await expect(t.rt.settings.set('com.test.hello', 'big', 'x'.repeat(70_000))).rejects.toMatchObject({ code: 'invalid_parameter' });
  });

  it('checks values of settings the manifest declares, and leaves others free-form', async () => {
    await writeApp(appsDir, 'com.test.hello', {
      code: HELLO,
      manifest: {
        settings: [
          { id: 'interval', type: 'number', label: 'Interval', min: 5, max: 60 },
          {
            id: 'mode',
            type: 'dropdown',
            label: 'Mode',
            values: [
              { id: 'a', label: 'A' },
              { id: 'b', label: 'B' },
            ],
          },
          { id: 'on', type: 'checkbox', label: 'On' },
        ],
      },
    });
    t = await startRuntime({ appsDir, dataDir });
    await expect(t.rt.settings.set('com.test.hello', 'interval', 'often')).rejects.toMatchObject({ message: "setting 'interval' is a number" });
    await expect(t.rt.settings.set('com.test.hello', 'interval', 1)).rejects.toMatchObject({ message: "setting 'interval' must be at least 5" });
    await expect(t.rt.settings.set('com.test.hello', 'mode', 'c')).rejects.toMatchObject({ message: "setting 'mode' must be one of: a, b" });
    await expect(t.rt.settings.set('com.test.hello', 'on', 'yes')).rejects.toMatchObject({ code: 'invalid_parameter' });
    expect(await t.rt.settings.set('com.test.hello', 'interval', 30)).toBe(30);
    expect(await t.rt.settings.set('com.test.hello', 'mode', 'b')).toBe('b');
    expect(await t.rt.settings.set('com.test.hello', 'anything', { free: ['form'] })).toEqual({ free: ['form'] });
  });

  it('runs gc in the child and reports heap before and after', async () => {
    await writeApp(appsDir, 'com.test.hello', { code: HELLO });
    t = await startRuntime({ appsDir, dataDir });
    await t.until('com.test.hello', (a) => a.ready, 'ready');
    const r = await t.rt.calls.gc('com.test.hello');
    expect(r.before.heapUsed).toBeGreaterThan(0);
    expect(r.after.heapUsed).toBeGreaterThan(0);
    expect(r.after.rss).toBeGreaterThan(1024 * 1024);
  });

  it('samples cpu and memory (PSS) of a running app', async () => {
    // Busy half of every 100 ms: about half a core, which the sample must see (an idle app's 0 proves nothing).
    const busy = homeyApp(`
  async onInit() {
    this.homey.setInterval(() => { const end = Date.now() + 50; while (Date.now() < end); }, 100);
  }`);
    await writeApp(appsDir, 'com.test.busy', { code: busy });
    t = await startRuntime({ appsDir, dataDir });
    const app = await t.until('com.test.busy', (a) => a.usage.mem > 0 && a.usage.cpu > 10, 'sampled busy');
    // PSS: its own pages and its share of those it shares with other node processes (the more
    // of them run, as in a parallel test run, the smaller that share): a few MiB at least.
    expect(app.usage.mem).toBeGreaterThan(4 * 1024 * 1024);
    expect(app.usage.mem).toBeLessThan(512 * 1024 * 1024);
    // A percentage of one core: one thread spinning half the time cannot pass a whole core.
    expect(app.usage.cpu).toBeGreaterThan(10);
    expect(app.usage.cpu).toBeLessThanOrEqual(100);
  });

  it('runs a ready app at nice 10 so a busy app yields the CPU to the hub', async () => {
    await writeApp(appsDir, 'com.test.hello', { code: HELLO });
    t = await startRuntime({ appsDir, dataDir });
    await t.until('com.test.hello', (a) => a.ready, 'ready');
    const pid = t.rt.supervisor('com.test.hello').pid!;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    expect(nice).toBe(10);
  });

  it('stops gracefully through onUninit when disabled, and stays stopped', async () => {
    await writeApp(appsDir, 'com.test.hello', { code: HELLO });
    t = await startRuntime({ appsDir, dataDir });
    await t.until('com.test.hello', (a) => a.ready, 'ready');
    const app = await t.rt.decisions.setEnabled('com.test.hello', false);
    expect(app).toMatchObject({ enabled: false, state: 'stopped', ready: false, crashed: false, exitCode: 0 });
    expect((await t.rt.crashLog('com.test.hello')).stdout).toContain('uninit called');
  });

  it('lists an app with a broken manifest as crashed and still runs the others', async () => {
    await writeApp(appsDir, 'com.test.hello', { code: HELLO });
    await writeApp(appsDir, 'com.test.broken', { code: HELLO, manifest: { sdk: 2, version: 'one' } });
    t = await startRuntime({ appsDir, dataDir });
    await t.until('com.test.hello', (a) => a.ready, 'ready');
    const broken = t.rt.get('com.test.broken');
    expect(broken).toMatchObject({ state: 'stopped', ready: false, crashed: true, version: null });
    expect(broken.crashedMessage).toMatch(/version: must be a semantic version/);
    expect(broken.crashedMessage).toMatch(/sdk: must be 3/);
  });

  it('reports a manifest id that differs from the folder name', async () => {
    await writeApp(appsDir, 'com.test.folder', { code: HELLO, manifest: { id: 'com.test.other' } });
    t = await startRuntime({ appsDir, dataDir });
    expect(t.rt.get('com.test.folder').crashedMessage).toBe("app.json id 'com.test.other' does not match its folder name 'com.test.folder'");
  });

  it('reports an onInit that throws', async () => {
    await writeApp(appsDir, 'com.test.badinit', {
      code: homeyApp(`async onInit() { throw new Error('no config, cannot start'); }`),
    });
    t = await startRuntime({ appsDir, dataDir, supervisor: { crashLimit: 1 } });
    const app = await t.until('com.test.badinit', (a) => a.crashed && a.state === 'stopped', 'crashed');
    expect(app.crashedMessage).toContain('onInit failed: no config, cannot start');
    expect((await t.rt.crashLog('com.test.badinit')).stderr).toContain('no config, cannot start');
  });
});

describe('main modules that are not Homey apps', () => {
  it.each([
    ['an object with onInit (the SDK before Homey)', `module.exports = { async onInit(hub) { hub.log('old'); } };`],
    ['a class that does not extend Homey.App', `module.exports = class { async onInit() {} };`],
    ['nothing', `// forgot the export`],
  ])('refuses %s with a sentence saying what to export', async (_what, code) => {
    await writeApp(appsDir, 'com.test.nothomey', { code });
    t = await startRuntime({ appsDir, dataDir, supervisor: { crashLimit: 1 } });
    const app = await t.until('com.test.nothomey', (a) => a.crashed && a.state === 'stopped', 'crashed');
    expect(app.crashedMessage).toContain(
      `${join(appsDir, 'com.test.nothomey', 'app.js')} must export a class that extends Homey.App (const Homey = require('homey'); module.exports = class MyApp extends Homey.App { ... })`,
    );
  });
});

describe('crashes', () => {
  const CRASHER = homeyApp(`
  async onInit() {
    this.log('up');
    setTimeout(() => { throw new Error('boom-marker-7f3a'); }, 20);
  }`);

  it('restarts a crashing app with backoff, then holds it crashed', async () => {
    await writeApp(appsDir, 'com.test.crasher', { code: CRASHER });
    const started = Date.now();
    t = await startRuntime({ appsDir, dataDir, supervisor: { crashLimit: 3, backoffBaseMs: 150, backoffMaxMs: 250 } });
    const app = await t.until('com.test.crasher', (a) => a.crashed && a.exitCount >= 3 && a.state === 'stopped', 'held');
    // The delays double from the base up to the maximum, as configured; the third crash holds.
    const { stderr } = await t.rt.crashLog('com.test.crasher');
    expect([...stderr.matchAll(/restarting in (\d+) ms/g)].map((m) => Number(m[1]))).toEqual([150, 250]);
    expect(stderr.match(/not restarting until enabled or restarted\)\n/g)).toHaveLength(1);
    // A lower bound only (a slow machine can only make it longer): the restarts waited.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(app.exitCount).toBe(3);
    expect(app.exitCode).toBe(1);
    expect(app.crashedMessage).toContain('boom-marker-7f3a');
    expect(app.crashedMessage).toContain('crashed 3 times');
    // Three runs: each started and became ready before crashing.
    const states = t.events.filter((e) => e.app.id === 'com.test.crasher').map((e) => e.app.state);
    const readies = states.filter((s, i) => s === 'running' && states[i - 1] !== 'running').length;
    expect(readies).toBe(3);
    await pause(600, 'longer than the backoff: held, no fourth start follows');
    expect(t.rt.get('com.test.crasher')).toMatchObject({ state: 'stopped', crashed: true, exitCount: 3 });
  });

  it('keeps the crash log on disk across a runtime restart', async () => {
    await writeApp(appsDir, 'com.test.crasher', { code: CRASHER });
    t = await startRuntime({ appsDir, dataDir, supervisor: { crashLimit: 1 } });
    await t.until('com.test.crasher', (a) => a.crashed && a.state === 'stopped', 'crashed');
    await t.rt.decisions.setEnabled('com.test.crasher', false);
    await t.close();
    const onDisk = await readFile(join(dataDir, 'apps/com.test.crasher/stderr.log'), 'utf8');
    expect(onDisk).toContain('boom-marker-7f3a');
    expect(onDisk).toMatch(/at Timeout\._onTimeout/);

    t = await startRuntime({ appsDir, dataDir, supervisor: { crashLimit: 1 } });
    const log = await t.rt.crashLog('com.test.crasher', 'it crashed while I was away');
    expect(log.stderr).toContain('Error: boom-marker-7f3a');
    expect(log.stdout).toContain('up');
    expect(log.lastCrash).toMatchObject({ exitCode: 1, exitSignal: null });
    expect(String((log.lastCrash as { message: string }).message)).toContain('boom-marker-7f3a');
    expect(log.reports).toEqual([expect.objectContaining({ message: 'it crashed while I was away' })]);
  });

  it('gives a held app a fresh start on restart', async () => {
    await writeApp(appsDir, 'com.test.crasher', { code: CRASHER });
    t = await startRuntime({ appsDir, dataDir, supervisor: { crashLimit: 1 } });
    await t.until('com.test.crasher', (a) => a.crashed && a.state === 'stopped', 'held');
    const before = t.events.length;
    await t.rt.decisions.restart('com.test.crasher');
    const after = t.events.slice(before).map((e) => e.app.state);
    expect(after).toContain('starting');
    expect(after).toContain('running');
  });
});

/**
 * Apps start a few at a time (one a core by default): more forked at once on a small board share
 * its cores, and each one's start timeout runs out while it waits for them (seen under arm
 * emulation: five apps after an upgrade missed their 15 s, together, again and again). Apps here
 * hold their onInit until the test says go, so who has begun shows who has a turn.
 */
describe('start turns', () => {
  /** Says it began, then finishes its onInit only when its setting `go` is set. */
  const HELD = homeyApp(`
    async onInit() {
      this.homey.settings.set('began', true);
      await new Promise((resolve) => this.homey.settings.on('set', (key) => { if (key === 'go') resolve(); }));
    }`);
  const IDS = ['com.test.first', 'com.test.second', 'com.test.third'];

  async function began(): Promise<string[]> {
    return IDS.filter((id) => t?.rt.settings.get(id, 'began') === true);
  }

  it('starts two apps at a time with two turns: the third forks only when one of them is ready', async () => {
    for (const id of IDS) await writeApp(appsDir, id, { code: HELD });
    t = await startRuntime({ appsDir, dataDir, supervisor: { startsAtOnce: 2 } });
    const [a, b] = await waitBegun(2);
    await pause(1_500, 'time enough for a third fork to begin if it were let');
    expect((await began()).length).toBe(2);
    // All three show starting: the waiting one too, as a person would say of it.
    expect(IDS.map((id) => t?.rt.get(id).state)).toEqual(['starting', 'starting', 'starting']);

    await t.rt.settings.set(a!, 'go', true);
    await t.until(a!, (app) => app.ready, 'ready');
    const third = IDS.find((id) => id !== a && id !== b)!;
    await t.setting(third, 'began');
    for (const id of [b!, third]) await t.rt.settings.set(id, 'go', true);
    for (const id of IDS) await t.until(id, (app) => app.ready, 'ready');
  });

  it('an app stopped while it waits for its turn stops at once and takes no turn', async () => {
    for (const id of IDS) await writeApp(appsDir, id, { code: HELD });
    t = await startRuntime({ appsDir, dataDir, supervisor: { startsAtOnce: 1 } });
    const [first] = await waitBegun(1);
    const waiting = IDS.filter((id) => id !== first);
    await t.rt.pause(waiting[0]!);
    expect(t.rt.get(waiting[0]!)).toMatchObject({ state: 'stopped', ready: false, crashed: false });
    await t.rt.settings.set(first!, 'go', true);
    // The turn passes to the one still wanted, not the one paused.
    await t.setting(waiting[1]!, 'began');
    await t.rt.settings.set(waiting[1]!, 'go', true);
    await t.until(waiting[1]!, (app) => app.ready, 'ready');
    expect(t.rt.settings.get(waiting[0]!, 'began')).toBeNull();
    expect(t.rt.get(waiting[0]!).state).toBe('stopped');
  });

  it('the gate frees a turn once however often it is released, and refuses no slots', async () => {
    expect(() => new StartGate(0)).toThrow('an app start gate needs at least one slot, not 0');
    const gate = new StartGate(1);
    const release = await gate.enter(new AbortController().signal);
    const waits = [gate.enter(new AbortController().signal), gate.enter(new AbortController().signal)];
    expect(gate.queued).toBe(2);
    release!();
    release!();
    const second = await waits[0]!;
    expect(gate.queued).toBe(1);
    second!();
    expect(typeof (await waits[1])).toBe('function');
  });

  async function waitBegun(n: number): Promise<string[]> {
    for (let i = 0; i < 600; i++) {
      const now = await began();
      if (now.length >= n) return now;
      await pause(50, 'the apps forking');
    }
    throw new Error(`${n} apps never began: ${JSON.stringify(await began())}`);
  }
});
