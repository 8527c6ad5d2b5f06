/**
 * App store install: pack into a local catalogue, install from it and from an http catalogue
 * served by the test, upgrade keeping settings, and refusals (checksum, traversal, links,
 * missing app/channel, unreachable store) that leave nothing behind.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkForUpdates, compareVersions } from '../../src/apps/catalogue/autoupdate.js';
import { readCatalogue } from '../../src/apps/catalogue/catalogue.js';
import { installFromCatalogue } from '../../src/apps/catalogue/install-from-catalogue.js';
import { packApp } from '../../src/apps/catalogue/pack.js';
import { assertBuilt, homeyApp, listApps, listDir, removeAll, startRuntime, type TestRuntime, tempDir, writeApp } from './helpers.js';

let appsDir: string;
let dataDir: string;
let storeDir: string;
let srcDir: string;
let t: TestRuntime;
let server: Server | undefined;

const CODE = homeyApp(`async onInit() { this.log('store app', this.homey.manifest.version); }`);

beforeAll(assertBuilt);
beforeEach(async () => {
  appsDir = await tempDir('hearth-apps-');
  dataDir = await tempDir('hearth-data-');
  storeDir = await tempDir('hearth-store-');
  srcDir = await tempDir('hearth-src-');
  t = await startRuntime({ appsDir, dataDir });
});
afterEach(async () => {
  await t.close();
  if (server) {
    server.close();
    server = undefined;
  }
  await removeAll(appsDir, dataDir, storeDir, srcDir);
});

/** A tar.gz built by hand, so the test can put in entries no well-behaved packer writes. */
function rawTarGz(entries: Array<{ name: string; body?: string; type?: '0' | '2' | '5'; link?: string; mode?: number }>): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100, 'utf8');
    h.write(`${(e.mode ?? 0o644).toString(8).padStart(7, '0')}\0`, 100);
    h.write('0000000\0', 108);
    h.write('0000000\0', 116);
    h.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
    h.write('00000000000\0', 136);
    h.write('        ', 148);
    h.write(e.type ?? '0', 156);
    if (e.link) h.write(e.link, 157, 100, 'utf8');
    h.write('ustar\0', 257);
    h.write('00', 263);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

async function publishRaw(id: string, tarball: Buffer, sha = createHash('sha256').update(tarball).digest('hex')): Promise<void> {
  await writeFile(join(storeDir, `${id}.tar.gz`), tarball);
  await writeFile(
    join(storeDir, 'index.json'),
    JSON.stringify({ apps: { [id]: { channels: { stable: { version: '1.0.0', url: `${id}.tar.gz`, sha256: sha } } } } }),
  );
}

const manifestOf = (id: string) => JSON.stringify({ id, version: '1.0.0', sdk: 3, name: { en: id } });

