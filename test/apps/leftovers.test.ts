/**
 * A hub killed outright cannot stop an app whose event loop is busy, and that app cannot notice
 * it is orphaned. In namespaces bubblewrap ends it with the hub (it dies with its parent); with
 * the permission model alone the next hub on the same data dir ends it before starting its own.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startHub } from '../helpers/hub.js';
import { homeyApp, removeAll, tempDir, writeApp } from './helpers.js';

const dirs: string[] = [];
afterAll(() => removeAll(...dirs));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('app processes left behind by a killed hub', () => {
  it('are ended by the next hub on the same data dir (permission model alone)', { timeout: 60_000 }, async () => {
    const appsDir = await tempDir('hearth-apps-');
    dirs.push(appsDir);
    await writeApp(appsDir, 'com.test.spin', {
      code: homeyApp(`async onInit() { process.on('SIGTERM', () => {}); setTimeout(() => { for (;;) {} }, 100); }`),
    });
    const first = await startHub({ appsDir, args: ['--app-sandbox', 'off'] });
    dirs.push(first.dataDir);
    let pid: number | undefined;
    for (let i = 0; i < 300 && pid === undefined; i++) {
      const app = (await first.call<{ ready: boolean; usage: { cpu: number } }>('GET', '/api/manager/apps/app/com.test.spin')).body;
      if (app.ready) pid = await spinnerPid(first.process.pid!);
      if (pid === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    expect(pid).toBeDefined();
    await new Promise((r) => setTimeout(r, 300)); // surely inside its loop now
    await first.kill('SIGKILL');
    expect(alive(pid!)).toBe(true); // orphaned and spinning: the situation this guards against

    const second = await startHub({ appsDir, dataDir: first.dataDir, args: ['--app-sandbox', 'off'] });
    try {
      for (let i = 0; i < 100 && alive(pid!); i++) await new Promise((r) => setTimeout(r, 50));
      expect(alive(pid!)).toBe(false);
      expect(second.output.join('\n')).toContain('ended app processes left behind by a previous hub');
    } finally {
      await second.cleanup();
    }
  });

  it('are never left: in namespaces the app dies with the hub', { timeout: 60_000 }, async () => {
    const appsDir = await tempDir('hearth-apps-');
    dirs.push(appsDir);
    await writeApp(appsDir, 'com.test.spin', {
      code: homeyApp(`async onInit() { process.on('SIGTERM', () => {}); setTimeout(() => { for (;;) {} }, 100); }`),
    });
    const hub = await startHub({ appsDir, args: ['--app-sandbox', 'bwrap'] });
    dirs.push(hub.dataDir);
    let pid: number | undefined;
    for (let i = 0; i < 300 && pid === undefined; i++) {
      const app = (await hub.call<{ ready: boolean }>('GET', '/api/manager/apps/app/com.test.spin')).body;
      if (app.ready) pid = await spinnerPid(hub.process.pid!);
      if (pid === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    expect(pid).toBeDefined();
    await new Promise((r) => setTimeout(r, 300));
    await hub.kill('SIGKILL');
    for (let i = 0; i < 100 && alive(pid!); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid!)).toBe(false);
  });
});

/** The pid of the hub's app child, from /proc (children of the hub's pid). */
async function spinnerPid(hubPid: number): Promise<number | undefined> {
  const { readFile } = await import('node:fs/promises');
  try {
    const children = (await readFile(`/proc/${hubPid}/task/${hubPid}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean).map(Number);
    for (const pid of children) {
      const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.includes('com.test.spin')) return pid;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
