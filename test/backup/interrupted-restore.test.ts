/**
 * A restore killed half-way (issue 22, finding 5): `hearth restore` runs for real and is killed
 * with SIGKILL right after one rename of its swap (a preload wraps fs.promises.rename, so the
 * kill lands exactly there). The next hub on that data dir finishes the swap from the restore's
 * journal: it starts on the restored data with the backups and what else the restore carries,
 * records the restore, and never starts on an empty data dir while the pre-restore copy exists.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { backUp } from './hubs.js';

const B = '/api/manager/backup';
interface State {
  running: boolean;
  job: { state: string; file: string | null } | null;
  backups: { file: string }[];
  lastRestore: { file: string; ok: boolean; completedAtStart: boolean; previousData: string | null } | null;
}

/** Loaded with --import: SIGKILLs the process right after a rename whose source matches KILL_AFTER_RENAME. */
const KILLER = `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
const match = new RegExp(process.env.KILL_AFTER_RENAME);
const slow = Number(process.env.SLOW_RENAME_MS ?? 0);
const rename = fs.promises.rename;
fs.promises.rename = async (from, to) => {
  // An SD card under load: every rename takes its time.
  if (slow) await sleep(slow);
  await rename(from, to);
  if (match.test(String(from))) process.kill(process.pid, 'SIGKILL');
};
syncBuiltinESMExports();
`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A stopped hub's folders holding a backup with the dashboard 'Before', and 'After' made since. */
async function stoppedHubWithBackup(): Promise<{ dataDir: string; appsDir: string; archive: string }> {
  const dataDir = await tempDir();
  const appsDir = await tempDir('hearth-apps-');
  cleanups.push(async () => {
    for (const n of await readdir(dirname(dataDir))) {
      if (n === basename(dataDir) || n.startsWith(`${basename(dataDir)}.`) || n.startsWith(`.${basename(dataDir)}`)) {
        await rm(join(dirname(dataDir), n), { recursive: true, force: true });
      }
    }
    await rm(appsDir, { recursive: true, force: true });
  });
  const h = await startHub({ dataDir, appsDir });
  await h.call('POST', '/api/manager/dashboards/dashboard', { body: { name: 'Before', columns: [] } });
  const file = await backUp(h);
  await h.call('POST', '/api/manager/dashboards/dashboard', { body: { name: 'After', columns: [] } });
  expect(await h.stop()).toBe(0);
  return { dataDir, appsDir, archive: join(dataDir, 'backups', file) };
}

/** `hearth restore` killed right after the rename whose source matches `pattern`. */
async function killedRestore(archive: string, dataDir: string, appsDir: string, pattern: string): Promise<NodeJS.Signals | null> {
  const killer = await killerFile(dataDir);
  const child = spawn(process.execPath, ['--import', killer, CLI, 'restore', archive, '--data-dir', dataDir, '--apps-dir', appsDir], {
    env: { ...process.env, KILL_AFTER_RENAME: pattern },
    stdio: 'ignore',
  });
  return new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
}

/** Writes the preload that kills after a matching rename; answers its path. */
async function killerFile(dataDir: string): Promise<string> {
  const killer = join(dirname(dataDir), `killer-${process.pid}-${Date.now()}.mjs`);
  await writeFile(killer, KILLER);
  cleanups.push(() => rm(killer, { force: true }));
  return killer;
}

async function dashboards(h: RunningHub): Promise<string[]> {
  return Object.values((await h.call<Record<string, { name: string }>>('GET', '/api/manager/dashboards/dashboard')).body).map((d) => d.name);
}

