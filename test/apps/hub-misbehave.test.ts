/**
 * Misbehaving apps under a real hub: a crash loop held after backoff with its stack surviving
 * a hub restart, heap exhaustion, a CPU spinner that ignores SIGTERM, a sandbox probe, and a
 * hub that keeps answering through all of it. Plus store install from an http catalogue.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packApp } from '../../src/apps/catalogue/pack.js';
import { type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll, waitUntil } from '../helpers/poll.js';
import { assertBuilt, homeyApp, listApps, removeAll, serveFolder, writeApp } from './helpers.js';

type App = { id: string; state: string; ready: boolean; crashed: boolean; crashedMessage: string | null; exitCount: number; exitSignal: string | null };

const dirs: string[] = [];
let hubs: RunningHub[] = [];
beforeAll(assertBuilt);
afterEach(async () => {
  for (const h of hubs) await h.cleanup();
  hubs = [];
  await removeAll(...dirs.splice(0));
});

async function dir(prefix: string): Promise<string> {
  const d = await tempDir(prefix);
  dirs.push(d);
  return d;
}

async function hubWith(opts: Parameters<typeof startHub>[0]): Promise<RunningHub> {
  const h = await startHub(opts);
  hubs.push(h);
  return h;
}

async function until(hub: RunningHub, id: string, ok: (a: App) => boolean, what: string, tries = 600): Promise<App> {
  return poll(async () => (await hub.call<App>('GET', `/api/manager/apps/app/${id}`)).body, ok, `${id} becoming ${what}`, tries);
}

describe('misbehaving apps under a real hub', () => {
  it('holds a crash-looping app after backoff; its stack is in the crash log after a hub restart', async () => {
    const appsDir = await dir('hearth-apps-');
    const dataDir = await dir('hearth-data-');
    await writeApp(appsDir, 'com.test.crasher', {
      code: homeyApp(`async onInit() { setTimeout(function explode() { throw new Error('kaboom-4d2c'); }, 20); }`),
    });
    let hub = await hubWith({ appsDir, dataDir });
    const held = await until(hub, 'com.test.crasher', (a) => a.crashed && a.exitCount >= 5 && a.state === 'stopped', 'held');
    expect(held.exitCount).toBe(5);
    expect(held.crashedMessage).toContain('kaboom-4d2c');
    expect(held.crashedMessage).toContain('not restarting until enabled or restarted');
    // Disable so the next hub does not start it again: what the crash log shows is from before.
    expect((await hub.call('PUT', '/api/manager/apps/app/com.test.crasher/disable')).status).toBe(200);
    expect(await hub.stop()).toBe(0);

    hub = await hubWith({ appsDir, dataDir });
    // Disabling is persisted: the new hub leaves it stopped.
    expect((await hub.call<App & { enabled: boolean }>('GET', '/api/manager/apps/app/com.test.crasher')).body).toMatchObject({
      enabled: false,
      state: 'stopped',
    });
    const log = await hub.call<{ stderr: string; lastCrash: { message: string; exitCode: number } }>('POST', '/api/manager/apps/app/com.test.crasher/crashlog');
    expect(log.status).toBe(200);
    expect(log.body.stderr).toContain('Error: kaboom-4d2c');
    expect(log.body.stderr).toMatch(/at (Timeout\.)?explode/);
    expect(log.body.lastCrash).toMatchObject({ exitCode: 1 });
    expect(log.body.lastCrash.message).toContain('kaboom-4d2c');
  }, 60_000);

  it('stops an app that floods its channel with well-framed messages the protocol refuses; the hub answers throughout', async () => {
    const appsDir = await dir('hearth-apps-');
    await writeApp(appsDir, 'com.test.garbage', {
      code: `const { writeSync } = require('node:fs');
      const frame = (m) => { const b = Buffer.from(JSON.stringify(m)); const h = Buffer.alloc(4); h.writeUInt32BE(b.length); return Buffer.concat([h, b]); };
      const batch = Buffer.concat(Array.from({ length: 2000 }, (_, i) => frame({ type: 'nonsense', id: i, junk: 'x'.repeat(20) })));
      module.exports = class extends require('homey').App { async onInit() {
        setTimeout(function flood() { try { for (let i = 0; i < 50; i++) writeSync(3, batch); } catch { return; } setImmediate(flood); }, 50);
      } };`,
    });
    const hub = await hubWith({ appsDir });
    const log = await poll(
      async () => {
        // The hub answers all along, while the app floods it.
        expect((await hub.call('GET', '/api/manager/system/ping', { token: null })).status).toBe(200);
        return (await hub.call<{ stderr: string }>('POST', '/api/manager/apps/app/com.test.garbage/crashlog')).body;
      },
      (l) => l.stderr.includes('stopped the app'),
      'the crash log saying the app was stopped',
      600,
    );
    expect(log.stderr).toContain(
      "hearth: stopped the app: it sent more than 100 messages the hub's protocol refuses within 60 s (the first: a malformed message",
    );
    // Only the first few refusals are written out, not one line per message.
    expect(log?.stderr.match(/refused a message from the app/g)?.length).toBeLessThanOrEqual(3 * 5);
    // The hub closes the channel, then SIGKILLs the app; under load the app may see its channel
    // close first and exit on its own (as it does when its hub goes), so how it ended varies; that
    // the hub stopped it is the crash log's line above.
    const app = await until(hub, 'com.test.garbage', (a) => a.exitCount >= 1, 'stopped');
    expect(app.exitCount).toBeGreaterThanOrEqual(1);
    expect((await hub.call('GET', '/api/manager/i18n/state')).status).toBe(200);
  }, 60_000);

  it('stops an app at its heap limit, kills a spinner that ignores SIGTERM, and keeps answering', { timeout: 120_000 }, async () => {
    const appsDir = await dir('hearth-apps-');
    await writeApp(appsDir, 'com.test.hog', {
      code: homeyApp(`async onInit() { const keep = []; setInterval(() => { for (let i = 0; i < 20000; i++) keep.push({ i, s: 'x'.repeat(64) + i }); }, 1); }`),
    });
    await writeApp(appsDir, 'com.test.spin', {
      code: homeyApp(`async onInit() { process.on('SIGTERM', () => {}); setTimeout(() => { for (;;) {} }, 100); }`),
    });
    const hub = await hubWith({ appsDir, args: ['--app-heap-mb', '32'] });
    const hog = await until(hub, 'com.test.hog', (a) => a.exitSignal === 'SIGABRT', 'killed at its heap limit');
    expect(hog.crashedMessage).toContain('its JavaScript heap reached its limit of 32 MiB');
    const std = await hub.call<{ stderr: string }>('POST', '/api/manager/apps/app/com.test.hog/crashlog');
    // V8 words it 'Reached heap limit' or, when a scavenge cannot promote, 'young object promotion
    // failed'; both end the same way.
    expect(std.body.stderr).toContain('JavaScript heap out of memory');

    // The hub answers every request while one app spins and another keeps blowing its heap.
    const answers = await Promise.all(Array.from({ length: 40 }, () => hub.call('GET', '/api/manager/apps/app')));
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));

    // Restart only once it is surely in its loop: CPU used after ready (an idle app shows 0).
    await until(hub, 'com.test.spin', (a) => a.ready && (a as App & { usage: { cpu: number } }).usage.cpu > 0.5, 'spinning', 1200);
    const restarted = await hub.call<App>('POST', '/api/manager/apps/app/com.test.spin/restart');
    expect(restarted.status).toBe(200);
    expect(restarted.body).toMatchObject({ state: 'running', ready: true, exitSignal: 'SIGKILL' });
  });

  it("refuses an app's reads of the hub's db.json and owner token", async () => {
    const appsDir = await dir('hearth-apps-');
    const dataDir = await dir('hearth-data-');
    await writeApp(appsDir, 'com.test.probe', {
      code: homeyApp(
        `async onInit() { this.homey.settings.set('r', {
          db: t(${JSON.stringify(join(dataDir, 'db.json'))}),
          owner: t(${JSON.stringify(join(dataDir, 'owner-token'))}),
          spawn: (() => { try { require('node:child_process').spawnSync('id'); return 'spawned'; } catch (e) { return e.code; } })(),
        }); }`,
        `const fs = require('node:fs');
        const t = (f) => { try { fs.readFileSync(f); return 'read'; } catch (e) { return e.code; } };`,
      ),
    });
    const hub = await hubWith({ appsDir, dataDir, ownerToken: null });
    const owner = (await readFile(join(dataDir, 'owner-token'), 'utf8')).trim();
    const r = await poll(
      () => hub.call('GET', '/api/manager/apps/app/com.test.probe/setting/r', { token: owner }),
      (a) => a.status === 200,
      'the probe app to record what it was refused',
      200,
    );
    expect(r.body).toEqual({ db: 'ERR_ACCESS_DENIED', owner: 'ERR_ACCESS_DENIED', spawn: 'ERR_ACCESS_DENIED' });
  });
});

describe('start', () => {
  it('listens without waiting for an app whose onInit hangs, then times the start out', { timeout: 60_000 }, async () => {
    const appsDir = await dir('hearth-apps-');
    await writeApp(appsDir, 'com.test.hang', { code: homeyApp(`onInit() { return new Promise(() => {}); }`) });
    const hub = await hubWith({ appsDir });
    expect((await hub.call<App>('GET', '/api/manager/apps/app/com.test.hang')).body).toMatchObject({ state: 'starting', ready: false });
    const app = await until(hub, 'com.test.hang', (a) => a.crashed, 'timed out', 800);
    expect(app.crashedMessage).toBe('the app did not finish starting (onInit) within 15000 ms');
  });
});

describe('orphans', () => {
  // With the permission model alone the app notices its channel close; in namespaces bubblewrap
  // ends it with the hub (test/apps/leftovers.test.ts), and its pid is not the host's to poll here.
  it('an app exits by itself when the hub is SIGKILLed (permission model alone)', async () => {
    const appsDir = await dir('hearth-apps-');
    const dataDir = await dir('hearth-data-');
    await writeApp(appsDir, 'com.test.orphan', {
      code: homeyApp(`async onInit() {
        require('node:fs').writeFileSync(require('node:path').join(this.homey.tmpdir, 'pid'), String(process.pid));
        setInterval(() => {}, 1000);
      }`),
    });
    const hub = await hubWith({ appsDir, dataDir, args: ['--app-sandbox', 'off'] });
    await until(hub, 'com.test.orphan', (a) => a.ready, 'ready');
    const pid = Number(await readFile(join(dataDir, 'apps/com.test.orphan/userdata/pid'), 'utf8'));
    expect(() => process.kill(pid, 0)).not.toThrow();
    await hub.kill('SIGKILL');
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await waitUntil(() => !alive(), 'the orphan gone with the hub', 200);
    expect(alive()).toBe(false);
  });
});

describe('store install from an http catalogue', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
    server = undefined;
  });

  it('installs from the served catalogue and refuses tampered packages, leaving nothing', async () => {
    const storeDir = await dir('hearth-store-');
    const srcDir = await dir('hearth-src-');
    const appsDir = await dir('hearth-apps-');
    const folder = await writeApp(srcDir, 'com.test.remote', { code: homeyApp(`async onInit() { this.log('remote up'); }`) });
    await packApp(folder, storeDir);
    const served = await serveFolder(storeDir);
    server = served.server;
    const url = served.url;
    const hub = await hubWith({ appsDir, args: ['--store', url] });

    const ok = await hub.call<App>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.remote', channel: 'stable' } });
    expect(ok).toMatchObject({ status: 200, body: { id: 'com.test.remote', state: 'running' } });

    // Same version, tampered bytes: the catalogue's checksum no longer matches.
    const pkg = join(storeDir, 'com.test.remote-1.0.0.tar.gz');
    const bytes = await readFile(pkg);
    const at = bytes.length - 10;
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0xff, at);
    await writeFile(pkg, bytes);
    const bad = await hub.call<{ error: string; error_description: string }>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.remote' } });
    expect(bad.status).toBe(502);
    expect(bad.body.error_description).toContain('failed its checksum');
    expect(await listApps(appsDir)).toEqual(['com.test.remote']);
    // The installed version kept running through the refused upgrade.
    expect((await hub.call<App>('GET', '/api/manager/apps/app/com.test.remote')).body).toMatchObject({ state: 'running' });
  });
});
