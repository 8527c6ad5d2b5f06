/**
 * Builds an app folder from a repository or an upload as `homey app build` does (build-plan.ts
 * says what it needs): its npm packages installed from the registry with install scripts off,
 * its TypeScript compiled with its own compiler and tsconfig.json over the folder, and the
 * development packages the compiler needed removed again. Each step runs contained
 * (build-sandbox.ts); the whole build is bounded in time, in the memory of each step and in the
 * blocks its folder takes on disk, and a failed one answers why in one sentence. Nothing is
 * installed here: the folder stays in its staging until the owner installs it.
 */
import { spawn } from 'node:child_process';
import { cp, readdir, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { invalid } from '../../core/errors.js';
import { makeDirs } from '../../core/files.js';
import { folderUsage } from '../host/disk-usage.js';
import type { Sandbox } from '../host/sandbox.js';
import type { BuildPlan } from './build-plan.js';
import { type BuildStepSpec, buildCommand, buildEnv } from './build-sandbox.js';

export interface BuildLimits {
  /** The heap of each step's node, MiB (tsc on a large app needs a few hundred). */
  readonly memoryMb: number;
  /** The whole build, every step. */
  readonly timeoutMs: number;
  /** Blocks the build's folder may take on disk (packages, cache, compiled code). */
  readonly maxBytes: number;
  /** Free space the data filesystem keeps: below it the build stops. */
  readonly floorBytes: number;
}

/** Limits when none are configured: what a 2 GiB board can give one build. */
export const DEFAULT_BUILD_LIMITS: BuildLimits = {
  memoryMb: 512,
  timeoutMs: 20 * 60_000,
  maxBytes: 1536 * 1024 * 1024,
  floorBytes: 256 * 1024 * 1024,
};

export interface BuildEnvironment {
  readonly sandbox: Sandbox;
  /** The npm registry packages come from. */
  readonly registry: string;
  readonly limits: BuildLimits;
  readonly node?: string;
}

export type BuildStep = 'packages' | 'compile' | 'prune';

export interface BuildProgress {
  readonly step: BuildStep;
  /** What is happening, for a person ("Installing npm packages: 12 fetched"). */
  readonly sentence: string;
  /** The last lines the step printed. */
  readonly lines: readonly string[];
}

/** Lines kept of a step's output, and the characters kept of each. */
const KEPT_LINES = 30;
const LINE_CHARS = 300;
/** How often the build's folder and the disk are measured. */
const MEASURE_MS = 3000;
/** Entries walked in one measurement of the folder (a large app's packages hold tens of thousands). */
const MAX_ENTRIES = 400_000;

/** hearth's own npm (a production dependency: a board's node may come without one). */
export function npmCli(): string {
  return join(dirname(createRequire(import.meta.url).resolve('npm/package.json')), 'bin', 'npm-cli.js');
}

const SENTENCE: Record<BuildStep, string> = {
  packages: 'Installing npm packages',
  compile: 'Compiling TypeScript',
  prune: 'Removing the packages only the compiler needed',
};

/**
 * Builds the app in `dir` (inside the staging folder `root`) by `plan`. Resolves when it is
 * built; rejects with a sentence saying why not (the folder is then to be thrown away).
 */
export async function buildApp(
  root: string,
  dir: string,
  plan: BuildPlan,
  env: BuildEnvironment,
  onProgress: (p: BuildProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (env.sandbox.hold) throw invalid(`apps cannot be built here: ${env.sandbox.hold}`);
  for (const sub of ['home', 'tmp']) await makeDirs(join(root, sub));
  const guard = new BuildGuard(root, env.limits, signal);
  const restore = await leaveOut(dir, plan.leftOut);
  try {
    const npm = npmCli();
    const step = (name: BuildStep, argv: string[], network: boolean): Promise<void> =>
      runStep(
        env.sandbox,
        { node: env.node ?? process.execPath, argv, root, cwd: dir, readOnly: [dirname(dirname(npm))], network, memoryMb: env.limits.memoryMb },
        name,
        guard,
        onProgress,
      );
    const quiet = ['--no-audit', '--no-fund', '--no-update-notifier', '--ignore-scripts', `--cache=${join(root, 'home', '.npm')}`];
    if (plan.packages) {
      await step(
        'packages',
        [
          npm,
          'install',
          ...quiet,
          '--loglevel=http',
          // A lockfile's registry.npmjs.org addresses go to the registry given (npm's default,
          // replace-registry-host=npmjs); other hosts it names (GitHub's packages) stay its own.
          `--registry=${env.registry}`,
          ...(plan.packages === 'production' ? ['--omit=dev'] : []),
        ],
        true,
      );
    }
    if (plan.compile) {
      const out = join(root, 'compiled');
      await rm(out, { recursive: true, force: true });
      const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
      // Type errors do not stop `homey app build` from emitting JavaScript (noEmitOnError is
      // off): a step that printed errors but emitted goes on, as there.
      await step('compile', [tsc, '-p', dir, '--outDir', out, '--pretty', 'false'], false).catch(async (err: unknown) => {
        if ((await readdir(out).catch(() => [])).length === 0) throw err;
      });
      await cp(out, dir, { recursive: true, force: true });
      await rm(out, { recursive: true, force: true });
    }
    if (plan.packages === 'all') await step('prune', [npm, 'prune', ...quiet, '--omit=dev', '--offline', '--loglevel=warn'], false);
  } finally {
    guard.stop();
    await restore();
    await rm(join(root, 'home'), { recursive: true, force: true });
    await rm(join(root, 'tmp'), { recursive: true, force: true });
  }
}

/**
 * Takes the packages the hub leaves out (build-plan.ts LEFT_OUT) out of package.json for the
 * build; answers how to put the app's own files back afterwards.
 */
async function leaveOut(dir: string, names: readonly string[]): Promise<() => Promise<void>> {
  if (names.length === 0) return async () => undefined;
  const files = ['package.json', 'package-lock.json'];
  const saved = await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8').catch(() => null)));
  const pkg = JSON.parse(saved[0]!) as Record<string, Record<string, string> | undefined>;
  for (const field of ['dependencies', 'devDependencies']) for (const name of names) delete pkg[field]?.[name];
  await writeFile(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  return async () => {
    for (const [i, text] of saved.entries()) if (text !== null) await writeFile(join(dir, files[i]!), text);
  };
}

/** Watches a build's time, blocks on disk and free space; kills its running step past a bound. */
class BuildGuard {
  private reason: string | null = null;
  private measuring = false;
  private kill: (() => void) | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly onAbort = (): void => this.stopWith('the build was stopped');

  constructor(
    private readonly root: string,
    private readonly limits: BuildLimits,
    private readonly signal?: AbortSignal,
  ) {
    this.timers.push(setTimeout(() => this.stopWith(`the build took longer than ${Math.round(limits.timeoutMs / 60_000)} minutes`), limits.timeoutMs));
    this.timers.push(setInterval(() => void this.measure(), MEASURE_MS));
    for (const t of this.timers) t.unref();
    signal?.addEventListener('abort', this.onAbort);
    if (signal?.aborted) this.onAbort();
  }

  /** Why the build was stopped, or null. */
  get stopped(): string | null {
    return this.reason;
  }

  /** The running step's kill, while it runs. */
  running(kill: (() => void) | null): void {
    this.kill = kill;
    if (kill && this.reason) kill();
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  private stopWith(reason: string): void {
    this.reason ??= reason;
    this.kill?.();
  }

  private async measure(): Promise<void> {
    // A walk of a large install may outlast the interval: one at a time.
    if (this.measuring) return;
    this.measuring = true;
    try {
      await this.measureOnce();
    } finally {
      this.measuring = false;
    }
  }

  private async measureOnce(): Promise<void> {
    const used = await folderUsage(this.root, MAX_ENTRIES);
    const mib = (n: number): number => Math.round(n / 1024 / 1024);
    if (used.truncated || used.bytes > this.limits.maxBytes) {
      this.stopWith(`the build's files took more than ${mib(this.limits.maxBytes)} MiB on disk`);
      return;
    }
    const fs = await statfs(this.root).catch(() => null);
    if (fs && fs.bavail * fs.bsize < this.limits.floorBytes) this.stopWith(`the disk is nearly full (less than ${mib(this.limits.floorBytes)} MiB free)`);
  }
}

/** Runs one step; resolves when it exits 0, else rejects with the sentence for its failure. */
function runStep(sandbox: Sandbox, spec: BuildStepSpec, step: BuildStep, guard: BuildGuard, onProgress: (p: BuildProgress) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const { file, args } = buildCommand(sandbox, spec);
    const child = spawn(file, args, { env: buildEnv(spec), stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let fetched = 0;
    const tell = (): void => onProgress({ step, sentence: `${SENTENCE[step]}${step === 'packages' ? `: ${fetched} fetched` : ''}`, lines: [...lines] });
    const take = (line: string): void => {
      if (/^npm http fetch GET 200 \S+\.tgz/.test(line)) fetched++;
      else if (line.trim() !== '') {
        lines.push(line.slice(0, LINE_CHARS));
        if (lines.length > KEPT_LINES) lines.shift();
      }
      tell();
    };
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', take);
    tell();
    guard.running(() => child.kill('SIGKILL'));
    child.on('error', (err) => {
      guard.running(null);
      reject(invalid(`the build could not start (${err.message})`));
    });
    child.on('close', (code) => {
      guard.running(null);
      if (code === 0 && !guard.stopped) resolve();
      else reject(invalid(guard.stopped ?? failure(step, lines, spec.memoryMb)));
    });
  });
}

/** One sentence for a failed step, from what it printed. */
export function failure(step: BuildStep, lines: readonly string[], memoryMb: number): string {
  if (lines.some((l) => /heap out of memory|Allocation failed/.test(l))) {
    return `the build ran out of memory (${memoryMb} MiB; a larger limit: --app-build-memory-mb)`;
  }
  if (step === 'compile') {
    const error = lines.find((l) => /error TS\d+/.test(l));
    return `TypeScript emitted nothing: ${error ?? lines.at(-1) ?? 'the compiler said nothing'}`;
  }
  const said = lines
    .filter((l) => l.startsWith('npm error') || l.startsWith('npm ERR!'))
    .map((l) => l.replace(/^npm (error|ERR!)\s*/, ''))
    .filter((l) => l !== '' && !/^(code|errno|syscall|A complete log|Log files|\/)/.test(l));
  const what = step === 'packages' ? "npm could not install the app's packages" : 'npm could not remove the development packages';
  return `${what}: ${said[0] ?? lines.at(-1) ?? 'it said nothing'}`;
}
