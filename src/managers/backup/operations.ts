/**
 * The backup manager's operation table (seed: getState, scheduleBackup; the option operations
 * come from the shared option helper; the archive operations are the hub's own, for the web app).
 */
import { z } from 'zod';
import { defineOperation, defineStateOperation, type Operation } from '../../core/operation.js';
import { MAX_UPLOAD_BYTES, UPLOAD_TYPES, type BackupArchives } from './archives.js';
import type { BackupService } from './service.js';
import { ArchiveSummary, BackupJob, BackupState, RestoreAccepted } from './views.js';
import type { BackupScheduler } from './schedule.js';

const File = z.object({ file: z.string() });

function archiveOperations(archives: BackupArchives): Operation[] {
  return [
    defineOperation({
      id: 'downloadBackup',
      method: 'GET',
      path: '/archive/:file',
      // The archive holds everything (token hashes, every app's data): the owner's kind of scope.
      scope: 'SYSTEM',
      extension: true,
      summary: 'Download an archive of the backup folder (application/gzip)',
      params: File,
      produces: 'application/gzip',
      handler: ({ params }) => archives.download(params.file),
    }),
    defineOperation({
      id: 'uploadBackup',
      method: 'POST',
      path: '/archive/',
      scope: 'SYSTEM',
      extension: true,
      summary: 'Upload an archive (the .tar.gz as the body); it is verified, then kept in the backup folder under its own date',
      upload: { types: UPLOAD_TYPES, maxBytes: MAX_UPLOAD_BYTES },
      status: 201,
      output: ArchiveSummary,
      handler: ({ upload }) => archives.upload(upload as ReadableStream<Uint8Array>),
    }),
    defineOperation({
      id: 'verifyBackup',
      method: 'POST',
      path: '/archive/:file/verify',
      scope: 'SYSTEM_READONLY',
      extension: true,
      summary: 'Read an archive end to end and check every file against its manifest',
      params: File,
      output: ArchiveSummary,
      handler: ({ params }) => archives.verify(params.file),
    }),
    defineOperation({
      id: 'restoreBackup',
      method: 'POST',
      path: '/archive/:file/restore',
      scope: 'SYSTEM',
      extension: true,
      summary:
        "Verify an archive, then restart the hub into it (the replaced data kept as <data-dir>.pre-restore-<time>). Each part comes from the backup only where the caller's scopes could write it; the hub's tokens always stay",
      params: File,
      status: 202,
      output: RestoreAccepted,
      handler: ({ params }, ctx) => archives.restore(params.file, ctx.token),
    }),
  ];
}

export function backupOperations(service: BackupService, scheduler: BackupScheduler, schedule: string, archives: BackupArchives): Operation[] {
  return [
    defineStateOperation({
      scope: 'SYSTEM_READONLY',
      summary: 'Schedule, the running job, the last result and the backups on disk',
      output: BackupState,
      handler: () => service.state({ schedule, nextRun: scheduler.nextRun() }),
    }),
    defineOperation({
      id: 'scheduleBackup',
      method: 'POST',
      path: '/backup/',
      scope: 'service.system',
      summary: 'Start a backup now (answers at once; a request while one runs joins it)',
      output: BackupJob.extend({ joined: z.boolean() }),
      handler: () => {
        const { job, joined } = service.schedule('manual');
        return { ...job, joined };
      },
    }),
    ...archiveOperations(archives),
  ];
}
