/**
 * Fresh Debian systems for the installation test: a minimal root made with debootstrap (cached
 * between runs), booted with systemd-nspawn on the host's network, and commands run inside with
 * nsenter (the container is not registered with machined, so machinectl cannot reach it).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

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

/** A minimal root of `suite` (bookworm, trixie) with systemd, made once and cached. */
export async function rootfs(suite: string): Promise<string> {
  const dir = join(CACHE, `${suite}-root`);
  if (existsSync(join(dir, 'usr/lib/systemd/systemd')) || existsSync(join(dir, 'lib/systemd/systemd'))) return dir;
  await mkdir(CACHE, { recursive: true });
  const partial = `${dir}.partial`;
  await rm(partial, { recursive: true, force: true });
  const run = spawnSync('debootstrap', ['--variant=minbase', '--include=systemd,dbus,ca-certificates', suite, partial, 'http://deb.debian.org/debian'], {
    encoding: 'utf8',
    env: { PATH },
    timeout: 15 * 60_000,
  });
  if (run.status !== 0) throw new Error(`debootstrap ${suite} failed (is deb.debian.org reachable?): ${run.stderr.slice(-600)}`);
  await rename(partial, dir);
  return dir;
}

export interface Container {
  /** Runs a command inside as root; resolves with its output, rejects on a non-zero exit. */
  run(command: string, env?: Record<string, string>, timeoutMs?: number): string;
  /** The unit's main pid inside the container (0 when not running). */
  mainPid(unit: string): number;
  poweroff(): Promise<void>;
}

/** Boots `dir` and waits until the system is up. */
export async function boot(dir: string, name: string): Promise<Container> {
  await mkdir('/run/systemd/nspawn', { recursive: true });
  const nspawn: ChildProcess = spawn('systemd-nspawn', ['-D', dir, '--register=no', '--keep-unit', '--boot', `--machine=${name}`, '--console=passive'], {
    stdio: 'ignore',
    env: { PATH },
  });
  let leader = 0;
  for (let i = 0; i < 100 && !leader; i++) {
    await sleep(100);
    const out = spawnSync('ps', ['--ppid', String(nspawn.pid), '-o', 'pid='], { encoding: 'utf8' }).stdout.trim();
    leader = Number(out.split('\n')[0]) || 0;
  }
  if (!leader) throw new Error(`systemd-nspawn ${dir} started no container`);
  const run = (command: string, env: Record<string, string> = {}, timeoutMs = 120_000): string =>
    execFileSync(
      'nsenter',
      ['-t', String(leader), '-a', 'env', '-i', `PATH=${PATH}`, 'HOME=/root', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), 'bash', '-c', command],
      {
        encoding: 'utf8',
        timeout: timeoutMs,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
  // 'degraded' (a unit the container cannot run, e.g. a getty) still means booted.
  spawnSync('nsenter', ['-t', String(leader), '-a', 'systemctl', 'is-system-running', '--wait'], { timeout: 120_000, env: { PATH } });
  return {
    run,
    mainPid: (unit) => Number(run(`systemctl show -p MainPID --value ${unit}`).trim()),
    async poweroff() {
      spawnSync('nsenter', ['-t', String(leader), '-a', 'systemctl', 'poweroff'], { env: { PATH } });
      for (let i = 0; i < 300 && nspawn.exitCode === null && nspawn.signalCode === null; i++) await sleep(100);
      if (nspawn.exitCode === null && nspawn.signalCode === null) nspawn.kill('SIGKILL');
    },
  };
}

/**
 * An official-layout Node.js tarball (bin/, lib/node_modules/npm, include/node) made from the
 * host's own Node, for a system whose distribution has no Node >= 20.12 (Debian 12): this
 * machine cannot reach nodejs.org, which is what install.sh's HEARTH_NODE_TARBALL is for.
 */
export async function hostNodeTarball(): Promise<string> {
  const version = process.versions.node;
  const name = `node-v${version}-linux-x64`;
  const file = join(CACHE, `${name}.tar.xz`);
  if (existsSync(file)) return file;
  const npmDir = ['/usr/lib/node_modules/npm', '/usr/local/lib/node_modules/npm'].find((d) => existsSync(d));
  const headers = ['/usr/include/node', '/usr/local/include/node'].find((d) => existsSync(d));
  if (!npmDir || !headers) throw new Error('the host has no npm or Node headers to pack');
  const stage = join(CACHE, name);
  await rm(stage, { recursive: true, force: true });
  const script = [
    `mkdir -p ${stage}/bin ${stage}/lib/node_modules ${stage}/include`,
    `cp ${process.execPath} ${stage}/bin/node`,
    `cp -a ${npmDir} ${stage}/lib/node_modules/npm`,
    `ln -s ../lib/node_modules/npm/bin/npm-cli.js ${stage}/bin/npm`,
    `ln -s ../lib/node_modules/npm/bin/npx-cli.js ${stage}/bin/npx`,
    `cp -a ${headers} ${stage}/include/node`,
    `tar -C ${CACHE} -cf - ${name} | xz -0 -T2 > ${file}.partial`,
    `mv ${file}.partial ${file}`,
    `rm -rf ${stage}`,
  ].join(' && ');
  execFileSync('sh', ['-c', script], { env: { PATH } });
  return file;
}
