/**
 * What the backup operations answer about jobs and state, as zod schemas: the operation table
 * declares them and the web app takes its types from here. Free of Node imports, so the browser
 * build can type-check against it.
 */
import { z } from 'zod';

export const BackupJob = z.object({
  id: z.string(),
  trigger: z.enum(['manual', 'schedule', 'catch-up']),
  state: z.enum(['running', 'done', 'failed']),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  file: z.string().nullable(),
  size: z.number().nullable(),
  sha256: z.string().nullable(),
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
  /** What the archive left out or holds but a restore will not take, with why (app files that changed meanwhile, links). */
  skipped: z.array(z.string()),
  /** Files named like backups in the backup folder that retention did not count (unverified, dated ahead), with why. */
  leftAlone: z.array(z.string()),
});
export type BackupJob = z.infer<typeof BackupJob>;

export const LastBackup = z.object({
  file: z.string(),
  createdAt: z.string(),
  size: z.number(),
  sha256: z.string(),
  durationMs: z.number(),
});
export const LastError = z.object({ message: z.string(), at: z.string() });

export const BackupState = z.object({
  enabled: z.boolean(),
  schedule: z.string(),
  timeZone: z.string(),
  nextRun: z.string().nullable(),
  running: z.boolean(),
  job: BackupJob.nullable(),
  lastSuccessfulBackup: z.string().nullable(),
  lastError: LastError.nullable(),
  lastBackup: LastBackup.nullable(),
  location: z.string(),
  keep: z.number(),
  backups: z.array(z.object({ file: z.string(), createdAt: z.string(), size: z.number(), sha256: z.string() })),
});
export type BackupState = z.infer<typeof BackupState>;
