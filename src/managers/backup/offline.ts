/**
 * `hearth backup` and `hearth restore <archive>`: the same archive library with the hub stopped.
 * Both refuse while a hub holds the data dir: a running hub backs up through its API, and a
 * restore under a running hub would be overwritten by its next store write.
 */
import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type BackupResult, createBackup, type RestoreResult, restoreBackup } from '../../backup/index.js';
import { recoverRestore } from '../../backup/restore-journal.js';
import type { Config } from '../../config.js';
import { acquireDataLock, lockHolder } from '../../core/data-lock.js';
import { EventBus } from '../../core/events.js';
import { OptionService } from '../../core/options.js';
import { DB_FILE, Store } from '../../core/store.js';
import { VERSION } from '../../version.js';
import { BACKUP, BACKUP_OPTIONS, OPTION_LAST_SUCCESS } from './options.js';

/** Makes one verified backup of a stopped hub into config.backupLocation, applying retention. */
export async function runOfflineBackup(config: Config): Promise<BackupResult> {
  const holder = await lockHolder(config.dataDir);
  if (holder !== null) {
    throw new Error(
      `a hub is running on ${config.dataDir}${holder.pid === null ? '' : ` (pid ${holder.pid})`}; ask it for a backup instead: "Back up now" under System → Backups in the web app, or POST /api/manager/backup/backup/ with a token`,
    );
  }
  await access(join(config.dataDir, DB_FILE)).catch(() => {
    throw new Error(`no hearth data in ${config.dataDir} (no ${DB_FILE}); pass the hub's --data-dir`);
  });
  const release = await acquireDataLock(config.dataDir);
  try {
    // A restore stopped half-way is finished before the data dir is read.
    await recoverRestore(config.dataDir);
    // Opened like the hub opens it (migrations included), so the snapshot is what a hub would write.
    const store = await Store.open(config.dataDir);
    const options = new OptionService(store, new EventBus());
    options.register(BACKUP, BACKUP_OPTIONS);
    const result = await createBackup({
      dataDir: config.dataDir,
      appsDir: config.appsDir,
      outDir: config.backupLocation,
      storeSnapshot: store.snapshot(),
      insightsDb: join(config.dataDir, 'insights.db'),
      hubVersion: VERSION,
      keep: config.backupKeep,
    });
    await options.set(BACKUP, OPTION_LAST_SUCCESS, result.createdAt);
    await store.close();
    return result;
  } finally {
    await release();
  }
}

/** Restores `archive` over config.dataDir and config.appsDir (hub stopped). */
export function runRestore(archive: string, config: Config): Promise<RestoreResult> {
  return restoreBackup(resolve(archive), { dataDir: config.dataDir, appsDir: config.appsDir, backups: config.backupLocation });
}
