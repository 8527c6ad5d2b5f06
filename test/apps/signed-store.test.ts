/**
 * Signed catalogues against a real hub and a real http server: with a pinned key only an index
 * signed by it is used (a tampered or unsigned one is a 502), and without one a plain-http store
 * gets no automatic updates, with the reason in the catalogue answer. Keys and signatures are
 * made by the CLI as the docs tell a store owner to.
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkForUpdates } from '../../src/apps/catalogue/autoupdate.js';
import { loadConfig } from '../../src/config.js';
import { CLI, type RunningHub, startHub } from '../helpers/hub.js';
import { assertBuilt, homeyApp, removeAll, serveFolder, startRuntime, type TestRuntime, tempDir, writeApp } from './helpers.js';

type Err = { error: string; error_description: string };
const dirs: string[] = [];
let hub: RunningHub | undefined;
let server: Server | undefined;
let rt: TestRuntime | undefined;
beforeAll(assertBuilt);
afterEach(async () => {
  await hub?.cleanup();
  hub = undefined;
  server?.close();
  server = undefined;
  await rt?.close();
  rt = undefined;
  await removeAll(...dirs.splice(0));
});

async function dir(prefix: string): Promise<string> {
  const d = await tempDir(prefix);
  dirs.push(d);
  return d;
}

const cli = (...args: string[]): string => execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

/** Serves `storeDir` over plain http; answers its URL. */
async function serve(storeDir: string): Promise<string> {
  const served = await serveFolder(storeDir);
  server = served.server;
  return served.url;
}

async function packed(version = '1.0.0', signKey?: string): Promise<{ storeDir: string }> {
  const storeDir = dirs.find((d) => d.includes('hearth-store-')) ?? (await dir('hearth-store-'));
  const src = await dir('hearth-src-');
  const folder = await writeApp(src, 'com.test.signed', { code: homeyApp(''), manifest: { version } });
  cli('app', 'pack', folder, '--store', storeDir, ...(signKey ? ['--sign-key', signKey] : []));
  return { storeDir };
}

describe('a store with a pinned key', () => {
  it('installs from an index signed by the key, and refuses a tampered or unsigned one', async () => {
    const keys = await dir('hearth-keys-');
    const made = JSON.parse(cli('app', 'keygen', keys)) as { privateFile: string; publicFile: string };
    const { storeDir } = await packed('1.0.0', made.privateFile);
    const url = await serve(storeDir);
    hub = await startHub({ appsDir: await dir('hearth-apps-'), args: ['--store', url, '--store-key', made.publicFile] });

    const listing = await hub.call<{ signed: boolean; automaticUpdates: boolean; automaticUpdatesOff: string | null }>('GET', '/api/manager/apps/store/');
    expect(listing.body).toMatchObject({ signed: true, automaticUpdates: true, automaticUpdatesOff: null });
    const ok = await hub.call('POST', '/api/manager/apps/store/', { body: { id: 'com.test.signed' } });
    expect(ok.status).toBe(200);

    // Someone on the path points the index at other bytes: the signature no longer holds.
    const index = join(storeDir, 'index.json');
    const text = await readFile(index, 'utf8');
    await writeFile(index, text.replace('"1.0.0"', '"9.0.0"'));
    const tampered = await hub.call<Err>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.signed' } });
    expect(tampered.status).toBe(502);
    expect(tampered.body.error_description).toBe(`the app store index ${url}/index.json is not signed by the pinned store key; nothing from it is used`);

    // A catalogue re-packed without the key has no signature at all.
    await packed('1.1.0');
    const unsigned = await hub.call<Err>('GET', '/api/manager/apps/store/');
    expect(unsigned.status).toBe(502);
    expect(unsigned.body.error_description).toContain('is not signed (no ');
    expect((await hub.call<{ version: string }>('GET', '/api/manager/apps/app/com.test.signed')).body.version).toBe('1.0.0');
  }, 60_000);

  it('refuses to start with a key file that is not an ed25519 public key, naming it', async () => {
    const keys = await dir('hearth-keys-');
    const bad = join(keys, 'not-a-key.pem');
    await writeFile(bad, 'hello');
    expect(() => loadConfig({ 'store-key': bad }, {})).toThrow(`invalid --store-key: the store key ${bad} cannot be read as a PEM public key`);
    const made = JSON.parse(cli('app', 'keygen', keys)) as { privateFile: string };
    expect(() => loadConfig({ 'store-key': made.privateFile }, {})).not.toThrow(); // a private PEM holds its public key
  });
});

