/**
 * Homey apps written the way real ones are, in a real hub: TypeScript compiled by tsc as `homey
 * app build` compiles it (the CLI's tsconfig: node16 modules, esModuleInterop, the SDK's types
 * as `@types/homey`), so `import Homey from 'homey'` becomes `__importDefault(require('homey'))
 * .default`, in the app and in a helper package of its own; an ES module app with api.mjs; and
 * the module-level `Homey.manifest` and `Homey.env` the SDK declares, read at load.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { writeHomeyApp } from './apps.js';

let hub: RunningHub;
/** A web service on this machine's LAN address: what an app reaches only with the network. */
let lan: Server;
let lanUrl: string;

const running = (id: string) => waitAppRunning(hub, id);
const stdout = async (id: string): Promise<string> =>
  (await hub.call<{ stdout: string }>('POST', `/api/manager/apps/app/${id}/crashlog`, { body: {} })).body.stdout;

/** tsconfig.json as `homey app create` writes it for TypeScript (@tsconfig/node16, spelled out). */
const TSCONFIG = {
  compilerOptions: {
    lib: ['es2021'],
    module: 'node16',
    target: 'es2021',
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    forceConsistentCasingInFileNames: true,
    moduleResolution: 'node16',
    allowJs: true,
    outDir: '.homeybuild/',
    types: ['homey', 'node'],
  },
  include: ['*.ts', 'lib/**/*.ts'],
};

/** Compiles a TypeScript app's sources with tsc, as `homey app build` does, into `.homeybuild/`. */
async function buildTypeScriptApp(dir: string): Promise<string> {
  // The SDK's types where Homey's TypeScript template puts them: devDependency @types/homey.
  await mkdir(join(dir, 'node_modules/@types'), { recursive: true });
  await symlink(join(ROOT, 'node_modules/homey-apps-sdk-v3-types'), join(dir, 'node_modules/@types/homey'));
  await symlink(join(ROOT, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir });
  return join(dir, '.homeybuild');
}

beforeAll(async () => {
  const appsDir = await tempDir('hearth-homey-wild-');
  const sources = await tempDir('hearth-homey-wild-src-');

  // A TypeScript app as Homey's template writes it, with a helper of its own that imports the SDK
  // the same way (as shared helper packages do), an api.ts and env.json.
  const tsId = 'com.example.typescript';
  const tsDir = await writeHomeyApp(sources, tsId, {
    json: { api: { getInfo: { method: 'GET', path: '/info' } } },
    files: {
      'app.ts': `import Homey from 'homey';
import { describe } from './lib/describe';

class MyApp extends Homey.App {
  async onInit(): Promise<void> {
    this.log(describe(this.homey), 'module manifest', Homey.manifest.id, 'env', Homey.env.GREETING);
  }
}

module.exports = MyApp;
`,
      'lib/describe.ts': `import Homey from 'homey';

export function describe(homey: Homey.App['homey']): string {
  return \`\${homey.manifest.id} on SDK \${Homey.manifest.sdk}\`;
}
`,
      'api.ts': `import Homey from 'homey';

module.exports = {
  async getInfo({ homey }: { homey: Homey.App['homey'] }) {
    return { id: homey.manifest.id, fromModule: Homey.manifest.version, hasApp: typeof Homey.App === 'function' };
  },
};
`,
      'env.json': { GREETING: 'hi' },
    },
  });
  const built = await buildTypeScriptApp(tsDir);
  // What `homey app build` leaves: the compiled JavaScript beside app.json, env.json and assets.
  const out = join(appsDir, tsId);
  await cp(built, out, { recursive: true });
  // Some apps list Athom's `homey` npm package (the CLI) among their dependencies: their own
  // node_modules/homey must not shadow the SDK (a decoy that fails if it is ever loaded).
  await mkdir(join(out, 'node_modules/homey'), { recursive: true });
  await writeFile(join(out, 'node_modules/homey/package.json'), JSON.stringify({ name: 'homey', version: '4.2.0', main: 'index.js' }));
  await writeFile(join(out, 'node_modules/homey/index.js'), "throw new Error('the app loaded its own homey package, not the SDK');\n");
  for (const f of ['app.json', 'env.json']) await cp(join(tsDir, f), join(out, f));

  await writeHomeyApp(appsDir, 'com.example.esm', {
    json: { esm: true, api: { getInfo: { method: 'GET', path: '/info' } } },
    files: {
      'app.mjs': `import Homey, { manifest } from 'homey';

export default class EsmApp extends Homey.App {
  async onInit() {
    this.log('esm', manifest.id, Homey.manifest.version, Homey.default === Homey);
    // Another app's API (made in onInit, asked later): never installed on hearth.
    const other = this.homey.api.getApiApp('com.example.other');
    this.log('other app', this.homey.api.hasApiApp('com.example.other'), await other.getInstalled());
  }
}
`,
      'api.mjs': `import Homey from 'homey';

export async function getInfo({ homey }) {
  return { id: homey.app.manifest.id, fromModule: Homey.manifest.id };
}
`,
      // Homey's convention: the icon is assets/icon.svg, which app.json does not name.
      'assets/icon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>',
    },
  });

  // An unmodified Homey app that fetches a web service (Homey gives every app the network; no
  // Homey app asks for it).
  await writeHomeyApp(appsDir, 'com.example.fetcher', {
    json: { api: { fetch: { method: 'GET', path: '/fetch' } } },
    files: {
      'app.js': "module.exports = class extends require('homey').App {};\n",
      'api.js': `module.exports = {
  async fetch({ query }) {
    try {
      const res = await fetch(query.url, { signal: AbortSignal.timeout(3000) });
      return { ok: true, text: await res.text() };
    } catch (err) {
      return { ok: false, error: String(err.cause?.code ?? err.message) };
    }
  },
};
`,
    },
  });
  const address = Object.values(networkInterfaces())
    .flat()
    .find((a) => a?.family === 'IPv4' && !a.internal)?.address;
  if (!address) throw new Error('this machine has no non-loopback IPv4 address to play the LAN');
  lan = createServer((_req, res) => res.end('hello from the LAN'));
  await new Promise<void>((r) => lan.listen(0, '0.0.0.0', r));
  lanUrl = `http://${address}:${(lan.address() as { port: number }).port}/`;

  hub = await startHub({ appsDir });
}, 120_000);

