/**
 * Backup jobs in a running hub: one job at a time (a second request joins the running one),
 * store snapshot taken in memory, insights copied through SQLite's online backup, results as
 * events and in the store. Scheduling lives in schedule.ts; the archive work in src/backup/.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { BackupRecord } from '../../backup/index.js';
import { listPreRestore, PRE_RESTORE_KEEP } from '../../backup/pre-restore.js';
import { KiB } from '../../core/byte-bounds.js';
import { diff } from '../../core/diff.js';
import type { Section } from '../../core/store.js';
import { VERSION } from '../../version.js';
import type { ManagerContext } from '../context.js';
import { BACKUP, OPTION_ENABLED, OPTION_LAST_SUCCESS } from './options.js';
import { readRestoreRecord, writeRestoreRecord } from './restore-record.js';
import { type BackupJob, type BackupState, LastBackup, LastError, type LastRestore, type PreRestoreCopy } from './views.js';

/**
 * The archive library (and tar with it) is loaded when a backup is first listed or made, not
 * with the hub: it is 1.5 MiB of heap that most hours of a hub never use (docs/performance.md).
 */
const archives = () => import('../../backup/index.js');

export type JobTrigger = 'manual' | 'schedule' | 'catch-up';

/** What the hub remembers across restarts (the archives themselves are the real record). */
const BackupSection = z.object({
  lastBackup: LastBackup().nullable(),
  lastError: LastError().nullable(),
});
type BackupSection = z.infer<typeof BackupSection>;

export class BackupService {
  private section!: Section<BackupSection>;
  /** The latest job (running or finished), for getState and joiners. */
  private job: BackupJob | null = null;
  private running: Promise<BackupJob> | null = null;

  constructor(
    private readonly ctx: ManagerContext,
    private readonly now: () => Date = () => new Date(),
    private readonly copyInsights?: (dest: string) => Promise<void>,
  ) {}

  /** How the last restore went (read once at start: a restore always restarts the hub). */
  private lastRestore: LastRestore | null = null;

  /** Opens the store section; a section that does not match fails the manager's start (503). */
  async open(): Promise<void> {
    this.section = this.ctx.store.section(BACKUP, BackupSection, () => ({ lastBackup: null, lastError: null }), {
      bytes: { section: 64 * KiB, items: 'backup records' },
    });
    this.lastRestore = await readRestoreRecord(this.ctx.config.dataDir);
  }

  /**
   * The last restore, once, for the timeline: the record when it was not said yet, marked said
   * (in its file) as it is answered; null otherwise.
   */
  async untoldRestore(): Promise<LastRestore | null> {
    const r = this.lastRestore;
    if (!r || r.told) return null;
    this.lastRestore = { ...r, told: true };
    await writeRestoreRecord(this.ctx.config.dataDir, this.lastRestore);
    return r;
  }

  get enabled(): boolean {
    return this.ctx.options.get<boolean>(BACKUP, OPTION_ENABLED);
  }

  get lastSuccess(): Date | null {
    const v = this.ctx.options.get<string | null>(BACKUP, OPTION_LAST_SUCCESS);
    return v ? new Date(v) : null;
  }

  get isRunning(): boolean {
    return this.running !== null;
  }

  /**
   * Starts a backup job, or joins the one running. Answers at once; the work goes on behind.
   * `done` settles when the job finishes (it never rejects: failures are in the job).
   */
  schedule(trigger: JobTrigger): { job: BackupJob; joined: boolean; done: Promise<BackupJob> } {
    if (this.running && this.job) return { job: { ...this.job }, joined: true, done: this.running };
    const job: BackupJob = {
      id: randomUUID(),
      trigger,
      state: 'running',
      startedAt: this.now().toISOString(),
      finishedAt: null,
      file: null,
      size: null,
      sha256: null,
      durationMs: null,
      error: null,
      skipped: [],
      leftAlone: [],
    };
    this.job = job;
    this.ctx.bus.publish(BACKUP, 'backup.create', { ...job });
    // The snapshot is taken now, synchronously: the job backs up the state of this moment.
    const snapshot = this.ctx.store.snapshot();
    this.running = this.run(job, snapshot).finally(() => {
      this.running = null;
    });
    return { job: { ...job }, joined: false, done: this.running };
  }

  private async run(job: BackupJob, storeSnapshot: Uint8Array): Promise<BackupJob> {
    const { config, log } = this.ctx;
    const before = { ...job };
    try {
      // A file an app changes meanwhile does not fail the backup: it is recorded (see tar-writer).
      const { createBackup } = await archives();
      const result = await createBackup({
        dataDir: config.dataDir,
        appsDir: config.appsDir,
        outDir: config.backupLocation,
        storeSnapshot,
        insightsDb: join(config.dataDir, 'insights.db'),
        ...(this.copyInsights ? { copyInsights: this.copyInsights } : {}),
        hubVersion: VERSION,
        keep: config.backupKeep,
      });
      const { file, createdAt, size, sha256, durationMs, skipped, leftAlone } = result;
      Object.assign(job, {
        state: 'done',
        finishedAt: this.now().toISOString(),
        file,
        size,
        sha256,
        durationMs,
        skipped: [...skipped],
        leftAlone: [...leftAlone],
      });
      await this.section.update((s) => {
        s.lastBackup = { file, createdAt, size, sha256, durationMs };
        s.lastError = null;
      });
      await this.ctx.options.set(BACKUP, OPTION_LAST_SUCCESS, createdAt);
      for (const skipped of result.skipped) log.warn({ skipped }, 'left out of the backup');
      for (const left of leftAlone) log.warn({ left }, 'retention left a file named like a backup alone');
      log.info({ file, size, durationMs, deleted: result.deleted }, 'backup written and verified');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      Object.assign(job, { state: 'failed', finishedAt: this.now().toISOString(), error: message });
      log.error({ err }, 'backup failed');
      await this.section
        .update((s) => {
          s.lastError = { message, at: job.finishedAt as string };
        })
        .catch((e: unknown) => log.error({ err: e }, 'could not record the backup failure'));
    }
    this.ctx.bus.publish(BACKUP, 'backup.update', { ...job }, diff(before, job));
    return job;
  }

  /** Waits for a running job (hub stop: never exit half-way through an archive). */
  async settle(): Promise<void> {
    await this.running;
  }

  async state(scheduleInfo: { schedule: string; nextRun: Date | null }): Promise<Omit<BackupState, 'restorePlan'>> {
    const { config } = this.ctx;
    let backups: BackupRecord[] = [];
    let preRestore: PreRestoreCopy[] = [];
    try {
      const { listBackups } = await archives();
      backups = (await listBackups(config.backupLocation)).map(({ file, createdAt, size, sha256 }) => ({ file, createdAt, size, sha256 }));
      preRestore = await listPreRestore(config.backupLocation);
    } catch (err) {
      this.ctx.log.warn({ err, location: config.backupLocation }, 'cannot list the backup folder');
    }
    return {
      enabled: this.enabled,
      schedule: scheduleInfo.schedule,
      timeZone: config.zone,
      nextRun: scheduleInfo.nextRun?.toISOString() ?? null,
      running: this.isRunning,
      job: this.job ? { ...this.job } : null,
      lastSuccessfulBackup: this.ctx.options.get<string | null>(BACKUP, OPTION_LAST_SUCCESS),
      lastError: this.section.value.lastError,
      lastBackup: this.section.value.lastBackup,
      location: config.backupLocation,
      keep: config.backupKeep,
      lastRestore: this.lastRestore,
      backups,
      preRestore,
      preRestoreKeep: PRE_RESTORE_KEEP,
    };
  }
}
