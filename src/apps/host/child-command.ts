/**
 * How an app's child process is started: the node flags (the permission model's allow-list, the
 * heap limit), the environment it gets (nothing of the hub's), the command around it (prlimit and,
 * in namespaces, bubblewrap: sandbox.ts), and the throttle on what it prints.
 */

import { lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { appRuntimeDirs, runtimeDir } from '../../layout.js';
import { OWN_FDS } from '../child/fd-sync.js';
import type { ChildSpec } from './child-spec.js';
import { HOMEY_USERDATA, sandboxCommand } from './sandbox.js';
import { ES_MODULE_SHIM } from './sdk-link.js';

/** Output an app may write per stream per second before its writes block (the ring keeps 64 KiB). */
export const OUTPUT_BYTES_PER_SECOND = 256 * 1024;

/**
 * Feeds a child's output to `sink`, pausing the stream when the app writes more than
 * `OUTPUT_BYTES_PER_SECOND`: the flooding app then blocks on its own writes instead of the hub
 * spending its CPU reading the flood.
 */
export function throttled(stream: Readable | null, sink: (chunk: Buffer) => void): void {
  if (!stream) return;
  let windowStart = Date.now();
  let used = 0;
  stream.on('data', (chunk: Buffer) => {
    sink(chunk);
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      used = 0;
    }
    used += chunk.length;
    if (used > OUTPUT_BYTES_PER_SECOND && !stream.isPaused()) {
      stream.pause();
      setTimeout(() => stream.resume(), Math.max(1, 1000 - (now - windowStart))).unref();
    }
  });
}

/** The compiled app-side code (dist/apps/child): from the build's layout, which a bundle keeps. */
export { runtimeDir };

/** What an app process reads of hearth: the bootstrap bundle, the shared protocol's folder, the SDK's. */
function runtimeReads(): string[] {
  const { bootstrap, wire, sdk } = appRuntimeDirs();
  return [bootstrap, wire, sdk];
}

/**
 * The node flags of an app's child: heap limit, gc, and the permission model's allow-list (in
 * namespaces the second wall: the mounts are the first). The heap stays below the memory
 * ceiling, so an app that fills its heap is told so before the ceiling stops its Buffers.
 */
/**
 * The package.json of every folder above `dir`: Node's module loader reads them to find the
 * package scope ("type") of a module in `dir`. Before Node 20.20 a read the permission model
 * refuses there stops the child instead of counting as "no file" (Debian 13's Node 20.19 started
 * no app: the bootstrap's own scope lookup read dist/package.json).
 */
function scopeFilesAbove(dir: string): string[] {
  const files: string[] = [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    files.push(join(d, 'package.json'));
    if (dirname(d) === d) return files;
  }
}

export function childExecArgv(
  spec: Pick<ChildSpec, 'dir' | 'userdata' | 'readPaths'> & Partial<Pick<ChildSpec, 'sandbox' | 'limits' | 'lent'>>,
  heapMb: number,
  runtime: readonly string[] = runtimeReads(),
): string[] {
  // One flag per path: Node 20 does not split comma-separated lists reliably. The runtime is
  // the bootstrap bundle (dist/apps/bootstrap.cjs), the shared protocol (dist/apps/wire) and the SDK (dist/homey).
  const writes = [spec.userdata, ...(spec.sandbox?.containment === 'namespaces' ? [HOMEY_USERDATA] : [])];
  // Above the bootstrap and the app, only the package.json files the module loader looks for.
  const scopes = new Set([...runtime.flatMap(scopeFilesAbove), ...scopeFilesAbove(spec.dir)]);
  // Its own descriptors, which fs.fsync opens again to flush (fd-sync.ts).
  const reads = [...runtime, spec.dir, ...writes, ...spec.readPaths, ...(spec.lent ?? []).map((l) => l.target), ...scopes, OWN_FDS];
  const heap = spec.limits ? Math.min(heapMb, Math.max(16, Math.floor(spec.limits.memoryMb * 0.75))) : heapMb;
  return [
    '--experimental-permission',
    '--disable-warning=ExperimentalWarning',
    ...reads.map((p) => `--allow-fs-read=${p}`),
    ...writes.map((p) => `--allow-fs-write=${p}`),
    '--expose-gc',
    `--max-old-space-size=${heap}`,
    // One V8 background thread, as the hub has (DAEMON_NODE_FLAGS), not four: a busy app's
    // optimising compiles and GC helpers are then one thread among the home's, not four on a
    // two-core board; its main thread waited on them (the big home's flow trigger p99 3.0-4.3 ms
    // with one, 4.3-5.6 with four; docs/performance.md).
    '--v8-pool-size=1',
  ];
}

/** Only what an app needs: the hub's secrets (HEARTH_OWNER_TOKEN) and NODE_OPTIONS stay out. */
export function childEnv(spec: ChildSpec): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { HOME: spec.userdata, HEARTH_APP_ID: spec.id };
  for (const key of ['PATH', 'TZ', 'LANG', 'LC_ALL', 'NODE_ENV'] as const) {
    if (process.env[key] !== undefined) env[key] = process.env[key];
  }
  return env;
}

/** Whether the app ships a folder `node_modules/homey` (a link is not mounted over: it may point anywhere). */
function shipsOwnHomey(appDir: string): boolean {
  return lstatSync(join(appDir, 'node_modules', 'homey'), { throwIfNoEntry: false })?.isDirectory() === true;
}

/** The command that starts the app of `spec`: prlimit, bubblewrap (in namespaces), node. */
export function childCommand(spec: ChildSpec, heapMb: number): { file: string; args: string[] } {
  const dirs = appRuntimeDirs();
  const runtime = runtimeReads();
  return sandboxCommand(spec.sandbox, {
    node: [process.execPath, ...childExecArgv(spec, heapMb, runtime), dirs.bootstrap],
    runtime,
    sdk: dirs.sdk,
    appDir: spec.dir,
    userdata: spec.userdata,
    sdkLink: spec.sdkLink,
    lent: spec.lent,
    appsPackage: spec.appsPackage,
    ...(shipsOwnHomey(spec.dir) ? { homeyShim: join(dirname(spec.sdkLink), ES_MODULE_SHIM) } : {}),
    // The folder of the SDK link is made in the sandbox with the link alone in it.
    readFiles: spec.readPaths.filter((p) => p !== dirname(spec.sdkLink)),
    network: spec.network,
    limits: spec.limits,
  });
}
