/**
 * The backup manager in a real hub (dist/, run `npx tsc -p tsconfig.build.json` first): one job
 * for concurrent requests, state, events, options, the schedule firing, retention, and a full
 * round trip through restore.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreBackup, verifyArchive } from '../../src/backup/index.js';
import { homeyApp, writeApp } from '../apps/helpers.js';
import { type EventClient, openEvents } from '../helpers/events.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';

interface Job {
  id: string;
  trigger: string;
  state: 'running' | 'done' | 'failed';
  file: string | null;
  size: number | null;
  sha256: string | null;
  durationMs: number | null;
  error: string | null;
  skipped: string[];
  joined?: boolean;
}
interface State {
  enabled: boolean;
  schedule: string;
  nextRun: string | null;
  running: boolean;
  job: Job | null;
  lastSuccessfulBackup: string | null;
  lastError: { message: string } | null;
  lastBackup: { file: string; size: number; durationMs: number } | null;
  location: string;
  keep: number;
  backups: { file: string; createdAt: string; size: number; sha256: string }[];
}

const B = '/api/manager/backup';
const COUNTER = 'homey:app:com.test.keeper:counter';
/** Writes one insights entry at start (7), through the SDK like any app. */
const KEEPER = homeyApp(`
  async onInit() {
    const log = await this.homey.insights.createLog('counter', { title: 'Counter', type: 'number', decimals: 0 });
    await log.createEntry(7);
  }`);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function hub(options: Parameters<typeof startHub>[0] = {}): Promise<RunningHub> {
  const h = await startHub(options);
  cleanups.push(() => h.cleanup());
  return h;
}

async function events(h: RunningHub): Promise<EventClient> {
  const e = await openEvents(h.wsUrl, 'backup', OWNER);
  cleanups.push(async () => e.close());
  return e;
}

const finished = (id: string) => (f: { event: string; args: unknown[] }) =>
  f.event === 'backup.update' && (f.args[0] as Job).id === id && (f.args[0] as Job).state !== 'running';

