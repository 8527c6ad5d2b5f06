/**
 * Get apps builds what it fetches as `homey app build` would: an app's npm packages from the
 * registry (install scripts off, Athom's `homey` tool left out), its TypeScript compiled with its
 * own compiler, contained; the build shows where it is, Install waits for it, and a failed one
 * says why in one sentence and leaves nothing. GitHub and the registry are stand-ins on 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHub, startGitHub } from '../helpers/github.js';
import { type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { type Registry, startRegistry } from '../helpers/npm-registry.js';
import { poll } from '../helpers/poll.js';
import { writeHomeyApp } from '../homey/apps.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';

interface Build {
  state: 'building' | 'built' | 'failed';
  sentence: string;
  lines: string[];
  error: string | null;
}
interface Staged {
  upload: string;
  id: string;
  expiresAt: string | null;
  build: Build | null;
}

let hub: RunningHub;
let github: GitHub;
let registry: Registry;
let work: string;

beforeAll(async () => {
  work = await tempDir('hearth-build-');
  const dataDir = join(work, 'data');
  github = await startGitHub(join(work, 'github'));
  const words = await writeHomeyApp(join(work, 'packages'), 'porch-words', {
    json: {},
    files: {
      'package.json': {
        name: 'porch-words',
        version: '1.2.0',
        main: 'index.js',
        scripts: { postinstall: "node -e \"require('fs').writeFileSync('SCRIPT-RAN','')\"" },
      },
      'index.js': "module.exports = { greeting: 'hello from a package' };\n",
    },
  });
  // A compiler that reports what its build can see, in place of TypeScript: the app's own code
  // runs in the compile step, so that step is what must be contained.
  const spy = await writeHomeyApp(join(work, 'packages'), 'typescript-spy', {
    json: {},
    files: {
      'package.json': { name: 'typescript', version: '0.0.1-spy', bin: { tsc: 'bin/tsc' } },
      'bin/tsc': spyCompiler(dataDir, Number(new URL(github.url).port)),
    },
  });
  registry = await startRegistry(join(work, 'registry'), [
    { name: 'porch-words', version: '1.2.0', dir: words },
    { name: 'typescript', version: '0.0.1-spy', dir: spy },
  ]);
  hub = await startHub({ dataDir, args: ['--repo-host', github.url, '--npm-registry', registry.url] });
}, 60_000);
afterAll(async () => {
  await hub?.cleanup();
  github?.close();
  registry?.close();
});

/** `reach`: a port listening on the host's 127.0.0.1 (the GitHub stand-in's), which the compiler tries. */
function spyCompiler(dataDir: string, reach: number): string {
  return `#!/usr/bin/env node
const fs = require('fs'), path = require('path'), net = require('net');
const out = process.argv[process.argv.indexOf('--outDir') + 1];
const report = { env: Object.keys(process.env).sort(), seesDataDir: fs.existsSync(${JSON.stringify(dataDir)}) };
const socket = net.connect(${reach}, '127.0.0.1');
const done = (network) => {
  socket.destroy();
  report.network = network;
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'app.js'), "const Homey = require('homey');\\nmodule.exports = class extends Homey.App {};\\nmodule.exports.report = " + JSON.stringify(report) + ";\\n");
};
socket.on('connect', () => done('reached'));
socket.on('error', (e) => done(e.code));
`;
}

