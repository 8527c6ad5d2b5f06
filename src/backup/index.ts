/**
 * The backup archive library: create, verify, list/retain and restore hearth backups. Pure of
 * the hub (no store, no bus), so the CLI uses it offline and the backup manager online.
 */
export { createBackup, type BackupResult, type CreateBackupOptions } from './create.js';
export { BackupArchiveError, FORMAT_VERSION, type Manifest } from './format.js';
export { applyRetention, cleanStale, listBackups, type BackupRecord } from './retention.js';
export { restoreBackup, type RestoreOptions, type RestoreResult } from './restore.js';
export { verifyArchive, type VerifiedArchive } from './verify.js';
