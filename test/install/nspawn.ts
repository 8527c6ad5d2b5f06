/**
 * Fresh Debian systems for the installation tests: a minimal root made with debootstrap (cached
 * between runs), booted with systemd-nspawn on the host's network, and commands run inside with
 * nsenter (the container is not registered with machined, so machinectl cannot reach it). Roots
 * of another architecture (arm64, armhf) run under qemu-user, through the kernel's binfmt_misc.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { nodeBuild } from '../../scripts/release/native.mjs';
import { target as releaseTarget } from '../../scripts/release/targets.mjs';
import { childrenOf, statusOf } from '../../src/apps/host/node-pid.js';

export const CACHE = '/var/cache/hearth-nspawn';
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Why the test cannot run here, or null when it can. */
export function cannotRun(): string | null {
  if (process.platform !== 'linux') return 'systemd-nspawn needs Linux';
  if (process.getuid?.() !== 0) return 'booting a container needs root (CI runs as root)';
  for (const tool of ['debootstrap', 'systemd-nspawn', 'nsenter']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`], { env: { PATH } }).status !== 0) {
      return `${tool} is not installed (apt-get install debootstrap systemd-container)`;
    }
  }
  return null;
}

/** qemu-user's binfmt_misc entry for each foreign Debian architecture. */
const QEMU: Readonly<Record<string, string>> = { arm64: 'qemu-aarch64', armhf: 'qemu-arm' };

/**
 * Why roots of Debian architecture `arch` cannot run here, or null when they can: qemu-user must
 * be registered with the F flag (its interpreter opened at registration), so that it serves
 * binaries inside a container that has no qemu of its own.
 */
export function cannotEmulate(arch: string, suite = 'bookworm'): string | null {
  const entry = QEMU[arch];
  if (!entry) return `no emulator for ${arch}`;
  const file = `/proc/sys/fs/binfmt_misc/${entry}`;
  const setup = 'apt-get install qemu-user-static binfmt-support, with binfmt_misc mounted: .ci/run shows how';
  if (!existsSync(file)) return `${entry} is not registered with binfmt_misc (${setup})`;
  const status = readFileSync(file, 'utf8');
  if (!status.startsWith('enabled')) return `${entry} is registered but disabled (update-binfmts --enable ${entry})`;
  // F: the interpreter is opened at registration, so a container needs no qemu of its own.
  // O: the kernel hands qemu the open binary, which systemd 257 runs its executor from (execveat
  // of a close-on-exec descriptor, which qemu could not open again by path).
  const flags = /^flags: (.*)$/m.exec(status)?.[1] ?? '';
  if (!flags.includes('F') || !flags.includes('O')) return `${entry} is registered with flags "${flags}", and containers need F and O (${setup})`;
  if (suite !== 'bookworm') {
    // qemu before 8.1 refuses CLONE_PIDFD, with which Debian 13's systemd spawns every service.
    const version = spawnSync(`${entry}-static`, ['--version'], { encoding: 'utf8', env: { PATH } }).stdout ?? '';
    const major = Number(/version (\d+)\./.exec(version)?.[1] ?? 0);
    if (major < 9)
      return `qemu-user ${major || 'of unknown version'} cannot start Debian 13's systemd (it needs 9 or newer: on Debian 12, bookworm-backports' qemu-user-static)`;
  }
  return null;
}

/**
 * A minimal root of `suite` (bookworm, trixie) for Debian architecture `arch` with systemd, made
 * once and cached (a foreign one takes debootstrap some four minutes under emulation).
 */
export async function rootfs(suite: string, arch = 'amd64'): Promise<string> {
  const dir = join(CACHE, arch === 'amd64' ? `${suite}-root` : `${suite}-${arch}-root`);
  if (existsSync(join(dir, 'usr/lib/systemd/systemd')) || existsSync(join(dir, 'lib/systemd/systemd'))) return dir;
  await mkdir(CACHE, { recursive: true });
  const partial = `${dir}.partial`;
  await rm(partial, { recursive: true, force: true });
  const run = spawnSync(
    'debootstrap',
    [`--arch=${arch}`, '--variant=minbase', '--include=systemd,dbus,ca-certificates', suite, partial, 'http://deb.debian.org/debian'],
    { encoding: 'utf8', env: { PATH }, timeout: 20 * 60_000 },
  );
  if (run.status !== 0) throw new Error(`debootstrap ${suite} ${arch} failed (is deb.debian.org reachable?): ${run.stderr.slice(-600)}`);
  await rename(partial, dir);
  return dir;
}

/** A copy of the cached root `base` in `work`, to boot and change (cp -a: owners, modes, links and device nodes as debootstrap made them). */
export function cloneRoot(base: string, work: string): string {
  const root = join(work, 'root');
  execFileSync('cp', ['-a', base, root]);
  return root;
}

export interface Container {
  /** Runs a command inside as root; resolves with its output, rejects on a non-zero exit. */
  run(command: string, env?: Record<string, string>, timeoutMs?: number): string;
  /** The unit's main pid inside the container (0 when not running). */
  mainPid(unit: string): number;
  poweroff(): Promise<void>;
  /** Ends the container at once (its init killed from outside), for where a clean poweroff is slow. */
  kill(): Promise<void>;
}

/**
 * One container at a time, across test files (vitest runs files in parallel): with --keep-unit
 * every container lives in the test process's cgroup, so two at once share their units' cgroups
 * (on this machine's cgroup v1 hierarchy), and one's `systemctl kill` reached the other's hub
 * ("Failed to send signal SIGKILL to auxiliary processes: Input/output error"). flock holds the
 * turn until the container ends, and lets go by itself if the test process dies (its stdin closes).
 */
async function takeTurn(): Promise<() => void> {
  await mkdir(CACHE, { recursive: true });
  const holder = spawn('flock', [join(CACHE, 'boot.lock'), '-c', 'echo held; read _'], { stdio: ['pipe', 'pipe', 'ignore'], env: { PATH } });
  await new Promise<void>((resolve, reject) => {
    holder.stdout?.once('data', () => resolve());
    holder.once('exit', (code) => reject(new Error(`flock on ${CACHE}/boot.lock exited (${code})`)));
  });
  return () => holder.stdin?.end();
}

/**
 * The container's init as this host numbers it (0 until there is one): the descendant of
 * systemd-nspawn that is pid 1 in a pid namespace of its own, asked of the kernel (NSpid), not
 * whichever child `ps` lists first. A pid taken while nspawn was still setting up (or failing to)
 * went away, and every command entered through it failed ("stat of /proc/<pid>/ns/user failed").
 */
function containerInit(nspawnPid: number): number {
  const queue = childrenOf(nspawnPid);
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    const nspid = statusOf(pid)?.nspid ?? [];
    if (nspid.length > 1 && nspid.at(-1) === 1) return pid;
    queue.push(...childrenOf(pid));
  }
  return 0;
}

/** Boots `dir` and waits until the system is up. */
export async function boot(dir: string, name: string): Promise<Container> {
  const release = await takeTurn();
  await mkdir('/run/systemd/nspawn', { recursive: true });
  const nspawn: ChildProcess = spawn('systemd-nspawn', ['-D', dir, '--register=no', '--keep-unit', '--boot', `--machine=${name}`, '--console=passive'], {
    stdio: 'ignore',
    env: { PATH },
  });
  let leader = 0;
  for (let i = 0; i < 100 && !leader; i++) {
    await sleep(100);
    leader = containerInit(nspawn.pid ?? 0);
  }
  if (!leader) {
    release();
    throw new Error(`systemd-nspawn ${dir} started no container`);
  }
  const run = (command: string, env: Record<string, string> = {}, timeoutMs = 120_000): string => {
    const code = nspawn.exitCode ?? nspawn.signalCode;
    if (code !== null) throw new Error(`the container ${name} has ended (systemd-nspawn exited: ${code}), so it cannot run: ${command}`);
    return execFileSync(
      'nsenter',
      ['-t', String(leader), '-a', 'env', '-i', `PATH=${PATH}`, 'HOME=/root', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), 'bash', '-c', command],
      {
        encoding: 'utf8',
        timeout: timeoutMs,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
  };
  const ended = async (seconds: number): Promise<boolean> => {
    for (let i = 0; i < seconds * 10 && nspawn.exitCode === null && nspawn.signalCode === null; i++) await sleep(100);
    return nspawn.exitCode !== null || nspawn.signalCode !== null;
  };
  // The PID namespace's init, killed from its parent namespace: every process inside goes with
  // it, and nspawn exits by itself; nspawn is killed only if it does not.
  const endHard = async (): Promise<void> => {
    try {
      process.kill(leader, 'SIGKILL');
    } catch {}
    if (!(await ended(30))) nspawn.kill('SIGKILL');
  };
  // 'degraded' (a unit the container cannot run, e.g. a getty) still means booted, and so may a
  // wait that times out under emulation; nsenter failing to enter means there is no container.
  const state = spawnSync('nsenter', ['-t', String(leader), '-a', 'systemctl', 'is-system-running', '--wait'], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH },
  });
  if (state.stderr?.startsWith('nsenter:')) {
    await endHard();
    release();
    throw new Error(`cannot enter the container ${name} (pid ${leader}): ${state.stderr}`);
  }
  return {
    run,
    mainPid: (unit) => Number(run(`systemctl show -p MainPID --value ${unit}`).trim()),
    async poweroff() {
      spawnSync('nsenter', ['-t', String(leader), '-a', 'systemctl', 'poweroff'], { env: { PATH } });
      // Stopping every unit can take a while on a loaded machine: two minutes, then a power cut.
      if (!(await ended(120))) await endHard();
      release();
    },
    async kill() {
      await endHard();
      release();
    },
  };
}

/**
 * An official-layout Node.js tarball (bin/node, include/node) of the release target's Node build
 * (the npm registry's node-linux-<arch> package, as the release compiles against), for a system
 * whose distribution has no Node 20 >= 20.12 (Debian 12): this machine cannot reach nodejs.org,
 * which is what install.sh's HEARTH_NODE_TARBALL is for.
 */
export async function nodeTarball(targetName: string): Promise<string> {
  const target = releaseTarget(targetName);
  const nodeArch = target.nodePackage.replace('node-linux-', '');
  const name = `node-v${target.node}-linux-${nodeArch}`;
  const file = join(CACHE, `${name}.tar.xz`);
  if (existsSync(file)) return file;
  await mkdir(CACHE, { recursive: true });
  const build = nodeBuild(target);
  const stage = join(CACHE, name);
  await rm(stage, { recursive: true, force: true });
  const script = [
    `mkdir -p ${stage}/bin ${stage}/include`,
    `cp ${build}/bin/node ${stage}/bin/node`,
    `cp -a ${build}/include/node ${stage}/include/node`,
    `tar -C ${CACHE} -cf - ${name} | xz -0 -T2 > ${file}.partial`,
    `mv ${file}.partial ${file}`,
    `rm -rf ${stage}`,
  ].join(' && ');
  execFileSync('sh', ['-c', script], { env: { PATH } });
  return file;
}
