/**
 * The apps operations against a real hub process with real app children: every operation,
 * events on the apps namespace, store install, the SDK reaching other managers, and the
 * crash/heap/sandbox behaviour seen from the API.
 */
import { spawn } from 'node:child_process';
import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packApp } from '../../src/apps/catalogue/pack.js';
import { type EventClient, openEvents } from '../helpers/events.js';
import { CLI, OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { readStoreDoc } from '../helpers/store-files.js';
import { assertBuilt, homeyApp, removeAll, writeApp } from './helpers.js';

type App = Record<string, unknown> & { id: string; state: string; ready: boolean; crashed: boolean; crashedMessage: string | null };

const ECHO = homeyApp(`
  async onInit() {
    const { settings, geolocation } = this.homey;
    this.log('echo app up in', this.homey.i18n.getLanguage(), this.homey.__('hello'));
    settings.on('set', (key) => { if (key === 'say') settings.set('echo', { value: settings.get('say'), text: this.homey.__('hello') }); });
    settings.on('unset', (key) => { if (key === 'say') settings.set('echo', 'unset'); });
    const log = await this.homey.insights.createLog('counter', { title: 'Counter', type: 'number', decimals: 0 });
    await log.createEntry(7);
    const where = () => settings.set('geo', { latitude: geolocation.getLatitude() ?? null, longitude: geolocation.getLongitude() ?? null });
    where();
    geolocation.on('location', where);
  }`);

describe('apps operations on a real hub', () => {
  let hub: RunningHub;
  let appsDir: string;
  let srcDir: string;
  let events: EventClient;
  const app = async (id: string) => (await hub.call<App>('GET', `/api/manager/apps/app/${id}`)).body;

  beforeAll(async () => {
    assertBuilt();
    appsDir = await tempDir('hearth-apps-');
    srcDir = await tempDir('hearth-src-');
    await writeApp(appsDir, 'com.test.echo', {
      code: ECHO,
      manifest: {
        permissions: ['homey:manager:geolocation'],
        settings: [{ id: 'say', type: 'text', title: { en: 'Say' } }],
      },
      files: { 'locales/en.json': '{"hello": "Hello"}', 'locales/nl.json': '{"hello": "Hallo"}' },
    });
    await writeApp(appsDir, 'com.test.broken', { code: '', manifest: { sdk: 1 } });
    await writeApp(appsDir, 'com.test.driver', {
      code: homeyApp(''),
      manifest: { drivers: [{ id: 'socket', name: { en: 'Socket' }, connectivity: ['zigbee'] }] },
    });
    await writeApp(appsDir, 'com.test.flowy', {
      code: homeyApp(''),
      manifest: { flow: { actions: [{ id: 'ring', title: { en: 'Ring' } }] }, permissions: ['homey:manager:ledring'] },
    });
    hub = await startHub({ appsDir });
    events = await openEvents(hub.wsUrl, 'apps', 'hth_test-owner-token-0123456789abcdef0123456789abcdef');
    await poll(
      () => app('com.test.echo'),
      (a) => a.ready,
      'echo ready',
    );
  });
  afterAll(async () => {
    events?.close();
    await hub?.cleanup();
    await removeAll(appsDir, srcDir);
  });

  it('lists apps with their fields, broken ones as crashed, incompatible ones as stopped with the reason', async () => {
    await poll(
      () => app('com.test.flowy'),
      (a) => a.ready,
      'flowy ready',
    );
    const r = await hub.call<Record<string, App>>('GET', '/api/manager/apps/app/');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['com.test.broken', 'com.test.driver', 'com.test.echo', 'com.test.flowy']);
    expect(r.body['com.test.echo']).toMatchObject({
      state: 'running',
      ready: true,
      crashed: false,
      version: '1.0.0',
      sdk: 3,
      origin: 'local',
      enabled: true,
      description: null,
      compatible: true,
      incompatibleReason: null,
      unsupported: [],
      permissions: ['homey:manager:geolocation'],
      settingsPage: false,
    });
    expect(r.body['com.test.echo']!.settings).toEqual([{ id: 'say', type: 'text', label: { en: 'Say' } }]);
    expect(r.body['com.test.broken']).toMatchObject({
      state: 'stopped',
      crashed: true,
      crashedMessage: 'app.json sdk: must be 3 (the SDK version this hub runs)',
    });
    expect(r.body['com.test.driver']).toMatchObject({
      state: 'stopped',
      ready: false,
      crashed: false,
      compatible: false,
      incompatibleReason: 'every driver it declares needs a radio (zigbee), and hearth has none',
    });
    expect(r.body['com.test.flowy']).toMatchObject({
      state: 'running',
      compatible: true,
      unsupported: ['permission homey:manager:ledring: hearth has no LED ring'],
    });
    expect((await hub.call('GET', '/api/manager/apps/app/com.test.nope')).status).toBe(404);
  });

  it('serves the SDK: insights through the insights manager, geolocation and i18n from options', async () => {
    // Insights batches entries (committed within 2 s): wait for the app's entry to land.
    const logs = await poll(
      () => hub.call<Record<string, { lastValue: unknown }>>('GET', '/api/manager/insights/log'),
      (r) => r.body['homey:app:com.test.echo:counter']?.lastValue === 7,
      'the entry written through the SDK',
    );
    expect(logs.body['homey:app:com.test.echo:counter']).toMatchObject({ lastValue: 7, uri: 'homey:app:com.test.echo' });
    const geo = () => hub.call('GET', '/api/manager/apps/app/com.test.echo/setting/geo');
    expect((await poll(geo, (r) => r.status === 200, 'geo written at start')).body).toEqual({ latitude: null, longitude: null });
    // The running app hears of the new location; a restarted one starts with it.
    const location = { latitude: 52.09, longitude: 5.12 };
    expect((await hub.call('PUT', '/api/manager/geolocation/option/location', { body: { value: location } })).status).toBe(200);
    await poll(geo, (r) => JSON.stringify(r.body) === JSON.stringify(location), 'the new location in the running app');
    expect((await hub.call('DELETE', '/api/manager/apps/app/com.test.echo/setting/geo')).status).toBe(204);
    expect((await hub.call('POST', '/api/manager/apps/app/com.test.echo/restart')).status).toBe(200);
    expect((await poll(geo, (r) => r.status === 200, 'geo written at the restart')).body).toEqual(location);
  });

  it('reads locales keyed by language', async () => {
    const r = await hub.call('GET', '/api/manager/apps/app/com.test.echo/locale');
    expect(r).toMatchObject({ status: 200, body: { en: { hello: 'Hello' }, nl: { hello: 'Hallo' } } });
  });

  it('sets, reads and unsets settings, and the app hears about it', async () => {
    const put = await hub.call('PUT', '/api/manager/apps/app/com.test.echo/setting/say', { body: { value: 'hi there' } });
    expect(put).toMatchObject({ status: 200, body: 'hi there' });
    const echo = await poll(
      () => hub.call('GET', '/api/manager/apps/app/com.test.echo/setting/echo'),
      (r) => r.status === 200,
      'echo written by the app',
    );
    expect(echo.body).toEqual({ value: 'hi there', text: 'Hello' });
    const all = await hub.call<Record<string, unknown>>('GET', '/api/manager/apps/app/com.test.echo/setting');
    expect(all.body).toMatchObject({ say: 'hi there', echo: { value: 'hi there', text: 'Hello' } });
    expect((await hub.call('DELETE', '/api/manager/apps/app/com.test.echo/setting/say')).status).toBe(204);
    await poll(
      () => hub.call('GET', '/api/manager/apps/app/com.test.echo/setting/echo'),
      (r) => r.body === 'unset',
      'unset heard',
    );
    const missing = await hub.call<{ error: string }>('GET', '/api/manager/apps/app/com.test.echo/setting/say');
    expect(missing).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect((await hub.call('DELETE', '/api/manager/apps/app/com.test.echo/setting/say')).status).toBe(404);
    const big = await hub.call<{ error_description: string }>('PUT', '/api/manager/apps/app/com.test.echo/setting/big', {
      body: { value: 'x'.repeat(70_000) },
    });
    expect(big.status).toBe(400);
    expect(big.body.error_description).toContain('larger than 64 KiB');
  });

  it('changes the language of running apps when the hub language changes', async () => {
    expect((await hub.call('PUT', '/api/manager/i18n/option/language', { body: { value: 'nl' } })).status).toBe(200);
    await hub.call('PUT', '/api/manager/apps/app/com.test.echo/setting/say', { body: { value: 'nog eens' } });
    const echo = await poll(
      () => hub.call<{ text?: string }>('GET', '/api/manager/apps/app/com.test.echo/setting/echo'),
      (r) => (r.body as { value?: string }).value === 'nog eens',
      'echo in Dutch',
    );
    expect(echo.body).toEqual({ value: 'nog eens', text: 'Hallo' });
    await hub.call('DELETE', '/api/manager/i18n/option/language');
  });

  it('disables, enables and restarts, publishing app.update events', async () => {
    const off = await hub.call<App>('PUT', '/api/manager/apps/app/com.test.echo/disable');
    expect(off.body).toMatchObject({ enabled: false, state: 'stopped', ready: false });
    await events.next((f) => f.event === 'app.update' && (f.args[0] as App).id === 'com.test.echo' && (f.args[0] as App).state === 'stopped');
    const on = await hub.call<App>('PUT', '/api/manager/apps/app/com.test.echo/enable');
    expect(on.body).toMatchObject({ enabled: true, state: 'running', ready: true });
    const restarted = await hub.call<App>('POST', '/api/manager/apps/app/com.test.echo/restart');
    expect(restarted.body).toMatchObject({ state: 'running', ready: true });
    const broken = await hub.call<{ error: string }>('POST', '/api/manager/apps/app/com.test.broken/restart');
    expect(broken).toMatchObject({ status: 409, body: { error: 'conflict' } });
    // Restart reads the folder as it is now, as `homey app run` does: the fixed app starts...
    await writeApp(appsDir, 'com.test.broken', { code: homeyApp('') });
    const fixed = await hub.call<App>('POST', '/api/manager/apps/app/com.test.broken/restart');
    expect(fixed.body).toMatchObject({ state: 'running', crashed: false });
    // ...and, broken another way, it stops and says what is wrong with the file now.
    await writeApp(appsDir, 'com.test.broken', { code: '', manifest: { sdk: 1, version: 'one' } });
    const again = await hub.call<{ error_description: string }>('POST', '/api/manager/apps/app/com.test.broken/restart');
    expect(again.status).toBe(409);
    expect(again.body.error_description).toMatch(/^app 'com.test.broken' cannot start: app.json version: .*\(its folder as it is now\)$/);
    await poll(
      () => app('com.test.broken'),
      (a) => a.state === 'stopped' && /version/.test(a.crashedMessage ?? ''),
      'the re-broken app to be stopped with its new error',
    );
    await writeApp(appsDir, 'com.test.broken', { code: '', manifest: { sdk: 1 } });
    await hub.call('POST', '/api/manager/apps/app/com.test.broken/restart');
    const driver = await hub.call<{ error: string; error_description: string }>('POST', '/api/manager/apps/app/com.test.driver/restart');
    expect(driver).toMatchObject({
      status: 409,
      body: { error: 'conflict', error_description: expect.stringContaining('cannot start: every driver it declares needs a radio (zigbee)') },
    });
  });

  it('runs gc in the app and answers 409 for an app that is not running', async () => {
    const gc = await hub.call<{ before: { heapUsed: number }; after: { heapUsed: number } }>('POST', '/api/manager/apps/app/com.test.echo/gc');
    expect(gc.status).toBe(200);
    expect(gc.body.before.heapUsed).toBeGreaterThan(0);
    expect(gc.body.after.heapUsed).toBeGreaterThan(0);
    expect((await hub.call('POST', '/api/manager/apps/app/com.test.broken/gc')).status).toBe(409);
  });

  it('returns the crash log and records the caller message', async () => {
    const r = await hub.call<{ stdout: string; stderr: string; reports: Array<{ message: string }> }>('POST', '/api/manager/apps/app/com.test.echo/crashlog', {
      body: { message: 'looks fine to me' },
    });
    expect(r.status).toBe(200);
    expect(r.body.stdout).toContain('echo app up in en Hello');
    expect(r.body.reports.map((x) => x.message)).toEqual(['looks fine to me']);
  });

  it('follows the output from a cursor, through the API and hearth app log --follow, as homey app run streams it', async () => {
    type Part = { text: string; next: number; skipped: number };
    const read = (cursors = '') => hub.call<{ state: string; stdout: Part; stderr: Part }>('GET', `/api/manager/apps/app/com.test.echo/log${cursors}`);
    const all = await read();
    expect(all.status).toBe(200);
    expect(all.body.stdout.text).toContain('echo app up in');
    expect(all.body.stdout.next).toBeGreaterThan(0);
    const at = `?stdout=${all.body.stdout.next}&stderr=${all.body.stderr.next}`;
    expect((await read(at)).body.stdout).toEqual({ text: '', next: all.body.stdout.next, skipped: 0 });
    expect((await read('?stdout=minus')).status).toBe(400);

    const cli = spawn(process.execPath, [CLI, 'app', 'log', 'com.test.echo', '--follow', '--port', String(hub.port)], {
      env: { PATH: process.env.PATH, HEARTH_TOKEN: OWNER },
    });
    let printed = '';
    cli.stdout.on('data', (c: Buffer) => {
      printed += c.toString();
    });
    try {
      await poll(
        async () => printed,
        (p) => p.includes('echo app up in'),
        'the CLI to print what the app wrote',
      );
      expect((await hub.call('POST', '/api/manager/apps/app/com.test.echo/restart')).status).toBe(200);
      // Only what the new run wrote comes after the cursor, once.
      const since = await poll(
        () => read(at),
        (r) => r.body.stdout.text.includes('echo app up in'),
        'the restarted app to write',
      );
      expect(since.body.stdout.text.match(/echo app up in/g)).toHaveLength(1);
      expect(since.body.stdout.text).toMatch(/^--- \S+ starting com\.test\.echo@1\.0\.0 ---\n/);
      const followed = await poll(
        async () => printed,
        (p) => (p.match(/echo app up in/g) ?? []).length >= 2,
        'the CLI to follow the restarted app',
      );
      expect(followed.match(/starting com\.test\.echo/g)!.length).toBeGreaterThanOrEqual(2);
    } finally {
      cli.kill();
    }
  });

  it('updates autoupdate and network only, naming read-only fields', async () => {
    const current = await app('com.test.echo');
    const ok = await hub.call<App>('PUT', '/api/manager/apps/app/com.test.echo', { body: { ...current, autoupdate: false } });
    expect(ok).toMatchObject({ status: 200, body: { autoupdate: false } });
    const wrapped = await hub.call<App>('PUT', '/api/manager/apps/app/com.test.echo', { body: { app: { autoupdate: true } } });
    expect(wrapped.body).toMatchObject({ autoupdate: true });
    const bad = await hub.call<{ error_description: string }>('PUT', '/api/manager/apps/app/com.test.echo', { body: { name: 'Mine', version: '9.9.9' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toBe('only autoupdate and network can be changed; read-only or unknown fields: name, version');
  });

  it('installs from the default local store, then uninstalls with purge', async () => {
    const folder = await writeApp(srcDir, 'com.test.shop', {
      code: homeyApp(`async onInit() { this.log('shop'); }`),
      manifest: { name: { en: 'Shop', nl: 'Winkel' }, description: { en: 'Sells things' } },
    });
    await packApp(folder, join(hub.dataDir, 'store'));
    const listed = () => hub.call<{ location: string; apps: Record<string, unknown> }>('GET', '/api/manager/apps/store');
    const shop = {
      id: 'com.test.shop',
      name: 'Shop',
      description: 'Sells things',
      icon: null,
      brandColor: null,
      channels: { stable: { version: '1.0.0', permissions: [], network: false } },
    };
    expect(await listed()).toMatchObject({
      status: 200,
      body: { location: join(hub.dataDir, 'store'), apps: { 'com.test.shop': { ...shop, installed: null } } },
    });
    const r = await hub.call<App>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.shop' } });
    expect((await listed()).body.apps['com.test.shop']).toEqual({ ...shop, installed: { version: '1.0.0', channel: 'stable' } });
    expect(r).toMatchObject({ status: 200, body: { id: 'com.test.shop', origin: 'appstore', channel: 'stable', state: 'running' } });
    await events.next((f) => f.event === 'app.create' && (f.args[0] as App).id === 'com.test.shop');
    await hub.call('PUT', '/api/manager/apps/app/com.test.shop/setting/k', { body: { value: 1 } });
    expect((await hub.call('POST', '/api/manager/apps/store', { body: { id: 'com.test.none' } })).status).toBe(404);

    expect((await hub.call('DELETE', '/api/manager/apps/app/com.test.shop?purgeSettings=true')).status).toBe(204);
    await events.next((f) => f.event === 'app.delete' && (f.args[0] as App).id === 'com.test.shop');
    expect((await hub.call('GET', '/api/manager/apps/app/com.test.shop')).status).toBe(404);
    await expect(stat(join(appsDir, 'com.test.shop'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(join(hub.dataDir, 'apps/com.test.shop'))).rejects.toMatchObject({ code: 'ENOENT' });
    const db = await readStoreDoc<{ apps: Record<string, unknown> }>(hub.dataDir);
    expect(db.apps['com.test.shop']).toBeUndefined();
  });

  it("refuses a store install over a local app, and an uninstall keeps a local app's folder aside", async () => {
    const folder = await writeApp(srcDir, 'com.test.mine', { code: homeyApp(`async onInit() { this.log('mine'); }`) });
    await packApp(folder, join(hub.dataDir, 'store'));
    await cp(folder, join(appsDir, 'com.test.mine'), { recursive: true });
    await poll(
      () => hub.call<App>('GET', '/api/manager/apps/app/com.test.mine'),
      (r) => r.status === 200 && r.body.state === 'running',
      'the local app running',
    );
    await writeFile(join(appsDir, 'com.test.mine', 'NOTES.md'), 'work in progress\n');
    const refused = await hub.call<{ error: string; error_description: string }>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.mine' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error_description).toContain("'com.test.mine' is a local app");
    expect(await readFile(join(appsDir, 'com.test.mine', 'NOTES.md'), 'utf8')).toBe('work in progress\n');

    expect((await hub.call('DELETE', '/api/manager/apps/app/com.test.mine')).status).toBe(204);
    await expect(stat(join(appsDir, 'com.test.mine'))).rejects.toMatchObject({ code: 'ENOENT' });
    const kept = (await readdir(join(hub.dataDir, 'removed-apps'))).filter((n) => n.startsWith('com.test.mine-'));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(hub.dataDir, 'removed-apps', kept[0]!, 'NOTES.md'), 'utf8')).toBe('work in progress\n');
  });
});
