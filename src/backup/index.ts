/**
 * The backup archive library: create, verify, list/retain and restore hearth backups. Pure of
 * the hub (no store, no bus), so the CLI uses it offline and the backup manager online.
 */
export { type BackupResult, type CreateBackupOptions, createBackup } from './create.js';
export { BackupArchiveError, FORMAT_VERSION, type Manifest } from './format.js';
export { type RestoreOptions, type RestoreResult, restoreBackup } from './restore.js';
export { applyRetention, type BackupRecord, cleanStale, listBackups } from './retention.js';
export { type VerifiedArchive, verifyArchive } from './verify.js';
