/**
 * A crash-looping hub cannot keep an app that may be its cause: an app that was running when the
 * hub died abnormally twice in a row (the same boot, killed outright here) starts disabled, with
 * the reason in its record. A clean stop, a reboot, or a hub that stayed up long enough (a
 * shorter while in the runtime test below) ends the row.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { assertBuilt, homeyApp, removeAll, startRuntime, tempDir, writeApp } from './helpers.js';

type App = { state: string; enabled: boolean; crashedMessage: string | null };
const ID = 'com.test.steady';
const DEATHS = /^the hub died 2 times in a row while this app ran, so it starts disabled; enable it to try again$/;

const dirs: string[] = [];
beforeAll(assertBuilt);
afterAll(() => removeAll(...dirs));

async function folders(): Promise<{ appsDir: string; dataDir: string }> {
  const appsDir = await tempDir('hearth-apps-');
  const dataDir = await tempDir('hearth-data-');
  dirs.push(appsDir, dataDir);
  await writeApp(appsDir, ID, { code: homeyApp(`async onInit() { this.log('steady'); }`) });
  return { appsDir, dataDir };
}

const app = async (hub: RunningHub): Promise<App> => (await hub.call<App>('GET', `/api/manager/apps/app/${ID}`)).body;

/** A hub on the folders, once the app has started (or been held). */
async function hubOn(
  f: { appsDir: string; dataDir: string },
  settled: (a: App) => boolean = (a) => a.state === 'running',
): Promise<{ hub: RunningHub; app: App }> {
  const hub = await startHub(f);
  return { hub, app: await poll(() => app(hub), settled, `${ID} to settle`) };
}

describe('hub deaths in a row (a real hub killed with SIGKILL)', () => {
  it('disables the app that ran through two abnormal deaths, and runs it again once enabled', { timeout: 120_000 }, async () => {
    const f = await folders();
    await (await hubOn(f)).hub.kill('SIGKILL');
    const second = await hubOn(f);
    expect(second.app).toMatchObject({ state: 'running', enabled: true }); // one death is no row
    await second.hub.kill('SIGKILL');

    const third = await hubOn(f, (a) => a.state === 'stopped');
    try {
      expect(third.app).toMatchObject({ state: 'stopped', enabled: false });
      expect(third.app.crashedMessage).toMatch(DEATHS);
      expect(third.hub.output.join('\n')).toContain('the hub died twice in a row while these apps ran');
      expect((await third.hub.call('PUT', `/api/manager/apps/app/${ID}/enable`)).status).toBe(200);
      expect(
        await poll(
          () => app(third.hub),
          (a) => a.state === 'running',
          'running once enabled',
        ),
      ).toMatchObject({ enabled: true, crashedMessage: null });
    } finally {
      await third.hub.cleanup();
    }
  });

  it('starts the row over after a clean stop and after a reboot', { timeout: 120_000 }, async () => {
    const f = await folders();
    await (await hubOn(f)).hub.kill('SIGKILL');
    const counted = await hubOn(f); // one death counted
    await counted.hub.stop(); // clean: the row is over

    await (await hubOn(f)).hub.kill('SIGKILL');
    const again = await hubOn(f); // one death counted, again
    await again.hub.kill('SIGKILL');
    // The machine rebooted before the next start: the record names another boot.
    const running = join(f.dataDir, 'apps/running.json');
    const record = JSON.parse(await readFile(running, 'utf8')) as { boot: string; running: string[] };
    expect(record.running).toEqual([ID]);
    await writeFile(running, JSON.stringify({ ...record, boot: 'another-boot' }));
    const rebooted = await hubOn(f);
    await rebooted.hub.kill('SIGKILL');

    const last = await hubOn(f); // one death after the reboot: still no row
    try {
      expect(last.app).toMatchObject({ state: 'running', enabled: true });
    } finally {
      await last.hub.cleanup();
    }
  });
});

describe('hub deaths in the runtime', () => {
  it('starts the row over once the hub has been up long enough', { timeout: 60_000 }, async () => {
    const f = await folders();
    const boot = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
    const deaths = (store: { snapshot(): Buffer }): number =>
      (JSON.parse(store.snapshot().toString()) as { apps: Record<string, { hubDeaths: number }> }).apps[ID]!.hubDeaths;
    const first = await startRuntime(f); // the app's record
    await first.until(ID, (a) => a.state === 'running', 'running');
    await first.close();
    // Then a hub that died with the app running, as the file it leaves says.
    await mkdir(join(f.dataDir, 'apps'), { recursive: true });
    await writeFile(join(f.dataDir, 'apps/running.json'), JSON.stringify({ boot, running: [ID] }));
    const t = await startRuntime({ ...f, stableAfterMs: 1_500 });
    try {
      expect(deaths(t.store)).toBe(1);
      await poll(
        async () => deaths(t.store),
        (n) => n === 0,
        'the count of deaths to start over',
      );
    } finally {
      await t.close();
    }
  });
});
