/**
 * A hub killed outright cannot stop an app whose event loop is busy, and that app cannot notice
 * it is orphaned. The kernel ends it with the hub: bubblewrap's --die-with-parent in namespaces,
 * setpriv's parent-death signal without them, whatever the app did to process.exit and its title
 * (issue 22, finding 6). Behind that, the next hub ends the processes its record names, known by
 * pid and kernel start time, and nothing whose command line merely looks like an app's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTimeOf } from '../../src/apps/host/leftovers.js';
import { tempDir as hubTempDir, startHub } from '../helpers/hub.js';
import { pause, poll, waitUntil } from '../helpers/poll.js';
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
  it('die with the hub without namespaces too, though the app ignores SIGTERM and replaces process.exit and its title', { timeout: 60_000 }, async () => {
    const appsDir = await tempDir('hearth-apps-');
    dirs.push(appsDir);
    await writeApp(appsDir, 'com.test.spin', {
      code: homeyApp(
        `async onInit() { process.on('SIGTERM', () => {}); process.exit = () => {}; process.title = 'bash'; setTimeout(() => { for (;;) {} }, 100); }`,
      ),
    });
    const first = await startHub({ appsDir, args: ['--app-sandbox', 'off'] });
    dirs.push(first.dataDir);
    // Its command line is 'bash' now: the hub's record of what it spawned names it.
    const pid = await poll(
      async () => {
        const app = (await first.call<{ ready: boolean }>('GET', '/api/manager/apps/app/com.test.spin')).body;
        return app.ready ? await recordedPid(first.dataDir, 'com.test.spin') : undefined;
      },
      (p) => p !== undefined,
      'the spinner ready and recorded',
    );
    await pause(300, 'the app inside its endless loop (it starts 100 ms after onInit)');
    expect((await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[0]).toBe('bash');
    await first.kill('SIGKILL');
    await waitUntil(() => !alive(pid!), 'the spinner gone with the hub', 100);
    expect(alive(pid!)).toBe(false);
  });

  it('named by the record (pid and kernel start time) are ended by the next hub; a look-alike command line or a reused pid is not', {
    timeout: 60_000,
  }, async () => {
    const dataDir = await hubTempDir();
    const appsDir = await tempDir('hearth-apps-');
    dirs.push(dataDir, appsDir);
    const marker = `--allow-fs-write=${join(dataDir, 'apps')}/com.test.x/userdata`;
    const sleeper = (): ChildProcess => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', marker], { stdio: 'ignore' });
    const [recorded, lookalike, reused] = [sleeper(), sleeper(), sleeper()];
    const kids = [recorded, lookalike, reused];
    try {
      // Once each has exec'd node, its command line carries the marker the hub looks for.
      await waitUntil(
        async () => (await Promise.all(kids.map((k) => readFile(`/proc/${k.pid}/cmdline`, 'utf8')))).every((c) => c.includes(marker)),
        'the three sleepers running node',
      );
      for (const k of kids) expect(alive(k.pid!)).toBe(true);
      const boot = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
      await mkdir(join(dataDir, 'apps'), { recursive: true });
      const record = {
        boot,
        running: ['com.test.x', 'com.test.y'],
        processes: {
          'com.test.x': { pid: recorded.pid, start: startTimeOf(recorded.pid!) },
          // The same pid after a reuse would have another start time.
          'com.test.y': { pid: reused.pid, start: startTimeOf(reused.pid!)! - 1 },
        },
      };
      await writeFile(join(dataDir, 'apps', 'running.json'), JSON.stringify(record));
      const hub = await startHub({ dataDir, appsDir, args: ['--app-sandbox', 'off'] });
      try {
        await waitUntil(() => !alive(recorded.pid!), 'the recorded leftover ended', 100);
        expect(alive(recorded.pid!)).toBe(false);
        expect(alive(lookalike.pid!)).toBe(true);
        expect(alive(reused.pid!)).toBe(true);
        expect(hub.output.join('\n')).toContain('ended app processes left behind by a previous hub');
      } finally {
        await hub.cleanup();
      }
    } finally {
      for (const k of kids) k.kill('SIGKILL');
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
    const pid = await poll(
      async () => {
        const app = (await hub.call<{ ready: boolean }>('GET', '/api/manager/apps/app/com.test.spin')).body;
        return app.ready ? await spinnerPid(hub.process.pid!) : undefined;
      },
      (p) => p !== undefined,
      'the spinner ready in its sandbox',
    );
    await pause(300, 'the spinner inside its loop, not starting up');
    await hub.kill('SIGKILL');
    await waitUntil(() => !alive(pid!), 'the spinner gone with the hub', 100);
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

/** The pid the hub recorded for an app in <data-dir>/apps/running.json. */
async function recordedPid(dataDir: string, id: string): Promise<number | undefined> {
  try {
    const record = JSON.parse(await readFile(join(dataDir, 'apps', 'running.json'), 'utf8')) as { processes?: Record<string, { pid: number }> };
    return record.processes?.[id]?.pid;
  } catch {
    return undefined;
  }
}
