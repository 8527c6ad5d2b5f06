/**
 * An app's permissions before install, against a real hub and a local store made with packApp:
 * the catalogue lists each release's permissions, the store answer puts them into words (and
 * says whether the release uses the network), the installed App answers the same words, and a
 * package that asks for other permissions than its catalogue entry lists is refused, leaving
 * nothing behind (on a first install and on an upgrade alike).
 */
import { copyFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PackResult, packApp } from '../../src/apps/catalogue/pack.js';
import { AppView, CatalogueView } from '../../src/managers/apps/views.js';
import { type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { writeHomeyApp } from '../homey/apps.js';

const APP_JS = "const Homey = require('homey');\nmodule.exports = class extends Homey.App { async onInit() { this.log('up'); } };\n";

/** The words hearth answers for the permissions these tests use (src/apps/manifest/permissions.ts). */
const SPEECH = { id: 'homey:manager:speech-output', granted: true, sentence: 'speak through the hub (this.homey.speechOutput.say)' };
const NETWORK = {
  id: 'hearth:network:access',
  granted: true,
  sentence: 'use the network (the LAN and the internet); where apps run in namespaces, an app without it has only a loopback of its own',
};
const ZWAVE = { id: 'homey:wireless:zwave', granted: false, sentence: 'hearth has no Z-Wave radio' };

type Err = { error: string; error_description: string };
type Index = { apps: Record<string, { channels: Record<string, { version: string; url: string; sha256: string; permissions?: unknown }> }> };

// Not ./helpers.js: it loads the runtime, which this suite needs only inside the hub process.
const removeAll = async (...dirs: string[]): Promise<void> => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
};

let hub: RunningHub;
let store: string;
let work: string;

beforeAll(async () => {
  store = await tempDir('hearth-perm-store-');
  work = await tempDir('hearth-perm-work-');
  hub = await startHub({ args: ['--store', store] });
});

afterAll(async () => {
  await hub?.cleanup();
  await removeAll(store, work);
});

/** Packs a Homey app asking for `permissions` into `into` (the hub's store unless told). */
async function pack(id: string, version: string, permissions: string[], into = store): Promise<PackResult> {
  const dir = await writeHomeyApp(work, id, { json: { version, permissions }, files: { 'app.js': APP_JS } });
  return packApp(dir, into);
}

const readIndex = async (): Promise<Index> => JSON.parse(await readFile(join(store, 'index.json'), 'utf8')) as Index;
const writeIndex = (index: Index): Promise<void> => writeFile(join(store, 'index.json'), JSON.stringify(index));

/**
 * Replaces the package of `id`'s stable release with one asking for `permissions`, keeping the
 * catalogue entry (its listed permissions) as it was: only the package and its hash change, as
 * when a package is repacked and the catalogue not.
 */
async function repackUnderSameEntry(id: string, version: string, permissions: string[]): Promise<void> {
  const other = await tempDir('hearth-perm-other-');
  try {
    const repacked = await pack(id, version, permissions, other);
    const index = await readIndex();
    const entry = index.apps[id]!.channels.stable!;
    await copyFile(repacked.file, join(store, entry.url));
    entry.sha256 = repacked.sha256;
    await writeIndex(index);
  } finally {
    await removeAll(other);
  }
}

async function catalogue(): Promise<CatalogueView> {
  const res = await hub.call<CatalogueView>('GET', '/api/manager/apps/store/');
  expect(res.status).toBe(200);
  // The answer is what the declared schema says: nothing missing, nothing it would strip.
  expect(CatalogueView().parse(res.body)).toEqual(res.body);
  return res.body;
}

async function installed(id: string): Promise<AppView> {
  const res = await poll(
    () => hub.call<AppView>('GET', `/api/manager/apps/app/${id}`),
    (r) => r.status === 200 && r.body.state === 'running',
    `${id} running`,
  );
  expect(AppView().parse(res.body)).toEqual(res.body);
  return res.body;
}

/** What of `id` is in the apps folder: its folder, and any staging folder left over. */
async function leftovers(id: string): Promise<string[]> {
  return (await readdir(hub.appsDir)).filter((name) => name === id || name.startsWith('.install-')).sort();
}

