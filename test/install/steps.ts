/**
 * The installation tests' steps both architectures take, asked of a booted container and checked
 * from outside: a tablet token, a restart after SIGKILL, an upgrade that keeps data, an uninstall
 * that keeps the state. `tries` scales the waits (emulation is slower).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { EXAMPLES, get, until, untilAppsRun } from './checks.js';
import type { Container } from './nspawn.js';

/** `hearth token create` on the device: the token reads dashboards and nothing else. */
export async function tabletToken(box: Container, url: string, timeoutMs?: number): Promise<string> {
  const created = JSON.parse(box.run('hearth token create --name tablet --scope service.dashboard.readonly', {}, timeoutMs)) as { token: string };
  expect(await get(`${url}/dashboards/dashboard`, created.token)).toBe(200);
  expect(await get(`${url}/i18n/state`, created.token)).toBe(403);
  return created.token;
}

/** systemd restarts a hub that is killed outright. */
export async function restartsAfterKill(box: Container, url: string, tries?: number): Promise<void> {
  const before = box.mainPid('hearth');
  box.run('systemctl kill -s KILL hearth');
  await until(
    'a restart after SIGKILL',
    async () => box.mainPid('hearth') > 0 && box.mainPid('hearth') !== before && (await get(`${url}/system/ping`)) === 200,
    tries,
  );
}

/**
 * Waits until the record a hub keeps of its running apps (`<data>/apps/running.json`, written
 * as each app starts) names every app of `ids`: a death after that counts against them. Pinging
 * the hub is not enough: it answers while its apps are still starting, and a hub frozen then
 * leaves a record of none.
 */
export async function untilRecordedRunning(root: string, ids: string[], tries?: number): Promise<void> {
  const file = join(root, 'var/lib/hearth/data/apps/running.json');
  await until(
    `${file} naming ${ids.join(' and ')}`,
    async () => {
      const running = (JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as { running?: unknown }).running;
      return Array.isArray(running) && ids.every((id) => running.includes(id));
    },
    tries,
  );
}

export interface Upgrade {
  root: string;
  /** The README's install command, run again with the same release. */
  install: string;
  env: Record<string, string>;
  port: number;
  url: string;
  owner: string;
  timeoutMs: number;
  tries?: number;
}

/** An upgrade swaps the code and keeps data, userdata and tokens; the apps run on it. Resolves with the userdata file it kept. */
export async function upgradeKeepsData(box: Container, u: Upgrade): Promise<string> {
  const marker = join(u.root, 'var/lib/hearth/data/apps/com.hearth.greeter/userdata/kept.txt');
  await mkdir(join(marker, '..'), { recursive: true });
  await writeFile(marker, 'mine');
  expect(box.run(u.install, u.env, u.timeoutMs)).toContain(`is running on port ${u.port}.`);
  expect(box.run('ls /opt/hearth-releases | wc -l').trim()).toBe('2');
  // A kept-alive connection to the hub before the restart may fail once: ask until answered.
  await until('the upgraded hub answering the owner token', async () => (await get(`${u.url}/i18n/state`, u.owner)) === 200, u.tries);
  expect(await readFile(marker, 'utf8')).toBe('mine');
  // The upgraded hub links its own SDK: the apps run on it.
  await untilAppsRun('the example apps running after the upgrade', u.url, u.owner, EXAMPLES, u.tries);
  return marker;
}

/** Uninstall without --purge: the code goes, the state stays. */
export async function uninstallKeepsState(box: Container, root: string, marker: string, owner: string): Promise<void> {
  box.run('/opt/hearth/scripts/uninstall.sh', {}, 5 * 60_000);
  expect(box.run('systemctl is-active hearth || true').trim()).not.toBe('active');
  expect(box.run('test -e /opt/hearth || test -e /usr/local/bin/hearth && echo left || echo gone').trim()).toBe('gone');
  expect(await readFile(marker, 'utf8')).toBe('mine');
  expect((await readFile(join(root, 'var/lib/hearth/data/owner-token'), 'utf8')).trim()).toBe(owner);
}