describe('a plain-http store without a pinned key', () => {
  it('gets no automatic updates, and the catalogue answer says why', async () => {
    const { storeDir } = await packed('1.0.0');
    const url = await serve(storeDir);
    hub = await startHub({ appsDir: await dir('hearth-apps-'), args: ['--store', url] });
    const listing = await hub.call<{ signed: boolean; automaticUpdates: boolean; automaticUpdatesOff: string | null }>('GET', '/api/manager/apps/store/');
    expect(listing.body).toMatchObject({ signed: false, automaticUpdates: false });
    expect(listing.body.automaticUpdatesOff).toMatch(/^automatic updates are off: the app store is plain http and its catalogue is not signed/);
  }, 60_000);

  it('does not upgrade an app from it, though a newer version is offered', async () => {
    const { storeDir } = await packed('1.0.0');
    const url = await serve(storeDir);
    rt = await startRuntime({ appsDir: await dir('hearth-apps-'), dataDir: await dir('hearth-data-') });
    const { installFromCatalogue } = await import('../../src/apps/catalogue/install-from-catalogue.js');
    await installFromCatalogue(rt.rt, url, 'com.test.signed');
    await packed('2.0.0');
    const result = await checkForUpdates(rt.rt, url, pino({ level: 'silent' }));
    expect(result).toEqual({ updated: [], failed: [] });
    expect(rt.rt.get('com.test.signed').version).toBe('1.0.0');
    // The same catalogue from its folder (no network path to tamper with) does upgrade.
    const local = await checkForUpdates(rt.rt, storeDir, pino({ level: 'silent' }));
    expect(local.updated).toEqual([{ id: 'com.test.signed', from: '1.0.0', to: '2.0.0' }]);
  }, 60_000);
});

describe('an old catalogue served again, and older releases (issue 22, finding 7)', () => {
  it('refuses a validly signed catalogue older than one it accepted, and keeps the installed version', async () => {
    const keys = await dir('hearth-keys-');
    const made = JSON.parse(cli('app', 'keygen', keys)) as { privateFile: string; publicFile: string };
    const { storeDir } = await packed('1.0.0', made.privateFile);
    const index = join(storeDir, 'index.json');
    const old = { index: await readFile(index), sig: await readFile(`${index}.sig`) };
    expect((JSON.parse(old.index.toString()) as { sequence: number }).sequence).toBe(1);
    await packed('2.0.0', made.privateFile);
    const url = await serve(storeDir);
    hub = await startHub({ appsDir: await dir('hearth-apps-'), args: ['--store', url, '--store-key', made.publicFile] });
    expect((await hub.call<{ version: string }>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.signed' } })).body.version).toBe('2.0.0');

    // The first catalogue, with its own valid signature, served again.
    await writeFile(index, old.index);
    await writeFile(`${index}.sig`, old.sig);
    const listing = await hub.call<Err>('GET', '/api/manager/apps/store/');
    expect(listing.status).toBe(502);
    expect(listing.body.error_description).toBe(
      `the app store at ${url} served a catalogue older (sequence 1) than one this hub already accepted (sequence 2): an old catalogue served again? nothing from it is used`,
    );
    expect((await hub.call('POST', '/api/manager/apps/store/', { body: { id: 'com.test.signed' } })).status).toBe(502);
    expect((await hub.call<{ version: string }>('GET', '/api/manager/apps/app/com.test.signed')).body.version).toBe('2.0.0');
  }, 60_000);

  it('never downgrades an installed app unless that version is asked for', async () => {
    const { storeDir } = await packed('2.0.0');
    hub = await startHub({ appsDir: await dir('hearth-apps-'), args: ['--store', storeDir] });
    expect((await hub.call<{ version: string }>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.signed' } })).body.version).toBe('2.0.0');
    await packed('1.0.0'); // a newer catalogue listing an older release
    const refused = await hub.call<Err>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.signed' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error_description).toBe(
      `'com.test.signed' 2.0.0 is installed and the app store offers the older 1.0.0 on channel 'stable'; an app is downgraded only when that version is asked for ({"id": "com.test.signed", "version": "1.0.0"}); nothing was changed`,
    );
    const wrong = await hub.call<Err>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.signed', version: '3.0.0' } });
    expect(wrong.status).toBe(409);
    expect(wrong.body.error_description).toBe(`the app store offers 'com.test.signed' 1.0.0 on channel 'stable', not 3.0.0; nothing was changed`);
    expect((await hub.call<{ version: string }>('GET', '/api/manager/apps/app/com.test.signed')).body.version).toBe('2.0.0');
    const asked = await hub.call<{ version: string }>('POST', '/api/manager/apps/store/', { body: { id: 'com.test.signed', version: '1.0.0' } });
    expect(asked.status).toBe(200);
    expect(asked.body.version).toBe('1.0.0');
  }, 60_000);
});