describe('backup manager', () => {
  it('concurrent scheduleBackup calls make one job; state, events and the option follow it', async () => {
    const h = await hub();
    const ev = await events(h);
    const answers = await Promise.all([1, 2, 3].map(() => h.call<Job>('POST', `${B}/backup/`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => !a.body.joined)).toHaveLength(1);
    const id = answers[0]!.body.id;

    const done = (await ev.next(finished(id), 20_000)).args[0] as Job;
    expect(done.state).toBe('done');
    expect(done.trigger).toBe('manual');
    expect(done.file).toMatch(/^hearth-backup-.*\.tar\.gz$/);
    // Nothing of the hub's own is left out as if it were a stranger's (the SDK link in the apps folder).
    expect(done.skipped).toEqual([]);
    expect(ev.frames.filter((f) => f.event === 'backup.create')).toHaveLength(1);
    const info = (ev.frames.find(finished(id))!.args[1] as { changedKeys: string[] }).changedKeys;
    expect(info).toEqual(expect.arrayContaining(['state', 'file', 'size', 'sha256', 'durationMs']));

    const state = (await h.call<State>('GET', `${B}/state`)).body;
    expect(state.running).toBe(false);
    expect(state.enabled).toBe(true);
    expect(state.schedule).toBe('30 3 * * *');
    expect(state.nextRun).not.toBeNull();
    expect(state.location).toBe(join(h.dataDir, 'backups'));
    expect(state.keep).toBe(7);
    expect(state.lastError).toBeNull();
    expect(state.backups).toEqual([{ file: done.file, createdAt: state.lastSuccessfulBackup, size: done.size, sha256: done.sha256 }]);
    expect(state.lastBackup).toMatchObject({ file: done.file, size: done.size, durationMs: done.durationMs });
    expect((await h.call<{ value: string }>('GET', `${B}/option/lastSuccessfulBackup`)).body.value).toBe(state.lastSuccessfulBackup);

    const verified = await verifyArchive(join(h.dataDir, 'backups', done.file as string));
    expect(verified.sha256).toBe(done.sha256);
    expect(verified.manifest.contents.store).toBe(true);

    // Finished: the next request is a new job.
    const again = await h.call<Job>('POST', `${B}/backup`);
    expect(again.body.id).not.toBe(id);
    expect(again.body.joined).toBe(false);
    expect(((await ev.next(finished(again.body.id), 20_000)).args[0] as Job).state).toBe('done');
  });

  it('options: automaticBackupsEnabled needs SYSTEM; lastSuccessfulBackup set/unset need SYSTEM too (the hub writes it)', async () => {
    const h = await hub();
    const created = await h.call<{ token: string }>('POST', '/api/manager/tokens/token', {
      body: { name: 'viewer', scopes: ['service.dashboard.readonly'] },
    });
    expect(created.status).toBe(201);
    const viewer = created.body.token;
    expect((await h.call('PUT', `${B}/option/automaticBackupsEnabled`, { token: viewer, body: { value: false } })).status).toBe(403);
    // A read-only dashboard token must not hide failed backups (issue 22, finding 9).
    expect((await h.call('PUT', `${B}/option/lastSuccessfulBackup`, { token: viewer, body: { value: '2026-01-02T03:04:05Z' } })).status).toBe(403);
    expect((await h.call('DELETE', `${B}/option/lastSuccessfulBackup`, { token: viewer })).status).toBe(403);
    expect((await h.call<{ value: unknown }>('GET', `${B}/option/lastSuccessfulBackup`)).body.value).toBeNull();
    const admin = (await h.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'admin', scopes: ['SYSTEM'] } })).body.token;
    expect((await h.call('PUT', `${B}/option/lastSuccessfulBackup`, { token: admin, body: { value: '2026-01-02T03:04:05Z' } })).status).toBe(200);
    expect((await h.call('GET', `${B}/option/lastSuccessfulBackup`, { token: viewer })).status).toBe(403);
    expect((await h.call<{ value: string }>('GET', `${B}/option/lastSuccessfulBackup`)).body.value).toBe('2026-01-02T03:04:05Z');
    const bad = await h.call<{ error: string }>('PUT', `${B}/option/lastSuccessfulBackup`, { token: admin, body: { value: 'yesterday' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_parameter');
    expect((await h.call('DELETE', `${B}/option/lastSuccessfulBackup`, { token: admin })).status).toBe(204);
    expect((await h.call<{ value: unknown }>('GET', `${B}/option/lastSuccessfulBackup`)).body.value).toBeNull();

    expect((await h.call<{ value: boolean }>('GET', `${B}/option/automaticBackupsEnabled`)).body.value).toBe(true);
    expect((await h.call('PUT', `${B}/option/automaticBackupsEnabled`, { body: { value: false } })).status).toBe(200);
    const state = (await h.call<State>('GET', `${B}/state`)).body;
    expect(state.enabled).toBe(false);
    expect(state.nextRun).toBeNull();
    expect((await h.call('PUT', `${B}/option/automaticBackupsEnabled`, { body: { value: 'yes' } })).status).toBe(400);
  });

  it('the schedule fires under a short cron expression, and retention keeps the newest N', async () => {
    const h = await hub({ args: ['--backup-schedule', '*/2 * * * * *', '--backup-keep', '2'] });
    const ev = await events(h);
    const done = (t: string) => (f: { event: string; args: unknown[] }) =>
      f.event === 'backup.update' && (f.args[0] as Job).trigger === t && (f.args[0] as Job).state === 'done';
    // Never backed up: a catch-up run is due, but with a 2 s schedule the schedule's own run may
    // come first and make it unnecessary (the catch-up rule has its own tests in schedule tests).
    await ev.next(done('schedule'), 20_000);
    await ev.next((f) => ev.frames.filter((x) => x.event === 'backup.update').length >= 3 && f.event === 'backup.update', 20_000);
    // Stop the schedule before reading, so nothing is written while we look.
    expect((await h.call('PUT', `${B}/option/automaticBackupsEnabled`, { body: { value: false } })).status).toBe(200);
    await poll(
      async () => (await h.call<State>('GET', `${B}/state`)).body,
      (s) => !s.running,
      'the running backup to end',
      600,
      100,
    );
    const state = (await h.call<State>('GET', `${B}/state`)).body;
    expect(state.schedule).toBe('*/2 * * * * *');
    expect(state.keep).toBe(2);
    expect(state.backups).toHaveLength(2);
    const newest = ev.frames
      .filter((f) => f.event === 'backup.update' && (f.args[0] as Job).state === 'done')
      .map((f) => (f.args[0] as Job).file)
      .slice(-2)
      .reverse();
    expect(state.backups.map((b) => b.file)).toEqual(newest);
  });

  it('round trip: options, tokens, an app with settings, userdata, insights, flows and variables come back after restore', async () => {
    const appsDir = await tempDir('hearth-backup-apps-');
    cleanups.push(() => rm(appsDir, { recursive: true, force: true }));
    await writeApp(appsDir, 'com.test.keeper', {
      code: KEEPER,
      manifest: { settings: [{ id: 'color', type: 'text', title: { en: 'Color' } }] },
    });
    const h = await hub({ appsDir });
    await poll(
      () => h.call<{ ready: boolean }>('GET', '/api/manager/apps/app/com.test.keeper'),
      (r) => r.body.ready === true,
      'app ready',
    );
    expect((await h.call('PUT', '/api/manager/apps/app/com.test.keeper/setting/color', { body: { value: 'green' } })).status).toBe(200);
    // Insights commit within 2 s: wait for the app's entry before backing up.
    await poll(
      () => h.call<Record<string, { lastValue: unknown }>>('GET', '/api/manager/insights/log'),
      (r) => r.body[COUNTER]?.lastValue === 7,
      'the app entry in insights',
    );
    await mkdir(join(h.dataDir, 'apps', 'com.test.keeper'), { recursive: true });
    await writeFile(join(h.dataDir, 'apps', 'com.test.keeper', 'userdata.json'), '{"n":1}');
    expect((await h.call('PUT', '/api/manager/i18n/option/language', { body: { value: 'nl' } })).status).toBe(200);
    const token = (await h.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'kept', scopes: ['SYSTEM_READONLY'] } })).body.token;
    const variable = (
      await h.call<{ id: string; name: string }>('POST', '/api/manager/logic/variable', { body: { name: 'Mood', type: 'string', value: 'calm' } })
    ).body;
    const folder = (await h.call<{ id: string }>('POST', '/api/manager/flow/flowfolder', { body: { name: 'Evening' } })).body;
    const flow = await h.call<{ id: string }>('POST', '/api/manager/flow/flow', {
      body: {
        name: 'Cheer up',
        folder: folder.id,
        trigger: { id: 'homey:manager:flow:programmatic_trigger' },
        actions: [{ id: 'homey:manager:logic:set_variable', args: { variable: { id: variable.id, name: variable.name }, value: 'cheerful' } }],
      },
    });
    expect(flow.status).toBe(201);

    const ev = await events(h);
    const answer = await h.call<Job>('POST', `${B}/backup/`);
    const frame = await ev.next(finished(answer.body.id), 20_000).catch((e: Error) => {
      throw new Error(`${e.message}; POST answered ${answer.status} ${answer.text}; hub output:\n${h.output.join('\n')}`);
    });
    const done = frame.args[0] as Job;
    expect(done.state).toBe('done');
    expect(await h.stop()).toBe(0);

    // Wipe everything a backup holds.
    await rm(join(appsDir, 'com.test.keeper'), { recursive: true });
    await rm(join(h.dataDir, 'apps'), { recursive: true });
    for (const f of ['insights.db', 'insights.db-wal', 'insights.db-shm']) await rm(join(h.dataDir, f), { force: true });
    await writeFile(
      join(h.dataDir, 'db.json'),
      JSON.stringify({ schemaVersion: (JSON.parse(await readFile(join(h.dataDir, 'db.json'), 'utf8')) as { schemaVersion: number }).schemaVersion }),
    );

    const restored = await restoreBackup(join(h.dataDir, 'backups', done.file as string), { dataDir: h.dataDir, appsDir });
    expect(restored.manifest.contents).toMatchObject({ store: true, insights: true, apps: ['com.test.keeper'], userdata: ['com.test.keeper'] });
    cleanups.push(() => rm(restored.previousData as string, { recursive: true, force: true }));
    cleanups.push(() => rm(restored.previousApps as string, { recursive: true, force: true }));
    expect(await readFile(join(h.dataDir, 'apps', 'com.test.keeper', 'userdata.json'), 'utf8')).toBe('{"n":1}');
    // The entry is back in the restored database itself, before any app runs again.
    const db = new Database(join(h.dataDir, 'insights.db'), { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare("SELECT r.v AS v FROM raw r JOIN logs l ON l.row = r.log WHERE l.uri = 'homey:app:com.test.keeper' AND l.id = 'counter'").all();
      expect(rows).toEqual([{ v: 7 }]);
    } finally {
      db.close();
    }

    const h2 = await hub({ dataDir: h.dataDir, appsDir });
    expect((await h2.call<{ value: string }>('GET', '/api/manager/i18n/option/language')).body.value).toBe('nl');
    expect((await h2.call('GET', `${B}/state`, { token })).status).toBe(200);
    expect((await h2.call('GET', '/api/manager/apps/app/com.test.keeper/setting/color')).body).toBe('green');
    expect((await h2.call<Record<string, unknown>>('GET', '/api/manager/insights/log')).body[COUNTER]).toMatchObject({ lastValue: 7 });
    // The restored app runs again (the hub links the SDK into the restored apps folder).
    await poll(
      () => h2.call<{ ready: boolean }>('GET', '/api/manager/apps/app/com.test.keeper'),
      (r) => r.body.ready === true,
      'restored app ready',
    );
    const state = (await h2.call<State>('GET', `${B}/state`)).body;
    expect(state.backups.map((b) => b.file)).toEqual([done.file]);
    // The flow, its folder and the variable it sets are back, and it runs.
    expect((await h2.call<{ name: string; folder: string; broken: boolean }>('GET', `/api/manager/flow/flow/${flow.body.id}`)).body).toMatchObject({
      name: 'Cheer up',
      folder: folder.id,
      broken: false,
    });
    expect((await h2.call<{ name: string }>('GET', `/api/manager/flow/flowfolder/${folder.id}`)).body.name).toBe('Evening');
    expect((await h2.call<{ result: string }>('POST', `/api/manager/flow/flow/${flow.body.id}/trigger`)).body.result).toBe('ran');
    expect((await h2.call<{ value: string }>('GET', `/api/manager/logic/variable/${variable.id}`)).body.value).toBe('cheerful');
  });
});
