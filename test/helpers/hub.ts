/**
 * Starts a real hub process (the built CLI in dist/) on a free port with a temporary data dir,
 * for integration tests. Every test talks to it over HTTP and WebSocket like any client.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { ContractOperations, ManagerName } from '../../src/core/contract.js';
import type { Contracts } from '../../src/managers/contracts.js';
import { callOp, type OpAnswer, type OpArgs, type OpId } from './op.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'dist/cli.js');
export const OWNER = 'hth_test-owner-token-0123456789abcdef0123456789abcdef';

export interface HubOptions {
  /** Extra flags for `hearth start`. */
  args?: string[];
  env?: Record<string, string>;
  /** Reuse a data dir (restart tests); a new temp dir otherwise. */
  dataDir?: string;
  /** Defaults to an empty temp folder so the example apps do not start. */
  appsDir?: string;
  /** Defaults to OWNER; null: let the hub make its own owner token. */
  ownerToken?: string | null;
  /** Hands the hub an open pipe on this descriptor (not close-on-exec), as a careless parent would. */
  inheritFd?: number;
  /** Runs the hub in this network namespace, listening on `address` there (test/helpers/netns.ts). */
  netns?: { name: string; address: string };
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as is, without JSON encoding (malformed-input tests). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface CallResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RunningHub {
  readonly url: string;
  readonly wsUrl: string;
  readonly port: number;
  readonly dataDir: string;
  readonly appsDir: string;
  readonly process: ChildProcess;
  /** Everything the hub printed, for failure messages. */
  readonly output: string[];
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>;
  /** An operation by manager and id, typed from its contract, as the owner (helpers/op.ts); a refusal throws OpError. */
  op<M extends ManagerName, K extends OpId<M>>(manager: M, id: K, ...input: OpArgs<ContractOperations<Contracts[M]>[K]>): Promise<OpAnswer<M, K>>;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Removes the temp dirs this helper made. */
  cleanup(): Promise<void>;
}

export async function tempDir(prefix = 'hearth-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function startHub(options: HubOptions = {}): Promise<RunningHub> {
  const made: string[] = [];
  const dataDir = options.dataDir ?? (await tempDir());
  if (!options.dataDir) made.push(dataDir);
  let appsDir = options.appsDir;
  if (!appsDir) {
    appsDir = await tempDir('hearth-apps-');
    made.push(appsDir);
  }
  await mkdir(appsDir, { recursive: true });
  // Every answer of every test hub is checked against its operation's output schema.
  // No test hub builds an app from the internet's npm registry: one that is to gets a stand-in's (--npm-registry).
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HEARTH_LOG_LEVEL: 'info',
    HEARTH_CHECK_ANSWERS: 'on',
    HEARTH_NPM_REGISTRY: 'http://127.0.0.1:9/',
    ...options.env,
  };
  delete env.HEARTH_OWNER_TOKEN;
  const owner = options.ownerToken === undefined ? OWNER : options.ownerToken;
  if (owner !== null) env.HEARTH_OWNER_TOKEN = owner;
  const host = options.netns?.address ?? '127.0.0.1';
  const args = [CLI, 'start', '--host', host, '--port', '0', '--data-dir', dataDir, '--apps-dir', appsDir, ...(options.args ?? [])];
  const stdio: Array<'ignore' | 'pipe'> = ['ignore', 'pipe', 'pipe'];
  if (options.inheritFd !== undefined) {
    for (let fd = 3; fd < options.inheritFd; fd++) stdio[fd] = 'ignore';
    stdio[options.inheritFd] = 'pipe';
  }
  // `ip netns exec` execs node itself: the child's pid is the hub's.
  const child = options.netns
    ? spawn('ip', ['netns', 'exec', options.netns.name, process.execPath, ...args], { env, stdio })
    : spawn(process.execPath, args, { env, stdio });
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => output.push(l));
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`hub did not start:\n${output.join('\n')}`)), 20_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'listening' && entry.port) {
          clearTimeout(timer);
          resolvePort(entry.port);
        }
      } catch {
        /* not JSON: keep it in output */
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hub exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
  const url = `http://${host}:${port}`;
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const hub: RunningHub = {
    url,
    wsUrl: `ws://${host}:${port}`,
    port,
    dataDir,
    appsDir,
    process: child,
    output,
    call: (method, path, callOptions = {}) => call(url, method, path, { token: owner, ...callOptions }),
    op: (manager, id, ...input) => callOp(url, owner, manager, id, ...input),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    async cleanup() {
      // --check-answers: an answer or event that broke its contract fails the test file here, and
      // so does a section of the data file trusted at start that its parse does not give back.
      const broken = output.filter(
        (l) =>
          l.includes('an answer does not match its schema') ||
          l.includes('an event does not match its contract') ||
          l.includes('a section trusted as this build wrote it differs'),
      );
      // SIGTERM first: the hub then stops its apps. A hub killed outright leaves app processes
      // whose event loop is busy (a CPU-spinning test app) unable to notice they are orphaned.
      const stopped = await Promise.race([hub.stop(), new Promise<'late'>((r) => setTimeout(() => r('late'), 10_000))]);
      if (stopped === 'late') await hub.kill();
      for (const dir of made) await rm(dir, { recursive: true, force: true });
      if (broken.length > 0) throw new Error(`the hub reported answers or events that break their contract:\n${broken.join('\n')}`);
    },
  };
  return hub;
}

export async function call<T = unknown>(base: string, method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}
