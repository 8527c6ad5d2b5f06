/**
 * The whole installation on fresh systems: a minimal Debian 12 and Debian 13 booted under
 * systemd-nspawn run scripts/install.sh with the release tarball, as the README's device section
 * says, and are checked from outside: the unit is active, ping answers, the owner token works,
 * `hearth token create` works, the example apps run in namespaces of their own, a SIGKILLed hub
 * is restarted, so is a frozen one (the watchdog), after which the apps that ran through both
 * deaths start disabled until enabled, an upgrade and a reboot keep data
 * and tokens, and an uninstall without --purge keeps the state. Debian 12 has no Node >= 20.12,
 * so it gets an official-layout tarball of the Node build the release is made for (nodejs.org is not
 * reachable here); Debian 13 uses its own nodejs. The release carries its native module, and no
 * compiler is on either system. Skips, saying why, where it cannot run.
 */
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/hub.js';
import { EXAMPLES, freePort, get, getJson, releaseTarball, until, untilAppsRun } from './checks.js';
import { boot, type Container, cannotRun, cloneRoot, nodeTarball, rootfs } from './nspawn.js';
import { restartsAfterKill, tabletToken, uninstallKeepsState, untilRecordedRunning, upgradeKeepsData } from './steps.js';

const why = cannotRun();
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const SUITES = [
  { suite: 'bookworm', debian: 12, hostNode: true },
  { suite: 'trixie', debian: 13, hostNode: false },
];

describe.skipIf(why !== null)(`installing on fresh Debian systems${why ? ` (skipped: ${why})` : ''}`, () => {
  for (const { suite, debian, hostNode } of SUITES) {
    it(`Debian ${debian} (${suite}): install, token, SIGKILL, upgrade, reboot, uninstall`, { timeout: 25 * 60_000 }, async () => {
      const work = await tempDir(`hearth-nspawn-${suite}-`);
      dirs.push(work);
      const root = cloneRoot(await rootfs(suite), work);
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/api/manager`;
      await writeFile(join(root, 'etc/default/hearth'), `HEARTH_PORT=${port}\n`);
      await copyFile(await releaseTarball('linux-x64'), join(root, 'root/hearth.tgz'));
      const env: Record<string, string> = {};
      if (hostNode) {
        await mkdir(join(root, 'root/host'), { recursive: true });
        await copyFile(await nodeTarball('linux-x64'), join(root, 'root/host/node.tar.xz'));
        env.HEARTH_NODE_TARBALL = '/root/host/node.tar.xz';
      }
      // The README's device section, command for command.
      const install = 'cd /root && tar xzf hearth.tgz && ./hearth-*/scripts/install.sh';

      let box: Container = await boot(root, `hearth-${suite}`);
      try {
        const installed = box.run(install, env, 15 * 60_000);
        expect(installed).toContain(`is running on port ${port}.`);
        expect(box.run('systemctl is-active hearth').trim()).toBe('active');
        // The release brought its native module: nothing was compiled, no compiler was installed.
        expect(box.run('for c in cc gcc g++ make python3; do command -v $c || true; done').trim()).toBe('');
        expect(await get(`${url}/system/ping`)).toBe(200);
        const owner = (await readFile(join(root, 'var/lib/hearth/data/owner-token'), 'utf8')).trim();
        expect(await get(`${url}/i18n/state`, owner)).toBe(200);
        // The example apps run: their require('homey') reaches the release's SDK through the apps folder.
        await untilAppsRun('the example apps running', url, owner, EXAMPLES);

        // Under the unit's hardening, as the hearth user, the apps run in namespaces of their own.
        const apps = await getJson<{ containment: string; containmentReason: string | null; running: number }>(`${url}/apps/state`, owner);
        expect(apps).toMatchObject({ containment: 'namespaces', containmentReason: null, running: EXAMPLES.length });
        const readings = await getJson<{ readings: Record<string, unknown> }>(`http://127.0.0.1:${port}/api/app/com.hearth.sysmon/readings`, owner);
        expect(Object.keys(readings.readings)).toContain('cpu-load');
        // The Matter app's library as the release keeps it (its ES modules only): what the controller imports loads.
        const imports = "for (const m of ['@matter/main', '@matter/main/protocol', '@matter/main/behaviors']) await import(m); console.log('matter.js loads')";
        expect(box.run(`cd /opt/hearth && node --input-type=module -e "${imports}"`).trim()).toBe('matter.js loads');

        const tablet = await tabletToken(box, url);
        await restartsAfterKill(box, url);
        // The freeze must be a death while the apps ran, as the kill was: the restarted hub answers
        // pings while its apps still start, and their record is written as they do.
        await untilRecordedRunning(root, EXAMPLES);

        // A frozen hub (its event loop stopped) sends no watchdog keep-alive: systemd restarts it.
        const frozen = box.mainPid('hearth');
        box.run('systemctl kill --kill-who=main -s STOP hearth');
        await until(
          'a restart of the frozen hub by the watchdog',
          async () => box.mainPid('hearth') > 0 && box.mainPid('hearth') !== frozen && (await get(`${url}/system/ping`)) === 200,
          240,
        );

        // Two abnormal deaths in a row while the example apps ran (the kill and the watchdog):
        // they start disabled, the reason in their records, until the owner enables them.
        const held = await getJson<Record<string, { enabled: boolean; crashedMessage: string | null }>>(`${url}/apps/app`, owner);
        for (const id of EXAMPLES) {
          expect(held[id]).toMatchObject({ enabled: false });
          expect(held[id]?.crashedMessage).toMatch(/^the hub died 2 times in a row while this app ran/);
          const enabled = await fetch(`${url}/apps/app/${id}/enable`, { method: 'PUT', headers: { Authorization: `Bearer ${owner}` } });
          expect(enabled.status).toBe(200);
        }
        await untilAppsRun('the example apps running once enabled again', url, owner, EXAMPLES);

        const marker = await upgradeKeepsData(box, { root, install, env, port, url, owner, timeoutMs: 15 * 60_000 });

        // A reboot: the service comes back by itself, with its data and tokens.
        await box.poweroff();
        box = await boot(root, `hearth-${suite}`);
        await until('ping after a reboot', async () => (await get(`${url}/system/ping`)) === 200);
        expect(await get(`${url}/i18n/state`, owner)).toBe(200);
        expect(await get(`${url}/dashboards/dashboard`, tablet)).toBe(200);

        await uninstallKeepsState(box, root, marker, owner);
      } finally {
        await box.poweroff();
      }
    });
  }
});