async function serveStore(): Promise<string> {
  server = createServer((req, res) => {
    readFile(join(storeDir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)))
      .then((data) => res.end(data))
      .catch(() => {
        res.statusCode = 404;
        res.end();
      });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Nothing but the installed apps (and the SDK link, its package for ES module apps, the lent libraries): no staging or aside folders. */
async function expectClean(installed: string[] = []): Promise<void> {
  expect(await listApps(appsDir)).toEqual(installed);
  expect(await listDir(join(appsDir, 'node_modules'))).toEqual(['.homey-for-es-modules', '@matter', '@noble', 'homey']);
}

describe('pack and install', () => {
  it('packs an app into a local catalogue and installs it from there', async () => {
    const folder = await writeApp(srcDir, 'com.test.store', { code: CODE });
    const packed = await packApp(folder, storeDir);
    expect(packed).toMatchObject({ id: 'com.test.store', version: '1.0.0', channel: 'stable', file: join(storeDir, 'com.test.store-1.0.0.tar.gz') });
    const index = JSON.parse(await readFile(join(storeDir, 'index.json'), 'utf8'));
    expect(index).toEqual({
      sequence: 1,
      publishedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      apps: {
        'com.test.store': {
          name: { en: 'com.test.store' },
          channels: { stable: { version: '1.0.0', url: 'com.test.store-1.0.0.tar.gz', sha256: packed.sha256, permissions: [] } },
        },
      },
    });

    const app = await installFromCatalogue(t.rt, storeDir, 'com.test.store');
    expect(app).toMatchObject({ id: 'com.test.store', version: '1.0.0', origin: 'appstore', channel: 'stable', state: 'running', ready: true });
    expect(t.events.some((e) => e.kind === 'create' && e.app.id === 'com.test.store')).toBe(true);
    await expectClean(['com.test.store']);
  });

  it('installs from an http catalogue and upgrades keeping settings', async () => {
    const folder = await writeApp(srcDir, 'com.test.store', { code: CODE });
    await packApp(folder, storeDir);
    const url = await serveStore();
    await installFromCatalogue(t.rt, url, 'com.test.store');
    await t.rt.settings.set('com.test.store', 'colour', 'green');

    await writeFile(join(folder, 'app.json'), JSON.stringify({ id: 'com.test.store', version: '1.1.0', sdk: 3, name: { en: 'Store v2' } }));
    await packApp(folder, storeDir, 'beta');
    const app = await installFromCatalogue(t.rt, `${url}index.json`, 'com.test.store', 'beta');
    expect(app).toMatchObject({ version: '1.1.0', name: 'Store v2', channel: 'beta', state: 'running' });
    expect(t.rt.settings.get('com.test.store', 'colour')).toBe('green');
    expect((await t.rt.crashLog('com.test.store')).stdout).toContain('store app 1.1.0');
    await expectClean(['com.test.store']);
  });

  it('masks setuid and group/other write bits of extracted files', async () => {
    const tarball = rawTarGz([
      { name: 'app.json', body: manifestOf('com.test.modes') },
      { name: 'app.js', body: CODE, mode: 0o4777 },
    ]);
    await publishRaw('com.test.modes', tarball);
    await installFromCatalogue(t.rt, storeDir, 'com.test.modes');
    const { mode } = await stat(join(appsDir, 'com.test.modes', 'app.js'));
    expect(mode & 0o7777).toBe(0o755);
  });
});

describe('refusals leave nothing behind', () => {
  it('refuses a package whose checksum does not match', async () => {
    const folder = await writeApp(srcDir, 'com.test.store', { code: CODE });
    await packApp(folder, storeDir);
    const index = JSON.parse(await readFile(join(storeDir, 'index.json'), 'utf8'));
    index.apps['com.test.store'].channels.stable.sha256 = 'f'.repeat(64);
    await writeFile(join(storeDir, 'index.json'), JSON.stringify(index));
    await expect(installFromCatalogue(t.rt, storeDir, 'com.test.store')).rejects.toMatchObject({
      code: 'bad_gateway',
      message: expect.stringContaining('failed its checksum'),
    });
    await expectClean();
    expect(() => t.rt.get('com.test.store')).toThrow(/not installed/);
  });

  it('refuses a path-traversal tarball without writing outside', async () => {
    await publishRaw(
      'com.test.evil',
      rawTarGz([
        { name: 'app.json', body: manifestOf('com.test.evil') },
        { name: '../../evil.txt', body: 'pwned' },
      ]),
    );
    await expect(installFromCatalogue(t.rt, storeDir, 'com.test.evil')).rejects.toMatchObject({
      code: 'bad_gateway',
      message: expect.stringContaining("entry '../../evil.txt' climbs out of the package"),
    });
    await expectClean();
    await expect(stat(join(appsDir, '..', 'evil.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses symbolic links and absolute paths', async () => {
    await publishRaw(
      'com.test.link',
      rawTarGz([
        { name: 'app.json', body: manifestOf('com.test.link') },
        { name: 'passwd', type: '2', link: '/etc/passwd' },
      ]),
    );
    await expect(installFromCatalogue(t.rt, storeDir, 'com.test.link')).rejects.toMatchObject({
      message: expect.stringContaining('only files and folders are allowed'),
    });
    await publishRaw(
      'com.test.abs',
      rawTarGz([
        { name: 'app.json', body: manifestOf('com.test.abs') },
        { name: '/tmp/abs-evil', body: 'x' },
      ]),
    );
    await expect(installFromCatalogue(t.rt, storeDir, 'com.test.abs')).rejects.toMatchObject({ message: expect.stringContaining('absolute path') });
    await expectClean();
  });

  it('refuses a package whose manifest names another app', async () => {
    await publishRaw('com.test.want', rawTarGz([{ name: 'app.json', body: manifestOf('com.test.other') }]));
    await expect(installFromCatalogue(t.rt, storeDir, 'com.test.want')).rejects.toMatchObject({
      message: "the app store served 'com.test.other' when asked for 'com.test.want'",
    });
    await expectClean();
  });

  it('refuses an id that is not an app id before touching the disk', async () => {
    await expect(installFromCatalogue(t.rt, storeDir, '../../escape')).rejects.toMatchObject({ code: 'invalid_parameter' });
    await expect(installFromCatalogue(t.rt, storeDir, 'com.test.x', '../beta')).rejects.toMatchObject({ code: 'invalid_parameter' });
    await expectClean();
    expect(await listDir(join(appsDir, '..'))).not.toContain('escape');
  });

  it('answers 404s for a missing app or channel and 502 for an unreachable store', async () => {
    const folder = await writeApp(srcDir, 'com.test.store', { code: CODE });
    await packApp(folder, storeDir);
    await expect(installFromCatalogue(t.rt, storeDir, 'com.test.absent')).rejects.toMatchObject({ code: 'not_found' });
    await expect(installFromCatalogue(t.rt, storeDir, 'com.test.store', 'nightly')).rejects.toMatchObject({
      code: 'not_found',
      message: "app 'com.test.store' has no 'nightly' channel in the app store; channels: stable",
    });
    const url = await serveStore();
    server!.close();
    await once(server!, 'close');
    server = undefined;
    await expect(installFromCatalogue(t.rt, url, 'com.test.store')).rejects.toMatchObject({
      code: 'bad_gateway',
      message: expect.stringContaining('is unreachable'),
    });
    await expectClean();
  });
});

describe('automatic updates', () => {
  it('orders versions the semver way', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0);
    expect(compareVersions('1.0.0-beta.1', '1.0.0')).toBe(-1);
    expect(compareVersions('2.0.0', '10.0.0')).toBe(-1);
    expect(compareVersions('1.0.0+build.5', '1.0.0')).toBe(0);
    // Numeric pre-release parts compare as numbers, not as text.
    expect(compareVersions('1.0.0-beta.10', '1.0.0-beta.9')).toBe(1);
    expect(compareVersions('1.0.0-alpha', '1.0.0-alpha.1')).toBe(-1);
    expect(compareVersions('1.0.0-alpha.beta', '1.0.0-beta')).toBe(-1);
    expect(compareVersions('1.0.0-rc.1', '1.0.0-beta.11')).toBe(1);
  });

  it('refuses versions that are not semver, in a manifest and in a catalogue', async () => {
    const { parseManifest } = await import('../../src/apps/manifest/manifest.js');
    const base = { id: 'com.test.v', sdk: 3, name: { en: 'V' } };
    for (const version of ['1.0', 'v1.0.0', '01.0.0', '1.0.0-', 'latest']) {
      const r = parseManifest({ ...base, version });
      expect(r.ok, version).toBe(false);
      if (!r.ok) expect(r.message).toContain('must be a semantic version such as 1.0.0');
    }
    expect(parseManifest({ ...base, version: '1.0.0-beta.10+build.1' }).ok).toBe(true);
  });

  it('upgrades store apps with autoupdate on, and leaves the others', async () => {
    const a = await writeApp(srcDir, 'com.test.auto', { code: CODE });
    const b = await writeApp(srcDir, 'com.test.manual', { code: CODE });
    await packApp(a, storeDir);
    await packApp(b, storeDir);
    await installFromCatalogue(t.rt, storeDir, 'com.test.auto');
    await installFromCatalogue(t.rt, storeDir, 'com.test.manual');
    await t.rt.decisions.configure('com.test.manual', { autoupdate: false });
    for (const folder of [a, b]) {
      const manifest = JSON.parse(await readFile(join(folder, 'app.json'), 'utf8'));
      await writeFile(join(folder, 'app.json'), JSON.stringify({ ...manifest, version: '1.2.0' }));
      await packApp(folder, storeDir);
    }
    const log = pino({ level: 'silent' });
    const result = await checkForUpdates(t.rt, storeDir, log);
    expect(result).toEqual({ updated: [{ id: 'com.test.auto', from: '1.0.0', to: '1.2.0' }], failed: [] });
    expect(t.rt.get('com.test.auto')).toMatchObject({ version: '1.2.0', state: 'running' });
    expect(t.rt.get('com.test.manual').version).toBe('1.0.0');
    expect(await checkForUpdates(t.rt, storeDir, log)).toEqual({ updated: [], failed: [] });
  });
});

describe('catalogue', () => {
  it('keeps an app whose catalogue name is malformed, without the name, and refuses a bad channel entry', async () => {
    const sha256 = 'a'.repeat(64);
    await writeFile(
      join(storeDir, 'index.json'),
      JSON.stringify({
        apps: { 'com.test.odd': { name: 42, description: { nl: 'geen Engels' }, channels: { stable: { version: '1.0.0', url: 'x.tar.gz', sha256 } } } },
      }),
    );
    const { catalogue } = await readCatalogue(storeDir);
    expect(catalogue.apps['com.test.odd']).toEqual({ channels: { stable: { version: '1.0.0', url: 'x.tar.gz', sha256 } } });
    await writeFile(
      join(storeDir, 'index.json'),
      JSON.stringify({ apps: { 'com.test.odd': { channels: { stable: { version: '1.0.0', url: 'x.tar.gz', sha256: 'nope' } } } } }),
    );
    await expect(readCatalogue(storeDir)).rejects.toMatchObject({ status: 502, message: expect.stringMatching(/sha256.*64 hex digits/) });
  });
});
