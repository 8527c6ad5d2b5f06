/**
 * `hearth backup` / `hearth restore` entry points (runOfflineBackup, runRestore) on a stopped
 * hub's folders, and the scheduler's rules that need no waiting: the clock check and catch-up.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyArchive } from '../../src/backup/index.js';
import { loadConfig } from '../../src/config.js';
import { runOfflineBackup, runRestore } from '../../src/managers/backup/index.js';
import { BackupScheduler, needsCatchUp } from '../../src/managers/backup/schedule.js';
import { holdDataLock } from '../helpers/lock.js';
import { type Fixture, makeFixture, STORE_DOC } from './fixtures.js';

const roots: string[] = [];
afterEach(async () => {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

async function fixture(): Promise<Fixture> {
  const f = await makeFixture({ insightRows: 10 });
  roots.push(f.root);
  return f;
}

const configFor = (f: Fixture, extra: Record<string, string> = {}) =>
  loadConfig({ 'data-dir': f.dataDir, 'apps-dir': f.appsDir, 'backup-keep': '2', ...extra }, {});

describe('offline backup and restore', () => {
  it('backs up a stopped hub, records lastSuccessfulBackup in its store, and restores', async () => {
    const f = await fixture();
    const config = configFor(f, { 'backup-dir': join(f.root, 'usb') });
    const result = await runOfflineBackup(config);
    expect(result.path).toBe(join(f.root, 'usb', result.file));
    expect((await verifyArchive(result.path)).manifest.contents.apps).toEqual(['com.example.lights', 'com.example.weather']);
    const db = JSON.parse(await readFile(join(f.dataDir, 'db.json'), 'utf8')) as { options: { backup: { lastSuccessfulBackup: string } } };
    expect(db.options.backup.lastSuccessfulBackup).toBe(result.createdAt);

    await writeFile(join(f.dataDir, 'db.json'), '{"schemaVersion":1}');
    const restored = await runRestore(result.path, config);
    expect(restored.previousData).not.toBeNull();
    const back = JSON.parse(await readFile(join(f.dataDir, 'db.json'), 'utf8')) as typeof STORE_DOC;
    expect(back.dashboards).toEqual(STORE_DOC.dashboards);
    expect(back.tokens).toEqual(STORE_DOC.tokens);
  });

  it('refuses while a hub holds the data dir, and on a folder without hearth data', async () => {
    const f = await fixture();
    const holder = await holdDataLock(f.dataDir);
    try {
      await expect(runOfflineBackup(configFor(f))).rejects.toThrow(
        `a hub is running on ${f.dataDir} (pid ${holder.pid}); ask it for a backup instead: "Back up now" under System → Backups in the web app, or POST /api/manager/backup/backup/ with a token`,
      );
    } finally {
      await holder.kill();
    }
    const empty = join(f.root, 'nothing');
    await expect(runOfflineBackup(loadConfig({ 'data-dir': empty }, {}))).rejects.toThrow(`no hearth data in ${empty} (no db.json)`);
  });
});

describe('schedule rules', () => {
  it('catches up when never backed up or the last success is more than a day old', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    expect(needsCatchUp(null, now)).toBe(true);
    expect(needsCatchUp(new Date('2026-11-20T11:59:59Z'), now)).toBe(true);
    expect(needsCatchUp(new Date('2026-11-20T12:00:01Z'), now)).toBe(false);
    expect(needsCatchUp(new Date('not a date'), now)).toBe(true);
  });

  it('does not schedule anything while the clock reads 1970, and does once it is plausible', () => {
    const fired: string[] = [];
    const make = (now: Date) =>
      new BackupScheduler({
        expression: '30 3 * * *',
        timeZone: 'UTC',
        log: pino({ level: 'silent' }),
        now: () => now,
        enabled: () => true,
        lastSuccess: () => new Date(now.getTime() - 1000),
        fire: (t) => fired.push(t),
      });
    const early = make(new Date('1970-01-01T00:00:10Z'));
    early.start();
    expect(early.nextRun()).toBeNull();
    early.stop();

    const ok = make(new Date('2026-11-21T12:00:00Z'));
    ok.start();
    // 03:30 UTC on the day after now (from the scheduler's clock).
    expect(ok.nextRun()?.toISOString()).toBe('2026-11-22T03:30:00.000Z');
    ok.stop();
    expect(fired).toEqual([]);
  });

  it('runs once when the clock is set forward past a run, and plans from the new time when set back', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const random = vi.spyOn(Math, 'random').mockReturnValue(0); // no random delay
    try {
      vi.setSystemTime(new Date('2026-11-21T12:00:00Z'));
      const fired: string[] = [];
      const s = new BackupScheduler({
        expression: '0 * * * *',
        timeZone: 'UTC',
        log: pino({ level: 'silent' }),
        now: () => new Date(),
        enabled: () => true,
        lastSuccess: () => new Date(), // no catch-up
        fire: (t) => fired.push(t),
      });
      s.start();
      expect(s.nextRun()?.toISOString()).toBe('2026-11-21T13:00:00.000Z');
      vi.advanceTimersByTime(60 * 60 * 1000);
      expect(fired).toEqual(['schedule']);
      expect(s.nextRun()?.toISOString()).toBe('2026-11-21T14:00:00.000Z');

      // NTP moves the clock five and a half hours on: the missed hours run once, not five times.
      vi.setSystemTime(new Date('2026-11-21T19:30:00Z'));
      vi.advanceTimersByTime(60 * 1000);
      expect(fired).toEqual(['schedule', 'schedule']);
      expect(s.nextRun()?.toISOString()).toBe('2026-11-21T20:00:00.000Z');

      // And back to the morning: the next run is the morning's, not tonight's.
      vi.setSystemTime(new Date('2026-11-21T10:10:00Z'));
      vi.advanceTimersByTime(60 * 1000);
      expect(s.nextRun()?.toISOString()).toBe('2026-11-21T11:00:00.000Z');
      expect(fired).toHaveLength(2);
      s.stop();
    } finally {
      random.mockRestore();
      vi.useRealTimers();
    }
  });

  it('refuses an expression that is not cron, naming the flag', () => {
    const s = new BackupScheduler({
      expression: 'every night',
      timeZone: 'UTC',
      log: pino({ level: 'silent' }),
      now: () => new Date(),
      enabled: () => true,
      lastSuccess: () => null,
      fire: () => undefined,
    });
    expect(() => s.start()).toThrow(
      "invalid --backup-schedule 'every night' (it has 2 fields; cron has 5 (or 6 with seconds first)): use a cron expression such as '30 3 * * *' (daily at 03:30)",
    );
  });
});
