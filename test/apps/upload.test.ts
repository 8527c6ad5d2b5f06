/**
 * Apps → Get apps → Upload: an app installed from an archive of its folder, as a person does it:
 * the upload is checked and answered with what the app is and asks for (nothing of it runs yet),
 * then installed and running, or discarded. A broken archive says why and leaves nothing.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { writeHomeyApp } from '../homey/apps.js';

const U = '/api/manager/apps/upload';
let hub: RunningHub;
let work: string;

beforeAll(async () => {
  work = await tempDir('hearth-upload-');
  hub = await startHub();
}, 60_000);
afterAll(async () => {
  await hub?.cleanup();
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
  call<Record<string, unknown> & { error_description?: string }>(hub.url, 'POST', U + '/', {
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
    expect(installed.body).toMatchObject({ id: 'com.example.uploaded', origin: 'local' });
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
