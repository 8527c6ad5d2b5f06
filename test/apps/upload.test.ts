/**
 * Apps → Get apps → Upload: an app installed from an archive of its folder, as a person does it:
 * the upload is checked and answered with what the app is and asks for (nothing of it runs yet),
 * then installed and running, or discarded. A broken archive says why and leaves nothing.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { writeHomeyApp } from '../homey/apps.js';

const U = '/api/manager/apps/upload';
let hub: RunningHub;
let work: string;
/** A stand-in for GitHub on 127.0.0.1: commits by ref, and a commit's tarball, as GitHub serves them. */
let github: Server;
const COMMIT = 'c0ffee'.padEnd(40, '0');
const tarballs = new Map<string, Uint8Array>();
const asked: string[] = [];

beforeAll(async () => {
  work = await tempDir('hearth-upload-');
  github = createServer((req, res) => {
    asked.push(`${req.method} ${req.url} ${req.headers.accept ?? ''}`);
    const ref = /^\/repos\/example\/porch-app\/commits\/([^/]+)$/.exec(req.url ?? '');
    if (ref) {
      const known = ['HEAD', 'v1.0.0', COMMIT].includes(decodeURIComponent(ref[1]!));
      res.writeHead(known ? 200 : 422, { 'content-type': 'text/plain' }).end(known ? COMMIT : 'No commit found');
      return;
    }
    if (req.url === '/repos/example/porch-app/releases/latest') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ tag_name: 'v1.1.0', name: 'Brighter', published_at: '2026-11-20T10:00:00Z', draft: false }));
      return;
    }
    const tar = /^\/example\/porch-app\/tar\.gz\/([0-9a-f]{40})$/.exec(req.url ?? '');
    const bytes = tar ? tarballs.get(tar[1]!) : undefined;
    if (bytes) res.writeHead(200, { 'content-type': 'application/x-gzip' }).end(Buffer.from(bytes));
    else res.writeHead(404).end('Not Found');
  });
  await new Promise<void>((r) => github.listen(0, '127.0.0.1', r));
  hub = await startHub({ args: ['--repo-host', `http://127.0.0.1:${(github.address() as AddressInfo).port}`] });
}, 60_000);
afterAll(async () => {
  await hub?.cleanup();
  github?.close();
});

/** A .tar.gz of an app folder written from Homey's docs; `wrapped`: of the folder itself, not its contents. */
async function archiveOf(id: string, wrapped: boolean): Promise<Uint8Array> {
  const dir = await writeHomeyApp(join(work, wrapped ? 'w' : 'f'), id, {
    json: {
      permissions: ['homey:manager:speech-output'],
      drivers: [{ id: 'bulb', name: { en: 'Bulb' }, class: 'light', capabilities: ['onoff'], platforms: ['local'], connectivity: ['lan'] }],
      api: { hello: { method: 'GET', path: '/hello' } },
    },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App { async onInit() { this.log('uploaded app up'); } };\n",
      'api.js': "module.exports = { async hello() { return 'hello from an upload'; } };\n",
      'drivers/bulb/driver.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.Driver {};\n",
      'drivers/bulb/device.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.Device {};\n",
    },
  });
  const file = join(work, `${id}-${wrapped}.tar.gz`);
  execFileSync('tar', wrapped ? ['-czf', file, '-C', join(dir, '..'), id] : ['-czf', file, '-C', dir, '.']);
  return new Uint8Array(await readFile(file));
}

const upload = (bytes: Uint8Array) =>
  call<Record<string, unknown> & { error_description?: string }>(hub.url, 'POST', `${U}/`, {
    token: OWNER,
    rawBody: bytes,
    headers: { 'content-type': 'application/gzip' },
  });