describe('permissions before install', () => {
  it('pack lists each release’s permissions as app.json lists them, and the store answer puts them into words', async () => {
    const listed = ['homey:manager:speech-output', 'hearth:network:access', 'homey:wireless:zwave'];
    const packed = await pack('com.test.talker', '1.0.0', listed);
    await pack('com.test.quiet', '1.0.0', []);
    expect((await readIndex()).apps['com.test.talker']!.channels.stable).toEqual({
      version: '1.0.0',
      url: 'com.test.talker-1.0.0.tar.gz',
      sha256: packed.sha256,
      permissions: listed,
    });
    expect((await readIndex()).apps['com.test.quiet']!.channels.stable!.permissions).toEqual([]);

    const answer = await catalogue();
    expect(answer.apps['com.test.talker']!.channels).toEqual({ stable: { version: '1.0.0', permissions: [SPEECH, NETWORK, ZWAVE], network: true } });
    expect(answer.apps['com.test.quiet']!.channels).toEqual({ stable: { version: '1.0.0', permissions: [], network: false } });
  });

  it('reads an older catalogue without permissions, and drops a malformed list without failing the store', async () => {
    await pack('com.test.listed', '1.0.0', ['homey:manager:speech-output']);
    const index = await readIndex();
    const release = (permissions?: unknown) => ({ ...index.apps['com.test.listed']!.channels.stable!, permissions });
    index.apps['com.test.older'] = { channels: { stable: release(undefined) } };
    index.apps['com.test.malformed'] = {
      channels: { stable: release('hearth:network:access'), beta: release(['hearth:typo:access']), edge: release([42]) },
    };
    await writeIndex(index);
    const answer = await catalogue();
    const unlisted = { version: '1.0.0', permissions: null, network: null };
    expect(answer.apps['com.test.older']!.channels).toEqual({ stable: unlisted });
    expect(answer.apps['com.test.malformed']!.channels).toEqual({ stable: unlisted, beta: unlisted, edge: unlisted });
    // The rest of the store reads as before.
    expect(answer.apps['com.test.listed']!.channels.stable!.permissions).toEqual([SPEECH]);
    delete index.apps['com.test.older'];
    delete index.apps['com.test.malformed'];
    await writeIndex(index);
  });

  it('the installed App answers the same permission details, and keeps permissions as strings', async () => {
    await pack('com.test.talker', '1.0.0', ['homey:manager:speech-output', 'hearth:network:access', 'homey:wireless:zwave']);
    const res = await hub.call<AppView>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.talker' } });
    expect(res.status).toBe(200);
    const app = await installed('com.test.talker');
    expect(app.permissions).toEqual(['homey:manager:speech-output', 'hearth:network:access', 'homey:wireless:zwave']);
    expect(app.permissionDetails).toEqual([SPEECH, NETWORK, ZWAVE]);
    expect(app.permissionDetails).toEqual((await catalogue()).apps['com.test.talker']!.channels.stable!.permissions);
    // It asked for the network in app.json, which the owner saw before installing.
    expect(app.network).toBe(true);
  });

  it('gives a store app the network only when the owner grants it (at install or later), and an upgrade keeps the grant', async () => {
    await pack('com.test.quiet', '1.0.0', []);
    expect((await hub.call('POST', '/api/manager/apps/store/', { body: { id: 'com.test.quiet' } })).status).toBe(200);
    expect((await installed('com.test.quiet')).network).toBe(false);
    const granted = await hub.call<AppView>('PUT', '/api/manager/apps/app/com.test.quiet', { body: { network: true } });
    expect(granted.body.network).toBe(true);
    await pack('com.test.quiet', '1.1.0', []);
    expect((await hub.call('POST', '/api/manager/apps/store/', { body: { id: 'com.test.quiet' } })).status).toBe(200);
    const upgraded = await installed('com.test.quiet');
    expect([upgraded.version, upgraded.network]).toEqual(['1.1.0', true]);
    const bad = await hub.call<Err>('PUT', '/api/manager/apps/app/com.test.quiet', { body: { network: 'yes' } });
    expect([bad.status, bad.body.error_description]).toEqual([400, 'network must be true or false']);

    await pack('com.test.online', '1.0.0', []);
    const online = await hub.call<AppView>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.online', network: true } });
    expect(online.body.network).toBe(true);
  });
});

describe('a package asking for other permissions than its catalogue entry', () => {
  it('is refused at first install, naming the extra permission, and leaves nothing behind', async () => {
    await pack('com.test.sneaky', '1.0.0', ['homey:manager:speech-output']);
    await repackUnderSameEntry('com.test.sneaky', '1.0.0', ['homey:manager:speech-output', 'hearth:network:access']);
    // The catalogue still shows what the person would approve.
    expect((await catalogue()).apps['com.test.sneaky']!.channels.stable).toEqual({ version: '1.0.0', permissions: [SPEECH], network: false });

    const res = await hub.call<Err>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.sneaky' } });
    expect(res.status).toBe(502);
    expect(res.body.error_description).toBe(
      "the app package of 'com.test.sneaky' 1.0.0 asks for other permissions than the app store lists for it: it also asks for hearth:network:access. " +
        'Nothing was installed; the store must list what the package asks for (repack it with hearth app pack)',
    );
    expect((await hub.call('GET', '/api/manager/apps/app/com.test.sneaky')).status).toBe(404);
    expect(await leftovers('com.test.sneaky')).toEqual([]);
  });

  it('is refused as an upgrade, naming what it adds and drops; the installed version keeps running', async () => {
    await pack('com.test.upgrade', '1.0.0', ['homey:manager:speech-output']);
    expect((await hub.call('POST', '/api/manager/apps/store/', { body: { id: 'com.test.upgrade' } })).status).toBe(200);
    expect((await installed('com.test.upgrade')).version).toBe('1.0.0');

    await pack('com.test.upgrade', '1.1.0', ['homey:manager:speech-output']);
    await repackUnderSameEntry('com.test.upgrade', '1.1.0', ['hearth:network:access']);
    const res = await hub.call<Err>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.upgrade' } });
    expect(res.status).toBe(502);
    expect(res.body.error_description).toBe(
      "the app package of 'com.test.upgrade' 1.1.0 asks for other permissions than the app store lists for it: it also asks for hearth:network:access; it does not ask for homey:manager:speech-output. " +
        'Nothing was installed; the store must list what the package asks for (repack it with hearth app pack)',
    );
    const app = await installed('com.test.upgrade');
    expect(app.version).toBe('1.0.0');
    expect(app.permissions).toEqual(['homey:manager:speech-output']);
    expect(await leftovers('com.test.upgrade')).toEqual(['com.test.upgrade']);

    // Listed as it is, the same package installs: the refusal was about the listing, not the package.
    const index = await readIndex();
    index.apps['com.test.upgrade']!.channels.stable!.permissions = ['hearth:network:access'];
    await writeIndex(index);
    expect((await hub.call('POST', '/api/manager/apps/store/', { body: { id: 'com.test.upgrade' } })).status).toBe(200);
    const upgraded = await installed('com.test.upgrade');
    expect(upgraded.version).toBe('1.1.0');
    expect(upgraded.permissionDetails).toEqual([NETWORK]);
  });
});