describe('a restore stopped half-way', { timeout: 90_000 }, () => {
  it('killed between the two renames: the next hub finishes it instead of starting empty', async () => {
    const { dataDir, appsDir, archive } = await stoppedHubWithBackup();
    const escaped = dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(await killedRestore(archive, dataDir, appsDir, `^${escaped}$`)).toBe('SIGKILL');
    // The window the journal is for: the data dir is gone, the previous one is aside.
    expect(existsSync(dataDir)).toBe(false);
    expect((await readdir(dirname(dataDir))).some((n) => n.startsWith(`${basename(dataDir)}.pre-restore-`))).toBe(true);

    const h = await startHub({ dataDir, appsDir });
    cleanups.push(async () => void (await h.stop()));
    expect(await dashboards(h)).toEqual(['Before']);
    const state = (await h.call<State>('GET', `${B}/state`)).body;
    expect(state.backups.map((b) => b.file)).toContain(basename(archive)); // carried over
    expect(state.lastRestore).toMatchObject({ file: basename(archive), ok: true, completedAtStart: true });
    // Finished at start, the copy it kept moved into the backup folder like any restore's.
    expect(state.lastRestore!.previousData!).toMatch(new RegExp(`^${join(dataDir, 'backups', 'pre-restore')}/\\d{4}-[^/]+/data$`));
    expect(existsSync(state.lastRestore!.previousData!)).toBe(true);
    expect((await readdir(dirname(dataDir))).filter((n) => n.startsWith(`${basename(dataDir)}.pre-restore-`))).toEqual([]);
  });

  it('killed after the swap, before what a backup does not hold was carried over: the next hub carries it', async () => {
    const { dataDir, appsDir, archive } = await stoppedHubWithBackup();
    // The second rename of the data swap: the staged tree into place.
    expect(await killedRestore(archive, dataDir, appsDir, `\\.restore\\.\\d+\\.partial/data$`)).toBe('SIGKILL');
    expect(existsSync(join(dataDir, 'db.json'))).toBe(true);
    expect(existsSync(join(dataDir, 'backups'))).toBe(false); // not carried yet

    const h = await startHub({ dataDir, appsDir });
    cleanups.push(async () => void (await h.stop()));
    expect(await dashboards(h)).toEqual(['Before']);
    expect((await h.call<State>('GET', `${B}/state`)).body.backups.map((b) => b.file)).toContain(basename(archive));
  });

  it('an API restore killed between the two renames, every rename slow, the data dir made again empty before the next start (as systemd makes a StateDirectory): the next hub has the restored home', async () => {
    const { dataDir, appsDir, archive } = await stoppedHubWithBackup();
    const killer = await killerFile(dataDir);
    const escaped = dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const h = await startHub({
      dataDir,
      appsDir,
      env: { NODE_OPTIONS: `--import ${killer}`, KILL_AFTER_RENAME: `^${escaped}$`, SLOW_RENAME_MS: '200' },
    });
    const kitchen = (
      await h.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'kitchen', scopes: ['service.dashboard.readonly'] } })
    ).body.token;
    const exited = new Promise<NodeJS.Signals | null>((resolve) => h.process.once('exit', (_c, signal) => resolve(signal)));
    expect((await h.call('POST', `${B}/archive/${basename(archive)}/restore`)).status).toBeLessThan(300);
    expect(await exited).toBe('SIGKILL');
    // systemd makes a unit's StateDirectory before it starts the unit again: the data dir is there, empty.
    expect(existsSync(dataDir)).toBe(false);
    await mkdir(dataDir, { mode: 0o750 });

    const again = await startHub({ dataDir, appsDir });
    cleanups.push(async () => void (await again.stop()));
    expect(await dashboards(again)).toEqual(['Before']);
    const state = (await again.call<State>('GET', `${B}/state`)).body;
    expect(state.lastRestore).toMatchObject({ file: basename(archive), ok: true, completedAtStart: true });
    // An API restore keeps the tokens the home has now (restore-rights.ts): the kitchen's still works.
    expect((await again.call('GET', '/api/manager/dashboards/dashboard', { token: kitchen })).status).toBe(200);
    expect((await readdir(dirname(dataDir))).filter((n) => n.startsWith(`.${basename(dataDir)}.restore.`))).toEqual([]);
  });

  it('killed between the renames, its staged data then lost and the data dir made again empty: the next hub has the old home and says the restore did not happen', async () => {
    const { dataDir, appsDir, archive } = await stoppedHubWithBackup();
    const escaped = dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(await killedRestore(archive, dataDir, appsDir, `^${escaped}$`)).toBe('SIGKILL');
    for (const n of await readdir(dirname(dataDir))) {
      if (n.startsWith(`.${basename(dataDir)}.restore.`)) await rm(join(dirname(dataDir), n), { recursive: true, force: true });
    }
    await mkdir(dataDir, { mode: 0o750 });

    const h = await startHub({ dataDir, appsDir });
    cleanups.push(async () => void (await h.stop()));
    expect((await dashboards(h)).sort()).toEqual(['After', 'Before']);
    const state = (await h.call<State & { lastRestore: { error: string | null } }>('GET', `${B}/state`)).body;
    expect(state.lastRestore).toMatchObject({
      file: basename(archive),
      ok: false,
      completedAtStart: true,
      error: 'the restore was stopped half-way and its staged data was gone: the hub started on the data it had',
    });
  });
});