afterAll(async () => {
  await hub?.stop();
  lan?.close();
});

describe('apps written as real ones are', () => {
  it('a TypeScript app compiled by tsc (import Homey from "homey") runs, with Homey.manifest and Homey.env', async () => {
    expect(await readdir(join(hub.appsDir, 'com.example.typescript'))).toContain('app.js');
    await running('com.example.typescript');
    await poll(
      () => stdout('com.example.typescript'),
      (s) => s.includes('com.example.typescript on SDK 3 module manifest com.example.typescript env hi'),
      'the TypeScript app logs its manifest and env',
    );
    const info = await hub.call('GET', '/api/app/com.example.typescript/info');
    expect(info.status).toBe(200);
    expect(info.body).toEqual({ id: 'com.example.typescript', fromModule: '1.0.0', hasApp: true });
  });

  it('an ES module app (app.mjs, api.mjs) imports the SDK by default and by name', async () => {
    await running('com.example.esm');
    await poll(
      () => stdout('com.example.esm'),
      (s) => s.includes('esm com.example.esm 1.0.0 true') && s.includes('other app true false'),
      'the ES module app logs its manifest',
    );
    const info = await hub.call('GET', '/api/app/com.example.esm/info');
    expect(info.status).toBe(200);
    expect(info.body).toEqual({ id: 'com.example.esm', fromModule: 'com.example.esm' });
  });

  it("shows the icon at Homey's conventional assets/icon.svg, which app.json does not name", async () => {
    const app = await hub.call<{ icon: string | null }>('GET', '/api/manager/apps/app/com.example.esm');
    expect(app.body.icon).toBe('/app/com.example.esm/image/icon');
    const icon = await fetch(`${hub.url}${app.body.icon}`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    expect(await icon.text()).toContain('<circle');
    // The TypeScript app has no icon file: no icon is claimed.
    expect((await hub.call<{ icon: string | null }>('GET', '/api/manager/apps/app/com.example.typescript')).body.icon).toBeNull();
  });

  it("serves Homey's shared page assets at Homey's paths: the page API, its stylesheet, jQuery and AngularJS", async () => {
    const jquery = await fetch(`${hub.url}/manager/webserver/assets/js/jquery.js`);
    expect(jquery.status).toBe(200);
    expect(jquery.headers.get('content-type')).toContain('text/javascript');
    expect(await jquery.text()).toMatch(/jQuery v3\.\d+\.\d+/);
    for (const [path, same] of [
      ['/manager/webserver/assets/js/homey.js', '/homey.js'],
      ['/manager/webserver/assets/css/homey.css', '/homey.css'],
    ] as const) {
      const asset = await fetch(`${hub.url}${path}`);
      expect(asset.status).toBe(200);
      expect(await asset.text()).toBe(await (await fetch(`${hub.url}${same}`)).text());
    }
    const angular = await fetch(`${hub.url}/manager/webserver/assets/js/angular.js`);
    expect(angular.status).toBe(200);
    expect(await angular.text()).toContain('AngularJS v1.8');
  });

  it('an app fetches a web service on the LAN only while the owner grants it the network', async () => {
    const fetchVia = async () =>
      (await hub.call<{ ok: boolean; text?: string; error?: string }>('GET', `/api/app/com.example.fetcher/fetch?url=${encodeURIComponent(lanUrl)}`)).body;
    const grant = async (network: boolean) => {
      expect((await hub.call<{ network: boolean }>('PUT', '/api/manager/apps/app/com.example.fetcher', { body: { network } })).body.network).toBe(network);
      await running('com.example.fetcher');
    };
    await running('com.example.fetcher');
    // A local app has it until the owner revokes it.
    expect(await fetchVia()).toEqual({ ok: true, text: 'hello from the LAN' });
    await grant(false);
    expect((await fetchVia()).ok).toBe(false);
    await grant(true);
    expect(await fetchVia()).toEqual({ ok: true, text: 'hello from the LAN' });
  });
});
