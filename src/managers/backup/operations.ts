/**
 * The backup handlers: each operation of the contract (contract.ts) as a call into the service
 * (jobs and state), the scheduler, or the archives on disk.
 */
import { implement, type Operation } from '../../core/operation.js';
import type { BackupArchives } from './archives.js';
import { backupContract } from './contract.js';
import type { BackupScheduler } from './schedule.js';
import type { BackupService } from './service.js';

export function backupOperations(service: BackupService, scheduler: BackupScheduler, schedule: string, archives: BackupArchives): Operation[] {
  return implement(backupContract.operations, {
    downloadBackup: ({ params }) => archives.download(params.file),
    uploadBackup: ({ upload }) => archives.upload(upload as ReadableStream<Uint8Array>),
    verifyBackup: ({ params }) => archives.verify(params.file),
    restoreBackup: ({ params }, ctx) => archives.restore(params.file, ctx.token),
    deletePreRestore: ({ params }) => archives.deletePreRestore(params.name),
    getState: async (_, ctx) => ({ ...(await service.state({ schedule, nextRun: scheduler.nextRun() })), restorePlan: archives.plan(ctx.token) }),
    scheduleBackup: () => {
      const { job, joined } = service.schedule('manual');
      return { ...job, joined };
    },
  });
}
