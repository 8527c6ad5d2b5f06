/**
 * What the backup operations answer about jobs and state, as zod schemas: the operation table
 * declares them and the web app takes its types from here. Free of Node imports, so the browser
 * build can type-check against it.
 */

import { z } from 'zod';
import { ActorView } from '../../core/actor.js';
import { lazy } from '../../core/contract.js';

export const BackupJob = lazy(() =>
  z.object({
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
  }),
);
export type BackupJob = z.infer<ReturnType<typeof BackupJob>>;

export const LastBackup = lazy(() =>
  z.object({
    file: z.string(),
    createdAt: z.string(),
    size: z.number(),
    sha256: z.string(),
    durationMs: z.number(),
  }),
);
export const LastError = lazy(() => z.object({ message: z.string(), at: z.string() }));

/** What a verification found in an archive: when and by which hub it was made, and what it holds. */
export const ArchiveSummary = lazy(() =>
  z.object({
    file: z.string(),
    size: z.number(),
    sha256: z.string(),
    createdAt: z.string(),
    hubVersion: z.string(),
    formatVersion: z.number(),
    contents: z.object({ store: z.boolean(), insights: z.boolean(), apps: z.array(z.string()), userdata: z.array(z.string()) }),
    files: z.number(),
    /** Files the archive holds but a restore leaves out (they changed while they were read), with why. */
    inconsistent: z.array(z.string()),
    /** Upload only: the same archive was already in the backup folder (nothing was added). */
    alreadyThere: z.boolean().optional(),
  }),
);
export type ArchiveSummary = z.infer<ReturnType<typeof ArchiveSummary>>;

/** The last restore through the hub: what came back, when, and where the data it replaced went. */
export const LastRestore = lazy(() =>
  z.object({
    file: z.string(),
    /** When the restored archive was made. */
    createdAt: z.string().nullable(),
    at: z.string(),
    ok: z.boolean(),
    /** The pre-restore copies of the data and apps folders (null: there was none, or it failed). */
    previousData: z.string().nullable(),
    previousApps: z.string().nullable(),
    error: z.string().nullable(),
    /** What the backup held that the restore left out, and why: what the restoring token may not replace. */
    leftOut: z.array(z.string()).default([]),
    /** How many of the backup's tokens joined the hub's own (the hub's own always stay). */
    tokensAdded: z.number().int().nonnegative().default(0),
    /** The restore was stopped half-way (SIGKILL, a power cut) and the next start finished it. */
    completedAtStart: z.boolean().default(false),
    /** Who restored it through the hub (null: `hearth restore` on the device, or before hearth said). */
    by: ActorView().nullable().optional(),
    /** Said on the timeline already (the hub after the restore says it once). */
    told: z.boolean().optional(),
  }),
);
export type LastRestore = z.infer<ReturnType<typeof LastRestore>>;

export const RestoreAccepted = lazy(() =>
  ArchiveSummary().extend({
    restarting: z.literal(true),
    /** What the restore will leave out for this caller (the record in the state says what it did). */
    leftOut: z.array(z.string()),
  }),
);

/** A restore's copies of what it replaced, in the backup folder's pre-restore/<name>/. */
export const PreRestoreCopy = lazy(() =>
  z.object({
    /** The restore's time, as the folder is named (2026-11-26T10-49-33Z). */
    name: z.string(),
    at: z.string(),
    /** Where the data dir and the apps folder as they were are (null: that one was not replaced). */
    data: z.string().nullable(),
    apps: z.string().nullable(),
  }),
);
export type PreRestoreCopy = z.infer<ReturnType<typeof PreRestoreCopy>>;

export const BackupState = lazy(() =>
  z.object({
    enabled: z.boolean(),
    schedule: z.string(),
    timeZone: z.string(),
    nextRun: z.string().nullable(),
    running: z.boolean(),
    job: BackupJob().nullable(),
    lastSuccessfulBackup: z.string().nullable(),
    lastError: LastError().nullable(),
    lastBackup: LastBackup().nullable(),
    location: z.string(),
    keep: z.number(),
    /** What a restore by the caller would bring back from a backup and leave as it is, in words. */
    restorePlan: z.object({ brings: z.array(z.string()), keeps: z.array(z.string()) }),
    /** The last restore through the hub (the web app), or null. */
    lastRestore: LastRestore().nullable(),
    backups: z.array(z.object({ file: z.string(), createdAt: z.string(), size: z.number(), sha256: z.string() })),
    /** The copies restores kept of what they replaced, newest first; the newest preRestoreKeep stay. */
    preRestore: z.array(PreRestoreCopy()),
    preRestoreKeep: z.number(),
  }),
);
export type BackupState = z.infer<ReturnType<typeof BackupState>>;
