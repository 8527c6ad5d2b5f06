/**
 * How an app's process is contained: in namespaces of its own through bubblewrap (the Debian
 * package `bubblewrap`, which Flatpak uses; it works unprivileged where user namespaces are on,
 * as on Debian and Raspberry Pi OS), inside which Node's permission model still applies; or, where
 * bubblewrap is missing or user namespaces are off, Node's permission model alone. Either way
 * the process gets limits it cannot lift (prlimit: data size, open files, processes).
 *
 * In its namespaces an app sees its own processes only (it cannot signal the hub or another
 * app), only `lo` unless it asks for the network, and a file system made of read-only system
 * folders, the runtime, its own folder, its userdata (read-write, also at Homey's /userdata) and a
 * private /tmp: no data dir, no other app, nothing else of /sys.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Lent } from './lent-packages.js';
import { INFO_FD } from './node-pid.js';

export type Containment = 'namespaces' | 'permission-model-only';

export interface Sandbox {
  readonly containment: Containment;
  /** Why the apps run with the permission model only; null in namespaces. */
  readonly reason: string | null;
  /**
   * In namespaces: whether bubblewrap keeps an app from making user namespaces of its own
   * (`--disable-userns`). It cannot where /proc/sys is read-only (in a container: bubblewrap
   * 0.11+ writes the limit through it); the permission model's ban on native code and child
   * processes then keeps apps from calling unshare(2) at all.
   */
  readonly nestedUserns: 'forbidden' | 'not-forbidden';
  /** Why `nestedUserns` is not 'forbidden' (bubblewrap's own words), for the log; else null. */
  readonly note: string | null;
  /**
   * Why the hub starts no app, or null when it starts them. Without namespaces an app can signal
   * the hub, reach its API on 127.0.0.1 and outlive it (Node's permission model guards none of
   * that), so apps run there only when the owner chose it (`--app-sandbox off`); where `auto`
   * found no namespaces, apps are held with this sentence (issue 22, finding 6).
   */
  readonly hold: string | null;
}

/** How the operator asked for containment (`--app-sandbox`). */
export type SandboxChoice = 'auto' | 'bwrap' | 'off';

/** Limits an app's process gets; it cannot raise them (hard limits). */
export interface ProcessLimits {
  /**
   * The app's memory ceiling, MiB: what it really uses (its proportional set size, sampled by
   * app-watch.ts) may not pass it. What it maps is bounded by addressMb.
   */
  readonly memoryMb: number;
  /**
   * Address space the process may map for data (RLIMIT_DATA), MiB: a hard bound for a runaway
   * app between two samples. Generous, since it counts what V8 and malloc reserve, not what is
   * used (an app with a 22 MiB heap mapped 123 MiB at 92 MiB resident).
   */
  readonly addressMb: number;
  readonly openFiles: number;
  /** Processes and threads of the app's user (namespaces only: per user namespace there). */
  readonly processes: number;
  /** Size of the private /tmp (namespaces only), MiB. */
  readonly tmpMb: number;
  /** Largest file the process may write (RLIMIT_FSIZE; past it a write fails with EFBIG), MiB. */
  readonly fileMb: number;
}

export const BWRAP = 'bwrap';
export const PRLIMIT = 'prlimit';
/** util-linux's setpriv: sets the parent-death signal, then runs node (no app code in between). */
export const SETPRIV = 'setpriv';

/**
 * The namespaces every app gets besides its mount namespace (and the network one unless it may
 * use the network). Exactly what the systemd unit's RestrictNamespaces= lets the hub make: IPC,
 * UTS and cgroup namespaces stay refused (the hub uses no SysV IPC, and an app cannot change a
 * hostname or cgroups its user namespace does not own).
 */
export const UNSHARE = ['--unshare-user', '--unshare-pid'];

function run(file: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (err) => resolve({ code: null, stderr: err.message }));
    child.on('close', (code) => resolve({ code, stderr: stderr.trim() }));
  });
}

/**
 * Finds out how apps can be contained here: bubblewrap is tried once with the namespaces apps
 * get, so a kernel without user namespaces shows now, in one log line, not at every app start.
 */
