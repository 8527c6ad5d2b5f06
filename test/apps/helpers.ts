/**
 * Helpers for the apps tests: write throwaway apps into a temp apps folder, start a runtime on
 * a temp data dir (real Store, real child processes), and wait for an app to reach a state.
 */
import { once } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pino from 'pino';
import { type App, AppRuntime, type RuntimeHooks } from '../../src/apps/host/runtime.js';
import type { SupervisorOptions } from '../../src/apps/host/supervisor.js';
import { Store } from '../../src/core/store.js';
import { poll } from '../helpers/poll.js';

export const ROOT = resolve(import.meta.dirname, '../..');

/** The child runs the built bootstrap and SDK: fail with a clear sentence when the build is missing or stale. */
export function assertBuilt(): void {
  for (const [built, sources] of [
    ['dist/apps/bootstrap.cjs', 'src/apps'],
    ['dist/homey/index.cjs', 'src/homey'],
  ] as const) {
    const file = join(ROOT, built);
    if (!existsSync(file)) throw new Error(`${built} is missing: run \`npm run build\` before these tests`);
    const newest = Math.max(
      ...readdirSync(join(ROOT, sources), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.c?ts$/.test(f))
        .map((f) => statSync(join(ROOT, sources, f)).mtimeMs),
    );
    if (statSync(file).mtimeMs < newest - 1000) throw new Error(`${built} is older than ${sources}: run \`npm run build\` first`);
  }
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/**
 * The main module of a Homey app in CommonJS: `members` is the body of its class (`async
 * onInit() {...}` and whatever else it has), `prelude` what the module runs before the class.
 *
 * @example
 * writeApp(appsDir, 'com.test.up', { code: homeyApp(`async onInit() { this.homey.settings.set('up', true); }`) });
 */
export function homeyApp(members: string, prelude = ''): string {
  return `'use strict';
const Homey = require('homey');
${prelude}
module.exports = class TestApp extends Homey.App {
${members}
};
`;
}

export interface TestApp {
  /** app.json fields over the minimal ones (id, version, sdk 3, name). */
  manifest?: Record<string, unknown>;
  /** Source of the main module: app.js (CommonJS), or app.mjs with `"esm": true`; see homeyApp. */
  code: string;
  files?: Record<string, string>;
  /** package.json of the app; none by default (a Homey app without dependencies needs none). */
  packageJson?: Record<string, unknown>;
}

/** Writes a Homey app into `<appsDir>/<id>`; resolves with its folder. */
export async function writeApp(appsDir: string, id: string, app: TestApp): Promise<string> {
  const dir = join(appsDir, id);
  await mkdir(dir, { recursive: true });
  const manifest: Record<string, unknown> = { id, version: '1.0.0', sdk: 3, name: { en: id }, ...app.manifest };
  await writeFile(join(dir, 'app.json'), JSON.stringify(manifest, null, 2));
  if (app.packageJson) await writeFile(join(dir, 'package.json'), JSON.stringify(app.packageJson));
  await writeFile(join(dir, String(manifest.main ?? (manifest.esm === true ? 'app.mjs' : 'app.js'))), app.code);
  for (const [name, text] of Object.entries(app.files ?? {})) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

/** Fast supervisor settings so crash tests do not wait minutes (no timing is asserted). */
export const FAST: Partial<Omit<SupervisorOptions, 'heapMb'>> = {
  backoffBaseMs: 50,
  backoffMaxMs: 400,
  crashLimit: 3,
  crashWindowMs: 60_000,
  startTimeoutMs: 10_000,
  stopTimeoutMs: 1_000,
  killGraceMs: 1_000,
  usageIntervalMs: 200,
  pingIntervalMs: 0,
};

export interface TestRuntime {
  rt: AppRuntime;
  store: Store;
  appsDir: string;
  dataDir: string;
  events: Array<{ kind: string; app: App }>;
  /** Resolves when `predicate` holds for the app (checked on every change). */
  until(id: string, predicate: (app: App) => boolean, what: string, timeoutMs?: number): Promise<App>;
  /**
   * Resolves with the app's setting `key` once `ok` holds for it (default: it has a value). An
   * app's `this.homey.settings.set` returns at once; the hub stores the value a moment later.
   */
  setting(id: string, key: string, ok?: (value: unknown) => boolean): Promise<unknown>;
  close(): Promise<void>;
}

export async function startRuntime(opts: {
  appsDir: string;
  dataDir: string;
  heapMb?: number;
  supervisor?: Partial<Omit<SupervisorOptions, 'heapMb'>>;
  stableAfterMs?: number;
  setup?: (rt: AppRuntime) => void;
  realtime?: RuntimeHooks['realtime'];
}): Promise<TestRuntime> {
  await mkdir(opts.dataDir, { recursive: true });
  const store = await Store.open(opts.dataDir);
  const events: TestRuntime['events'] = [];
  const waiters = new Set<() => void>();
  const rt = new AppRuntime({
    hooks: {
      event: (kind, app) => {
        events.push({ kind, app });
        for (const w of [...waiters]) w();
      },
      ...(opts.realtime ? { realtime: opts.realtime } : {}),
    },
    appsDir: opts.appsDir,
    dataDir: opts.dataDir,
    store,
    log: pino({ level: 'silent' }),
    heapMb: opts.heapMb ?? 64,
    supervisor: { ...FAST, ...opts.supervisor },
    ...(opts.stableAfterMs !== undefined ? { stableAfterMs: opts.stableAfterMs } : {}),
  });
  opts.setup?.(rt);
  await rt.start();
  return {
    rt,
    store,
    appsDir: opts.appsDir,
    dataDir: opts.dataDir,
    events,
    until(id, predicate, what, timeoutMs = 20_000) {
      return new Promise<App>((resolvePromise, reject) => {
        const check = (): boolean => {
          let app: App;
          try {
            app = rt.get(id);
          } catch {
            return false;
          }
          if (!predicate(app)) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolvePromise(app);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`app ${id} never became ${what}; now ${JSON.stringify(rt.get(id))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async setting(id, key, ok = (v) => v !== null) {
      return poll(() => rt.settings.get(id, key), ok, `setting '${key}' of app ${id} becoming what the test waits for`, 1000, 20);
    },
    async close() {
      await rt.stop();
      // As the hub stops: its journal's handle closed, not left to the garbage collector.
      await store.close();
    },
  };
}

export async function listDir(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).sort();
}

/** The apps folder's entries besides `node_modules` (where the runtime links the SDK as `homey`). */
export async function listApps(appsDir: string): Promise<string[]> {
  // The hub's own: the SDK link's folder and the package.json that makes apps CommonJS.
  return (await listDir(appsDir)).filter((n) => n !== 'node_modules' && n !== 'package.json');
}

export async function removeAll(...dirs: string[]): Promise<void> {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}

/** Serves the files of `dir` over plain http on a free port (a catalogue as a remote store). */
export async function serveFolder(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    readFile(join(dir, new URL(req.url ?? '/', 'http://x').pathname)).then(
      (data) => res.end(data),
      () => res.writeHead(404).end(),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
