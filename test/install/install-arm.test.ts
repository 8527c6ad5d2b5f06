/**
 * The installation on the boards hearth is for, emulated: minimal Debian 12 and 13 for arm64 and
 * Debian 13 for armhf, booted under systemd-nspawn with qemu-user running every binary, install
 * the per-architecture release as the README says, command for command. The release must install
 * with no compiler (none is on the system before or after) and refuse the other architecture's
 * tarball; the unit runs, ping and the owner token answer, `hearth token create` works.
 *
 * qemu-user cannot make namespaces, so bubblewrap fails there as it would on a kernel without
 * user namespaces: the hub holds the apps and says why, and once the owner chooses Node's
 * permission model alone (HEARTH_APP_SANDBOX=off) the example apps run. Then, on Debian 13
 * arm64, a SIGKILLed hub is restarted, an upgrade keeps data, an uninstall keeps the state: those
 * steps are the scripts' and systemd's, the same on every architecture, and cost ~2.5 minutes a
 * system under emulation (CI runs the three systems one after another); the x86-64 test takes
 * them on Debian 12 (Node from a tarball) and 13. The watchdog and a reboot are the x86-64
 * test's too (a poweroff under emulation waits out systemd's 90 s timeout).
 * Skips, saying why, where qemu-user is not registered with binfmt_misc.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/hub.js';
import { EXAMPLES, freePort, get, getJson, releaseTarball, until, untilAppsRun } from './checks.js';
import { boot, type Container, cannotEmulate, cannotRun, cloneRoot, nodeTarball, rootfs } from './nspawn.js';
import { restartsAfterKill, tabletToken, uninstallKeepsState, upgradeKeepsData } from './steps.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const cross = spawnSync('sh', ['-c', 'command -v aarch64-linux-gnu-g++']).status === 0;
describe.skipIf(process.arch !== 'x64' || !cross)(`an arm release on this x86-64 machine${cross ? '' : ' (skipped: no aarch64-linux-gnu-g++)'}`, () => {
  it("is refused by the hub's start, in one sentence naming the module's architecture", { timeout: 15 * 60_000 }, async () => {
    const dir = await tempDir('hearth-arm-on-x64-');
    dirs.push(dir);
    spawnSync('tar', ['xzf', await releaseTarball('linux-arm64'), '-C', dir]);
    const [unpacked] = await readdir(dir);
    const home = join(dir, unpacked!);
    // No code cache of another architecture (V8 accepts one, and crashes).
    expect((await readdir(join(home, 'dist'))).filter((f) => f.endsWith('.cache'))).toEqual([]);
    const started = spawnSync(
      process.execPath,
      [join(home, 'dist/cli.js'), 'start', '--port', '0', '--data-dir', join(dir, 'data'), '--apps-dir', join(dir, 'apps')],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(started.status).toBe(1);
    const addon = join(home, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    expect(started.stderr.trim()).toBe(
      `hearth: better-sqlite3's native module ${addon} is built for arm64, and this Node.js runs on x64: install the hearth release made for this machine (hearth-<version>-linux-<arch>.tgz), or in a checkout run npm rebuild better-sqlite3`,
    );
  });
});

/** `lifecycle`: a SIGKILL, an upgrade and an uninstall after the install (on one system: see above). */
const SUITES = [
  { suite: 'bookworm', debian: 12, arch: 'arm64', target: 'linux-arm64', other: 'linux-armhf', nodeTarball: true, lifecycle: false },
  { suite: 'trixie', debian: 13, arch: 'arm64', target: 'linux-arm64', other: 'linux-armhf', nodeTarball: false, lifecycle: true },
  { suite: 'trixie', debian: 13, arch: 'armhf', target: 'linux-armhf', other: 'linux-arm64', nodeTarball: false, lifecycle: false },
];
/** Under emulation a Node start takes seconds: waits are this many times the x86-64 test's. */
const SLOW = 6;

