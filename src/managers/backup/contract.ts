/**
 * The backup contract: the backups on disk (download, upload, verify, restore), a backup now, the
 * state, the two options of the seed, and the events of backup jobs.
 */
import { z } from 'zod';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';
import { UpdateInfoSchema } from '../../core/events.js';
import { BACKUP, BACKUP_OPTIONS } from './options.js';
import { ArchiveSummary, BackupJob, BackupState, RestoreAccepted } from './views.js';

/** Largest archive the hub takes as an upload: a Pi's SD card is the real limit, this stops a runaway client. */
export const MAX_UPLOAD_BYTES = 16 * 1024 ** 3;
export const UPLOAD_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'] as const;

const File = lazy(() => z.object({ file: z.string() }));

export const backupContract = defineContract({
  name: BACKUP,
  eventScope: 'SYSTEM_READONLY',
  options: BACKUP_OPTIONS,
  events: lazy(() => ({ 'backup.create': [BackupJob()], 'backup.update': [BackupJob(), UpdateInfoSchema()] })),
  operations: {
    downloadBackup: op(
      {
        method: 'GET',
        path: '/archive/:file',
        scope: 'SYSTEM',
        extension: true,
        summary: 'Download an archive of the backup folder (application/gzip)',
        produces: 'application/gzip',
      },
      () => ({
        params: File(),
      }),
    ),
    uploadBackup: op(
      {
        method: 'POST',
        path: '/archive/',
        scope: 'SYSTEM',
        extension: true,
        summary: 'Upload an archive (the .tar.gz as the body); it is verified, then kept in the backup folder under its own date',
        upload: { types: UPLOAD_TYPES, maxBytes: MAX_UPLOAD_BYTES },
        status: 201,
      },
      () => ({
        output: ArchiveSummary(),
      }),
    ),
    verifyBackup: op(
      {
        method: 'POST',
        path: '/archive/:file/verify',
        scope: 'SYSTEM_READONLY',
        extension: true,
        summary: 'Read an archive end to end and check every file against its manifest',
      },
      () => ({
        params: File(),
        output: ArchiveSummary(),
      }),
    ),
    restoreBackup: op(
      {
        method: 'POST',
        path: '/archive/:file/restore',
        scope: 'SYSTEM',
        extension: true,
        summary:
          "Verify an archive, then restart the hub into it (the replaced data kept in the backup folder's pre-restore/<time>/, the last 3). Each part comes from the backup only where the caller's scopes could write it; the hub's tokens always stay",
        status: 202,
      },
      () => ({
        params: File(),
        output: RestoreAccepted(),
      }),
    ),
    deletePreRestore: op(
      {
        method: 'DELETE',
        path: '/pre-restore/:name',
        scope: 'SYSTEM',
        extension: true,
        summary: "Delete a restore's copy of what it replaced (its data and apps folders as they were)",
        status: 204,
      },
      () => ({
        params: z.object({ name: z.string() }),
      }),
    ),
    getState: stateOperation({
      scope: 'SYSTEM_READONLY',
      summary: 'Schedule, the running job, the last result and the backups on disk',
      output: () => BackupState(),
    }),
    scheduleBackup: op(
      {
        method: 'POST',
        path: '/backup/',
        scope: 'service.system',
        summary: 'Start a backup now (answers at once; a request while one runs joins it)',
      },
      () => ({
        output: BackupJob().extend({ joined: z.boolean() }),
      }),
    ),
  },
});
