/**
 * Helpers for the apps tests: write throwaway apps into a temp apps folder, start a runtime on
 * a temp data dir (real Store, real child processes), and wait for an app to reach a state.
 */
import { once } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pino from 'pino';
import { AppRuntime, type App } from '../../src/apps/runtime.js';
import type { SupervisorOptions } from '../../src/apps/supervisor.js';
import { Store } from '../../src/core/store.js';

export const ROOT = resolve(import.meta.dirname, '../..');

/** The child runs the built bootstrap: fail with a clear sentence when the build is missing or stale. */
export function assertBuilt(): void {
  const built = join(ROOT, 'dist/apps/bootstrap.js');
  if (!existsSync(built)) throw new Error('dist/apps/bootstrap.js is missing: run `npm run build` before these tests');
  const srcDir = join(ROOT, 'src/apps');
  const newest = Math.max(...['bootstrap.ts', 'sdk-child.ts', 'wire.ts'].map((f) => statSync(join(srcDir, f)).mtimeMs));
  if (statSync(built).mtimeMs < newest - 1000) throw new Error('dist/apps is older than src/apps: run `npm run build` first');
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export interface TestApp {
  manifest?: Record<string, unknown>;
  /** CommonJS source of app.js. */
  code: string;
  files?: Record<string, string>;
}

export async function writeApp(appsDir: string, id: string, app: TestApp): Promise<string> {
  const dir = join(appsDir, id);
  await mkdir(dir, { recursive: true });
  const manifest: Record<string, unknown> = { id, version: '1.0.0', sdk: 3, name: { en: id }, ...app.manifest };
  await writeFile(join(dir, 'app.json'), JSON.stringify(manifest, null, 2));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: id, private: true, type: 'commonjs' }));
  await writeFile(join(dir, String(manifest.main ?? 'app.js')), app.code);
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
  close(): Promise<void>;
}

export async function startRuntime(opts: {
  appsDir: string;
  dataDir: string;
  heapMb?: number;
  supervisor?: Partial<Omit<SupervisorOptions, 'heapMb'>>;
  setup?: (rt: AppRuntime) => void;
}): Promise<TestRuntime> {
  await mkdir(opts.dataDir, { recursive: true });
  const store = await Store.open(opts.dataDir);
  const rt = new AppRuntime({
    appsDir: opts.appsDir,
    dataDir: opts.dataDir,
    store,
    log: pino({ level: 'silent' }),
    heapMb: opts.heapMb ?? 64,
    supervisor: { ...FAST, ...opts.supervisor },
  });
  const events: TestRuntime['events'] = [];
  const waiters = new Set<() => void>();
  rt.onEvent = (kind, app) => {
    events.push({ kind, app });
    for (const w of [...waiters]) w();
  };
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
    async close() {
      await rt.stop();
      await store.flush();
    },
  };
}

export async function listDir(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).sort();
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