const fetchApp = async (repo: string, dir: string): Promise<Staged> => {
  await github.publish(repo, dir);
  const res = await hub.call<Staged>('POST', '/api/manager/apps/source/', { body: { repo } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const built = (upload: string): Promise<Staged> =>
  poll(
    async () => (await hub.call<Staged>('GET', `/api/manager/apps/upload/${upload}`)).body,
    (s) => s.build?.state !== 'building',
    'the build ending',
    1200,
    100,
  );

describe('Get apps builds an app', () => {
  it("installs a JavaScript app's npm packages from the registry, with install scripts off and Athom's homey tool left out, then runs it", async () => {
    const dir = await writeHomeyApp(join(work, 'src'), 'com.example.porch', {
      json: { api: { hello: { method: 'GET', path: '/hello' } } },
      files: {
        'package.json': { name: 'com.example.porch', dependencies: { 'porch-words': '^1.0.0', homey: '^3.0.0' } },
        'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
        'api.js': "const { greeting } = require('porch-words');\nmodule.exports = { async hello() { return greeting; } };\n",
      },
    });
    // The package's tarball waits, so the build is caught in the middle.
    const release = registry.hold('/porch-words/-/porch-words-1.2.0.tgz');
    const staged = await fetchApp('example/porch', dir);
    expect(staged.build?.state).toBe('building');
    expect(staged.expiresAt).toBeNull();
    const middle = await poll(
      async () => (await hub.call<Staged>('GET', `/api/manager/apps/upload/${staged.upload}`)).body,
      (s) => s.build?.sentence === 'Installing npm packages: 0 fetched',
      'the build telling it installs packages',
    );
    expect(middle.build?.state).toBe('building');
    const early = await hub.call<{ error_description: string }>('POST', `/api/manager/apps/upload/${staged.upload}/install`, { body: {} });
    expect(early.status).toBe(409);
    expect(early.body.error_description).toBe("'com.example.porch' is still being built: install it once it is built");
    release();
    const done = await built(staged.upload);
    expect(done.build).toMatchObject({ state: 'built', sentence: 'Built', error: null });
    expect(done.expiresAt).not.toBeNull();
    const installed = await hub.call('POST', `/api/manager/apps/upload/${staged.upload}/install`, { body: {} });
    expect(installed.status).toBe(200);
    expect(registry.asked).toContain('/porch-words');
    expect(registry.asked).not.toContain('/homey');
    const appDir = join(hub.appsDir, 'com.example.porch');
    expect(existsSync(join(appDir, 'node_modules/porch-words/index.js'))).toBe(true);
    expect(existsSync(join(appDir, 'node_modules/porch-words/SCRIPT-RAN'))).toBe(false);
    // The app's own package.json, as it came (homey still listed), not the build's.
    expect(JSON.parse(await readFile(join(appDir, 'package.json'), 'utf8')).dependencies).toEqual({ 'porch-words': '^1.0.0', homey: '^3.0.0' });
    const hello = await poll(
      () => hub.call<string>('GET', '/api/app/com.example.porch/hello'),
      (r) => r.status === 200,
      'the built app answering',
    );
    expect(hello.body).toBe('hello from a package');
  });

  it('compiles a TypeScript app with its own compiler in a step that sees its folder only: no network, no data dir, no hub environment', async () => {
    const dir = await writeHomeyApp(join(work, 'src'), 'com.example.typed', {
      json: {},
      files: {
        'package.json': { name: 'com.example.typed', devDependencies: { typescript: '0.0.1-spy' } },
        'tsconfig.json': { compilerOptions: { target: 'es2022', module: 'commonjs', outDir: '.homeybuild' } },
        'app.ts': "import Homey from 'homey';\nexport = class extends Homey.App {};\n",
      },
    });
    const staged = await fetchApp('example/typed', dir);
    const done = await built(staged.upload);
    expect(done.build, JSON.stringify(done.build)).toMatchObject({ state: 'built', error: null });
    const installed = await hub.call('POST', `/api/manager/apps/upload/${staged.upload}/install`, { body: {} });
    expect(installed.status).toBe(200);
    const appDir = join(hub.appsDir, 'com.example.typed');
    const compiled = await readFile(join(appDir, 'app.js'), 'utf8');
    const report = JSON.parse(/report = (.*);\n$/.exec(compiled)![1]!) as { env: string[]; seesDataDir: boolean; network: string };
    expect(existsSync(hub.dataDir)).toBe(true);
    expect(report.seesDataDir).toBe(false);
    expect(report.env).toEqual(['HOME', 'LANG', 'NODE_OPTIONS', 'NO_COLOR', 'PATH', 'PWD', 'TMPDIR']);
    // A port the host listens on: refused in a namespace whose loopback is its own.
    expect(report.network).toBe('ECONNREFUSED');
    // The compiler, a development package, is gone once compiled (what homey app build ships).
    expect(existsSync(join(appDir, 'node_modules/typescript'))).toBe(false);
    await waitAppRunning(hub, 'com.example.typed');
  });

  it('says in one sentence why a build failed, and leaves nothing behind', async () => {
    const dir = await writeHomeyApp(join(work, 'src'), 'com.example.broken', {
      json: {},
      files: {
        'package.json': { name: 'com.example.broken', dependencies: { 'no-such-package': '^1.0.0' } },
        'app.js': "module.exports = require('homey').App;\n",
      },
    });
    const staged = await fetchApp('example/broken', dir);
    const done = await built(staged.upload);
    expect(done.build?.state).toBe('failed');
    expect(done.build?.error).toMatch(/^npm could not install the app's packages: 404 Not Found - GET http:\/\/127\.0\.0\.1:\d+\/no-such-package/);
    const install = await hub.call<{ error_description: string }>('POST', `/api/manager/apps/upload/${staged.upload}/install`, { body: {} });
    expect(install.status).toBe(400);
    expect(install.body.error_description).toBe(`'com.example.broken' cannot be installed: ${done.build!.error}`);
    expect(existsSync(join(hub.appsDir, 'com.example.broken'))).toBe(false);
    expect((await hub.call('DELETE', `/api/manager/apps/upload/${staged.upload}`)).status).toBe(204);
    expect((await readdir(hub.appsDir)).filter((n) => n.startsWith('.'))).toEqual(expect.not.arrayContaining([expect.stringMatching(/upload/)]));
  });
});