for (const { suite, debian, arch, target, other, nodeTarball: withTarball, lifecycle } of SUITES) {
  const why = cannotRun() ?? cannotEmulate(arch, suite);
  describe.skipIf(why !== null)(`installing on emulated ${arch}${why ? ` (skipped: ${why})` : ''}`, () => {
    const steps = `no compiler, apps held then run, token${lifecycle ? ', SIGKILL, upgrade, uninstall' : ''}`;
    it(`Debian ${debian} (${suite}) ${arch}: ${steps}`, { timeout: 45 * 60_000 }, async () => {
      const work = await tempDir(`hearth-nspawn-${suite}-${arch}-`);
      dirs.push(work);
      const root = cloneRoot(await rootfs(suite, arch), work);
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/api/manager`;
      // qemu's own memory (its translated code) counts in an emulated app's: 128 MiB is too little.
      // And an app's start under emulation, beside CI's other runs, took more than the 15 s a
      // board gives it (five example apps starting at once): the setting a slow board would use.
      await writeFile(join(root, 'etc/default/hearth'), `HEARTH_PORT=${port}\nHEARTH_APP_MEMORY_MB=384\nHEARTH_APP_START_TIMEOUT_S=120\n`);
      const tarball = await releaseTarball(target);
      await copyFile(tarball, join(root, 'root/hearth.tgz'));
      await copyFile(await releaseTarball(other), join(root, 'root/other.tgz'));
      if (suite !== 'bookworm') {
        // Debian 13's systemd makes a mount namespace for each of these, and qemu-user refuses the
        // clone flag: the unit would fail with 226/NAMESPACE (Debian 12's systemd goes on without
        // them). Emulation cannot show the unit's file-system sandboxing; the x86-64 test does.
        await mkdir(join(root, 'etc/systemd/system/hearth.service.d'), { recursive: true });
        // Its journald fails the same way: the hub's output goes to a file the test can read.
        const off = [
          'ProtectSystem=no',
          'ProtectHome=no',
          'PrivateTmp=no',
          'ProtectKernelModules=no',
          'ProtectKernelLogs=no',
          'ProtectControlGroups=no',
          'ReadWritePaths=',
          'StandardOutput=append:/var/log/hearth.log',
          'StandardError=append:/var/log/hearth.log',
        ];
        await writeFile(join(root, 'etc/systemd/system/hearth.service.d/emulation.conf'), `[Service]\n${off.join('\n')}\n`);
      }
      const env: Record<string, string> = {};
      if (withTarball) {
        await mkdir(join(root, 'root/host'), { recursive: true });
        await copyFile(await nodeTarball(target), join(root, 'root/host/node.tar.xz'));
        env.HEARTH_NODE_TARBALL = '/root/host/node.tar.xz';
      }
      const install = 'cd /root && tar xzf hearth.tgz && ./hearth-*/scripts/install.sh';
      const compilers = 'for c in cc gcc g++ make python3; do command -v $c || true; done';

      const box: Container = await boot(root, `hearth-${suite}-${arch}`);
      try {
        expect(box.run(compilers).trim()).toBe('');
        // The other architecture's release is refused before anything is installed.
        const version = tarball.replace(/^.*hearth-(.+)-linux-\w+\.tgz$/, '$1');
        expect(() => box.run('cd /root && mkdir -p other && tar xzf other.tgz -C other && ./other/hearth-*/scripts/install.sh')).toThrow(
          `this is the release for ${other}, and this system is ${arch}: install hearth-${version}-${target}.tgz`,
        );
        expect(box.run('test -e /opt/hearth && echo there || echo none').trim()).toBe('none');

        const installed = box.run(install, env, 30 * 60_000);
        expect(installed).toContain(`is running on port ${port}.`);
        expect(box.run('systemctl is-active hearth').trim()).toBe('active');
        expect(box.run(compilers).trim()).toBe('');
        expect(box.run('uname -m').trim()).toBe(arch === 'arm64' ? 'aarch64' : 'armv7l');
        const owner = (await readFile(join(root, 'var/lib/hearth/data/owner-token'), 'utf8')).trim();
        expect(await get(`${url}/i18n/state`, owner)).toBe(200);

        // qemu-user makes no namespaces: bubblewrap fails, and the hub starts no app, saying why.
        type AppsState = { containment: string; containmentReason: string | null; held: string | null; running: number };
        const held = await getJson<AppsState>(`${url}/apps/state`, owner);
        expect(held).toMatchObject({ containment: 'permission-model-only', running: 0 });
        expect(held.containmentReason).toMatch(/^bubblewrap cannot make namespaces here/);
        expect(held.held).toMatch(/^the hub starts no app without namespaces of its own/);
        expect(held.held).toContain(
          'Turn user namespaces on, or start the hub with --app-sandbox off (on a device: HEARTH_APP_SANDBOX=off in /etc/default/hearth)',
        );

        // The owner chooses Node's permission model alone: the example apps run.
        box.run(`echo HEARTH_APP_SANDBOX=off >> /etc/default/hearth && systemctl restart hearth`, {}, 5 * 60_000);
        await until('ping after the restart', async () => (await get(`${url}/system/ping`)) === 200, 120 * SLOW);
        await untilAppsRun('the example apps running with the permission model', url, owner, EXAMPLES, 120 * SLOW);
        const apps = await getJson<AppsState>(`${url}/apps/state`, owner);
        expect(apps).toMatchObject({
          containment: 'permission-model-only',
          containmentReason: 'app namespaces are turned off (--app-sandbox off)',
          held: null,
        });

        await tabletToken(box, url, 5 * 60_000);
        if (lifecycle) {
          await restartsAfterKill(box, url, 120 * SLOW);
          const marker = await upgradeKeepsData(box, { root, install, env, port, url, owner, timeoutMs: 30 * 60_000, tries: 120 * SLOW });
          await uninstallKeepsState(box, root, marker, owner);
        }
      } catch (err) {
        // What the unit and the hub said, for a failure under emulation that is not seen natively.
        const said = (command: string): string => {
          try {
            return box.run(command, {}, 60_000);
          } catch (e) {
            return String(e);
          }
        };
        const unit = said('systemctl show -p NRestarts -p Result -p ExecMainStatus -p ActiveState hearth');
        const log = said('tail -n 30 /var/log/hearth.log 2>/dev/null || journalctl -u hearth -n 30 --no-pager');
        (err as Error).message += `\nthe unit: ${unit}\nits last lines:\n${log}`;
        throw err;
      } finally {
        await box.kill();
      }
    });
  });
}