describe('installing an app from an uploaded archive of its folder', { timeout: 60_000 }, () => {
  it('says what the app is and asks for, runs nothing of it, then installs and runs it', async () => {
    const staged = await upload(await archiveOf('com.example.uploaded', false));
    expect(staged.status, JSON.stringify(staged.body)).toBe(201);
    expect(staged.body).toMatchObject({
      id: 'com.example.uploaded',
      name: 'uploaded',
      version: '1.0.0',
      drivers: [{ id: 'bulb', name: 'Bulb' }],
      permissions: [expect.objectContaining({ id: 'homey:manager:speech-output', granted: true })],
      replaces: null,
    });
    // Not installed, not running, not in the apps folder yet.
    expect((await hub.call('GET', '/api/manager/apps/app/com.example.uploaded')).status).toBe(404);
    expect(await readdir(hub.appsDir)).not.toContain('com.example.uploaded');

    const installed = await hub.call<{ id: string; origin: string }>('POST', `${U}/${staged.body.upload}/install`, { body: {} });
    expect(installed.status).toBe(200);
    expect(installed.body).toMatchObject({ id: 'com.example.uploaded', origin: 'local', source: null });
    const hello = await poll(
      () => hub.call<string>('GET', '/api/app/com.example.uploaded/hello'),
      (r) => r.status === 200,
      'the uploaded app to answer',
    );
    expect(hello.body).toBe('hello from an upload');
    expect((await hub.call('POST', `${U}/${staged.body.upload}/install`, { body: {} })).status).toBe(404);
  });

  it('takes an archive of the folder itself, and replaces the local app of its id; discard drops an upload', async () => {
    const again = await upload(await archiveOf('com.example.uploaded', true));
    expect(again.status).toBe(201);
    expect(again.body.replaces).toBe('1.0.0');
    expect((await hub.call('DELETE', `${U}/${again.body.upload}`)).status).toBe(204);
    expect((await hub.call('POST', `${U}/${again.body.upload}/install`, { body: {} })).status).toBe(404);
    // Nothing of it is left in the apps folder.
    expect((await readdir(hub.appsDir)).filter((n) => n.startsWith('.install-'))).toEqual([]);
  });

  it('fetches an app from its repository as the commit its tag is now, pinned to it, and installs it', async () => {
    // GitHub's archive holds one folder, <name>-<commit>/, with the app in it.
    tarballs.set(COMMIT, await archiveOf('com.example.porch', true));
    const fetched = await hub.call<Record<string, unknown> & { upload: string }>('POST', '/api/manager/apps/source/', {
      body: { repo: 'https://github.com/example/porch-app/tree/v1.0.0' },
    });
    expect(fetched.status, JSON.stringify(fetched.body)).toBe(201);
    expect(fetched.body).toMatchObject({ id: 'com.example.porch', source: { repo: 'example/porch-app', ref: 'v1.0.0', commit: COMMIT } });
    // The ref asked GitHub's API for its commit (as text), then the commit's tarball was fetched.
    expect(asked).toEqual([`GET /repos/example/porch-app/commits/v1.0.0 application/vnd.github.sha`, `GET /example/porch-app/tar.gz/${COMMIT} */*`]);
    const installed = await hub.call<{ id: string; state: string }>('POST', `${U}/${fetched.body.upload}/install`, { body: {} });
    // Pinned: the app's record keeps the repository, the ref asked for and the commit installed.
    expect(installed.body).toMatchObject({ id: 'com.example.porch', origin: 'local', source: { repo: 'example/porch-app', ref: 'v1.0.0', commit: COMMIT } });
    await poll(
      () => hub.call<string>('GET', '/api/app/com.example.porch/hello'),
      (r) => r.status === 200,
      'the fetched app to answer',
    );
  });

  it('tells of a newer release of a fetched app, asking GitHub once in six hours; an app not fetched has none', async () => {
    asked.length = 0;
    const update = await hub.call<Record<string, unknown>>('GET', '/api/manager/apps/app/com.example.porch/source-update');
    expect(update.status).toBe(200);
    expect(update.body).toMatchObject({ latest: { tag: 'v1.1.0', name: 'Brighter', publishedAt: '2026-11-20T10:00:00Z' }, newer: true });
    expect((await hub.call('GET', '/api/manager/apps/app/com.example.porch/source-update')).status).toBe(200);
    expect(asked.filter((a) => a.includes('releases/latest'))).toHaveLength(1);
    const none = await hub.call<{ error_description: string }>('GET', '/api/manager/apps/app/com.example.uploaded/source-update');
    expect(none.status).toBe(409);
    expect(none.body.error_description).toBe("app 'com.example.uploaded' was not fetched from a repository, so it has no releases to follow");
  });

  it('says why a repository cannot be fetched: no such ref, not a repository, a TypeScript app without its compiler', async () => {
    const noRef = await hub.call<{ error_description: string }>('POST', '/api/manager/apps/source/', { body: { repo: 'example/porch-app@v9' } });
    expect(noRef.status).toBe(404);
    expect(noRef.body.error_description).toBe("example/porch-app has no tag, branch or commit 'v9' (or the repository is not public)");
    const bad = await hub.call<{ error_description: string }>('POST', '/api/manager/apps/source/', { body: { repo: 'just-a-name' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toMatch(/^'just-a-name' is not a repository: give it as owner\/name/);
    // An app that needs npm packages is built (test/apps/build.test.ts); one in TypeScript without its compiler cannot be.
    const typed = await writeHomeyApp(join(work, 'typed'), 'com.example.typed', {
      files: { 'app.ts': "import Homey from 'homey';\n", 'tsconfig.json': {}, 'package.json': { devDependencies: {} } },
    });
    execFileSync('tar', ['-czf', join(work, 'typed.tar.gz'), '-C', typed, '.']);
    const refused = await upload(new Uint8Array(await readFile(join(work, 'typed.tar.gz'))));
    expect(refused.status).toBe(400);
    expect(refused.body.error_description).toBe(
      'the app is TypeScript but lists no typescript compiler in its package.json (devDependencies), as apps made with homey app create do',
    );
  });

  it('refuses what is not an app archive, in a sentence, leaving nothing', async () => {
    const garbage = await upload(new TextEncoder().encode('not an archive at all'));
    expect(garbage.status).toBe(400);
    const empty = join(work, 'empty');
    execFileSync('mkdir', ['-p', join(empty, 'a'), join(empty, 'b')]);
    execFileSync('tar', ['-czf', join(work, 'empty.tar.gz'), '-C', empty, '.']);
    const noApp = await upload(new Uint8Array(await readFile(join(work, 'empty.tar.gz'))));
    expect(noApp.status).toBe(400);
    expect(noApp.body.error_description).toBe('the archive holds no app.json (nor .homeycompose): archive the app folder, as homey app build leaves it');
    expect((await readdir(hub.appsDir)).filter((n) => n.startsWith('.install-'))).toEqual([]);
    const reader = (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'reader', scopes: ['service.app.readonly'] } })).body
      .token;
    const denied = await call(hub.url, 'POST', `${U}/`, { token: reader, rawBody: new Uint8Array([1]), headers: { 'content-type': 'application/gzip' } });
    expect(denied.status).toBe(403);
  });
});