export async function probeSandbox(choice: SandboxChoice, bwrap = BWRAP): Promise<Sandbox> {
  const fallback = (reason: string, hold: string | null): Sandbox => ({
    containment: 'permission-model-only',
    reason,
    nestedUserns: 'not-forbidden',
    note: null,
    hold,
  });
  if (choice === 'off') return fallback('app namespaces are turned off (--app-sandbox off)', null);
  const probe = (extra: string[]) =>
    run(bwrap, [...UNSHARE, '--unshare-net', ...extra, '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--die-with-parent', 'true']);
  const strict = await probe(['--disable-userns']);
  if (strict.code === 0) return { containment: 'namespaces', reason: null, nestedUserns: 'forbidden', note: null, hold: null };
  const tried = await probe([]);
  if (tried.code === 0) return { containment: 'namespaces', reason: null, nestedUserns: 'not-forbidden', note: strict.stderr.split('\n')[0] ?? '', hold: null };
  const missing = tried.code === null && /ENOENT/.test(tried.stderr);
  const reason = missing
    ? 'bubblewrap is not installed (apt-get install bubblewrap)'
    : `bubblewrap cannot make namespaces here (are user namespaces on? kernel.unprivileged_userns_clone=1): ${tried.stderr.split('\n')[0] ?? ''}`;
  if (choice === 'bwrap') throw new Error(`--app-sandbox bwrap was asked for, but ${reason}`);
  return fallback(
    reason,
    `the hub starts no app without namespaces of its own (${reason}): there an app could signal the hub and reach its API. ${missing ? 'Install bubblewrap' : 'Turn user namespaces on'}, or start the hub with --app-sandbox off (on a device: HEARTH_APP_SANDBOX=off in /etc/default/hearth) to run apps with Node's permission model alone`,
  );
}

/** What one app's process is made of. */
export interface SandboxSpec {
  /** The node binary and its arguments (execArgv and the bootstrap). */
  readonly node: readonly string[];
  /** What it reads of hearth: the bootstrap's folder, the shared protocol's, the SDK's (layout.ts appRuntimeDirs). */
  readonly runtime: readonly string[];
  /** The SDK's folder, which `<apps-dir>/node_modules/homey` links to. */
  readonly sdk: string;
  readonly appDir: string;
  readonly userdata: string;
  /** `<apps-dir>/node_modules/homey` (shown as a link to the SDK) and `<apps-dir>/package.json`. */
  readonly sdkLink: string;
  readonly appsPackage: string;
  /** The SDK as a package, mounted over the app's own `node_modules/homey` when it ships one (sdk-link.ts). */
  readonly homeyShim?: string;
  /** The libraries the hub lends, linked beside the SDK link (lent-packages.ts). */
  readonly lent: readonly Lent[];
  /** Single files the app may read besides those (sensor readings). */
  readonly readFiles: readonly string[];
  /** Whether the app shares the host's network (the `hearth:network:access` permission). */
  readonly network: boolean;
  readonly limits: ProcessLimits;
}

/** Homey apps write their files into /userdata: on hearth that is the app's userdata. */
export const HOMEY_USERDATA = '/userdata';

/** System folders an app's node needs, read-only (links such as /lib -> usr/lib stay links). */
const SYSTEM = ['/usr', '/bin', '/lib', '/lib64', '/lib32', '/sbin'];
/** Files from /etc a node process (and its DNS lookups, for apps on the network) reads. */
const ETC = [
  '/etc/ld.so.cache',
  '/etc/localtime',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/hosts',
  '/etc/nsswitch.conf',
  '/etc/host.conf',
  '/etc/gai.conf',
  '/etc/resolv.conf',
];

export function systemMounts(): string[] {
  const out: string[] = [];
  for (const path of SYSTEM) {
    let info: Stats;
    try {
      info = lstatSync(path);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) out.push('--symlink', readlinkSync(path), path);
    else if (info.isDirectory()) out.push('--ro-bind', path, path);
  }
  for (const path of ETC) out.push('--ro-bind-try', path, path);
  return out;
}

/**
 * The package.json files above `dir`, nearest first, up to the first that exists: Node reads
 * them to learn a module's type (an app's app.js is CommonJS unless its package says "module"),
 * so the one that decides is mounted where Node looks for it.
 */
export function scopeFiles(dir: string): string[] {
  const files: string[] = [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    const file = join(d, 'package.json');
    files.push(file);
    if (existsSync(file) || dirname(d) === d) return files;
  }
}

/** The folder node was installed into when it is not under /usr (an official build in /opt). */
export function nodePrefix(nodeBinary: string): string[] {
  const real = realpathSync(nodeBinary);
  if (real.startsWith('/usr/')) return [];
  const prefix = dirname(dirname(real));
  return ['--ro-bind', prefix, prefix];
}

/** The limits a contained process gets (an app's, a build step's). */
export type ContainedLimits = Pick<ProcessLimits, 'addressMb' | 'openFiles' | 'fileMb' | 'processes' | 'tmpMb'>;

