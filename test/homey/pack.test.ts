/**
 * `hearth app pack` on Homey app folders: the example apps and a Homey Compose folder become
 * store packages that a real hub installs and runs; a main module that cannot load (ES module
 * syntax in a CommonJS app.js, the classic mix-up) and a symlink are refused where the package
 * is made, with a sentence saying what to change.
 */
import { execFile } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packApp } from '../../src/apps/catalogue/pack.js';
import { ROOT, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { appJson, writeHomeyApp } from './apps.js';

const run = promisify(execFile);
let store: string;
let work: string;
let hub: RunningHub;

beforeAll(async () => {
  store = await tempDir('hearth-pack-store-');
  work = await tempDir('hearth-pack-work-');
  hub = await startHub({ args: ['--store', store] });
});

afterAll(async () => {
  await hub?.cleanup();
});

async function installed(id: string): Promise<{ state: string; version: string }> {
  const res = await hub.call<{ state: string; version: string; error_description?: string }>('POST', '/api/manager/apps/store', { body: { id } });
  if (res.status !== 200) throw new Error(`install ${id}: ${res.status} ${res.text}`);
  return (
    await poll(
      () => hub.call<{ state: string; version: string }>('GET', `/api/manager/apps/app/${id}`),
      (r) => r.body.state === 'running',
      `${id} running`,
    )
  ).body;
}

describe('hearth app pack', () => {
  it('packs the example apps (an ES module and a CommonJS app), which a hub installs and runs', async () => {
    for (const id of ['com.hearth.greeter', 'com.hearth.sysmon', 'com.hearth.virtual']) {
      const packed = await packApp(join(ROOT, 'examples', id), store);
      expect(packed).toMatchObject({ id, version: '2.0.0', channel: 'stable' });
      expect(await installed(id)).toMatchObject({ state: 'running', version: '2.0.0' });
    }
    const readings = await hub.call<{ readings: Record<string, { value: number }> }>('GET', '/api/app/com.hearth.sysmon/readings');
    expect(readings.status).toBe(200);
    expect(typeof readings.body.readings['cpu-load']?.value).toBe('number');
  });

  it('builds a Homey Compose folder into a package with app.json and locales, as homey app build does', async () => {
    const dir = join(work, 'com.example.composed');
    await mkdir(join(dir, '.homeycompose/locales'), { recursive: true });
    await writeFile(join(dir, '.homeycompose/app.json'), JSON.stringify(appJson('com.example.composed', { _comment: undefined, version: '1.2.0' })));
    await writeFile(join(dir, '.homeycompose/locales/en.json'), JSON.stringify({ $app: { name: 'Composed' }, hi: 'Hi' }));
    await writeFile(
      join(dir, 'app.js'),
      "const Homey = require('homey');\nmodule.exports = class extends Homey.App { async onInit() { this.log(this.homey.__('hi')); } };\n",
    );
    const packed = await packApp(dir, store);
    const { stdout } = await run('tar', ['-xzOf', packed.file, 'app.json']);
    expect(JSON.parse(stdout)).toMatchObject({ id: 'com.example.composed', version: '1.2.0', name: { en: 'Composed' } });
    const locale = await run('tar', ['-xzOf', packed.file, 'locales/en.json']);
    expect(JSON.parse(locale.stdout)).toEqual({ hi: 'Hi' });
    expect(await installed('com.example.composed')).toMatchObject({ state: 'running', version: '1.2.0' });
  });

  it('refuses a main module that cannot load, and says what to write instead', async () => {
    // A CommonJS app.js without a package.json loads (the apps folder's own package.json makes it
    // CommonJS wherever the folder is); so does ES module syntax there (Node detects it).
    // CommonJS code beside a package.json that makes app.js an ES module.
    await writeHomeyApp(work, 'com.example.mixedup', {
      files: {
        'package.json': { name: 'mixedup', type: 'module' },
        'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      },
    });
    await expect(packApp(join(work, 'com.example.mixedup'), store)).rejects.toThrow(
      /the main module app\.js cannot load: .*require is not defined.* \(CommonJS uses require and module\.exports/,
    );
    await writeHomeyApp(work, 'com.example.notanapp', { files: { 'app.js': 'module.exports = {};\n' } });
    await expect(packApp(join(work, 'com.example.notanapp'), store)).rejects.toThrow(/must export a class that extends Homey\.App/);
  });

  it('refuses a folder holding a symlink, even one that stays inside (a package holds only files and folders)', async () => {
    const dir = await writeHomeyApp(work, 'com.example.linked', {
      files: { 'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n" },
    });
    await symlink('app.js', join(dir, 'alias.js'));
    await expect(packApp(dir, store)).rejects.toThrow('alias.js is a symlink; a package holds only files and folders');
    await symlink('/etc/passwd', join(dir, 'passwd'));
    await expect(packApp(dir, store)).rejects.toThrow('passwd is a link leading out of the app folder (to /etc/passwd)');
  });
});
