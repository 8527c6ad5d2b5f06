/**
 * The command one step of an app's build runs as (npm installing its packages, its TypeScript
 * compiler): in namespaces of its own as an app runs, through bubblewrap, seeing the system's
 * read-only folders, node, hearth's npm (read-only) and the build's own folder (read-write) and
 * nothing else of the hub: no data dir, no other app, no token in its environment. Only the step
 * that fetches packages shares the network. Without namespaces the owner chose to run apps
 * without them (`--app-sandbox off`), and builds run so too, under the same limits.
 */
import { type ContainedLimits, containedCommand, type Sandbox } from '../host/sandbox.js';

export interface BuildStepSpec {
  /** The node binary, and what it runs (a script and its arguments). */
  readonly node: string;
  readonly argv: readonly string[];
  /** The build's folder: the app folder, npm's home and cache, a temporary folder. Read-write. */
  readonly root: string;
  /** Where the step runs (the app folder, inside root). */
  readonly cwd: string;
  /** Folders the step reads besides the system's (hearth's npm). */
  readonly readOnly: readonly string[];
  /** Whether the step shares the host's network (fetching packages only). */
  readonly network: boolean;
  /** The heap each node process of the step may grow to, MiB. */
  readonly memoryMb: number;
}

/** What a step may use: its heap's worth of mapped data (RLIMIT_DATA counts what V8 reserves, so well above it), files, processes. */
const limitsOf = (memoryMb: number): ContainedLimits => ({ addressMb: memoryMb * 4 + 1024, openFiles: 8192, fileMb: 512, processes: 512, tmpMb: 16 });

/** The environment a step gets: its own, nothing of the hub's (which may hold the owner token). */
export function buildEnv(spec: BuildStepSpec): Record<string, string> {
  return {
    HOME: `${spec.root}/home`,
    TMPDIR: `${spec.root}/tmp`,
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    NODE_OPTIONS: `--max-old-space-size=${spec.memoryMb}`,
    NO_COLOR: '1',
  };
}

export function buildCommand(sandbox: Sandbox, spec: BuildStepSpec): { file: string; args: string[] } {
  const own = [...spec.readOnly.flatMap((dir) => ['--ro-bind', dir, dir]), '--bind', spec.root, spec.root, '--remount-ro', '/', '--chdir', spec.cwd];
  return containedCommand(sandbox, { limits: limitsOf(spec.memoryMb), network: spec.network, node: spec.node }, own, [spec.node, ...spec.argv]);
}