/** The limits as prlimit arguments (soft = hard: the process cannot raise them). */
function prlimitArgs(limits: ContainedLimits, namespaces: boolean): string[] {
  const data = limits.addressMb * 1024 * 1024;
  const fsize = limits.fileMb * 1024 * 1024;
  const args = [`--data=${data}:${data}`, `--nofile=${limits.openFiles}:${limits.openFiles}`, `--fsize=${fsize}:${fsize}`];
  // RLIMIT_NPROC counts every process and thread of the user; in its own user namespace that
  // is the process alone, outside it the hub and every app too, so it is set only there.
  if (namespaces) args.push(`--nproc=${limits.processes}:${limits.processes}`);
  return args;
}

/**
 * The command of a contained process (an app, a step of an app's build): prlimit, then (in
 * namespaces) bubblewrap with what every such process gets (its namespaces, the network only
 * when it may have it, the system's folders read-only, a private /tmp, /proc, /dev, node), then
 * `own` (its own bubblewrap arguments: mounts, working folder), then `run`. Without namespaces:
 * prlimit and setpriv, so the kernel still ends it with the hub.
 */
export function containedCommand(
  sandbox: Sandbox,
  c: { readonly limits: ContainedLimits; readonly network: boolean; readonly node: string },
  own: readonly string[],
  run: readonly string[],
): { file: string; args: string[] } {
  const namespaces = sandbox.containment === 'namespaces';
  const limits = [...prlimitArgs(c.limits, namespaces), '--'];
  // Without namespaces the kernel still ends the process with the hub: a dead hub's app cannot
  // outlive it, whatever it does to process.exit or its title (bubblewrap's --die-with-parent
  // does the same in namespaces).
  if (!namespaces) return { file: PRLIMIT, args: [...limits, SETPRIV, '--pdeathsig', 'KILL', '--', ...run] };
  const args = [
    ...limits,
    BWRAP,
    ...UNSHARE,
    ...(c.network ? [] : ['--unshare-net']),
    ...(sandbox.nestedUserns === 'forbidden' ? ['--disable-userns'] : []),
    '--die-with-parent',
    // Not --as-pid-1: the first process of a pid namespace gets no signal it has no handler for,
    // not even its own abort(), and a node that hit its heap limit then died of SIGSEGV instead of
    // SIGABRT. bubblewrap's small reaper is pid 1; node is pid 2, as any program expects to be.
    '--new-session',
    ...systemMounts(),
    // Before the process's own mounts: on a hub whose folders are under /tmp (tests) they go on top.
    '--size',
    String(c.limits.tmpMb * 1024 * 1024),
    '--tmpfs',
    '/tmp',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...nodePrefix(c.node),
    ...own,
    '--',
    ...run,
  ];
  return { file: PRLIMIT, args };
}

/**
 * The command that starts an app's process: prlimit, then (in namespaces) bubblewrap, then node.
 * Paths inside the sandbox are the host's, so the permission model's flags hold on both sides.
 */
export function sandboxCommand(sandbox: Sandbox, spec: SandboxSpec): { file: string; args: string[] } {
  const [nodeBinary, ...nodeArgs] = spec.node as [string, ...string[]];
  const appsDir = dirname(spec.appsPackage);
  const own = [
    // Which process is node, from bubblewrap rather than from anything the app can write.
    '--info-fd',
    String(INFO_FD),
    ...spec.runtime.flatMap((dir) => ['--ro-bind', dir, dir]),
    ...[...new Set(spec.runtime.flatMap(scopeFiles))].flatMap((file) => ['--ro-bind-try', file, file]),
    '--ro-bind',
    spec.appDir,
    spec.appDir,
    ...(spec.homeyShim ? ['--ro-bind', spec.homeyShim, join(spec.appDir, 'node_modules', 'homey')] : []),
    '--ro-bind',
    spec.appsPackage,
    spec.appsPackage,
    '--dir',
    join(appsDir, 'node_modules'),
    '--symlink',
    spec.sdk,
    spec.sdkLink,
    ...spec.lent.flatMap(({ link, target }) => ['--ro-bind', target, target, '--symlink', target, link]),
    '--bind',
    spec.userdata,
    spec.userdata,
    '--bind',
    spec.userdata,
    HOMEY_USERDATA,
    ...spec.readFiles.flatMap((file) => ['--ro-bind-try', file, file]),
    // The folders bubblewrap made to mount the above on stay read-only.
    '--remount-ro',
    '/',
    '--chdir',
    spec.userdata,
  ];
  return containedCommand(sandbox, { limits: spec.limits, network: spec.network, node: nodeBinary }, own, [nodeBinary, ...nodeArgs]);
}
