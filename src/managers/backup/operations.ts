/**
 * The backup manager's operation table (seed: getState, scheduleBackup; the option operations
 * come from the shared option helper).
 */
import { z } from 'zod';
import { defineOperation, defineStateOperation, type Operation } from '../../core/operation.js';
import type { BackupService } from './service.js';
import { BackupJob, BackupState } from './views.js';
import type { BackupScheduler } from './schedule.js';

export function backupOperations(service: BackupService, scheduler: BackupScheduler, schedule: string): Operation[] {
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
  ];
}
