/**
 * The archives in the backup folder as the web app handles them: download one, upload one
 * (streamed to disk, verified, then named after its manifest), verify one, and restore one
 * through a hub restart (restore-record.ts remembers how that went).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, open, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { archiveName, parseArchiveName, SIDECAR_SUFFIX } from '../../backup/format.js';
import { BackupArchiveError, restoreBackup, type VerifiedArchive, verifyArchive } from '../../backup/index.js';
import { PRE_RESTORE_DIR, removePreRestore } from '../../backup/pre-restore.js';
import { planFiles, type RestoreRights, restorePlan } from '../../backup/restore-rights.js';
import { fsyncDir, writeFileDurable } from '../../core/durable-file.js';
import { conflict, type HearthError, invalid, notFound, unavailable } from '../../core/errors.js';
import { makeDirs } from '../../core/files.js';
import { RawResult } from '../../core/operation.js';
import type { TokenInfo } from '../../core/tokens.js';
import type { ManagerContext } from '../context.js';
import { writeRestoreRecord } from './restore-record.js';
import type { ArchiveSummary } from './views.js';

/** Asks the daemon to stop the hub, run the work, and start again; false when it will not. */
export type Restart = (work: () => Promise<void>) => boolean;

function summary(file: string, v: VerifiedArchive): ArchiveSummary {
  const { manifest } = v;
  return {
    file,
    size: v.size,
    sha256: v.sha256,
    createdAt: manifest.createdAt,
    hubVersion: manifest.hubVersion,
    formatVersion: manifest.formatVersion,
    contents: {
      store: manifest.contents.store,
      insights: manifest.contents.insights,
      apps: [...manifest.contents.apps],
      userdata: [...manifest.contents.userdata],
    },
    files: Object.keys(manifest.files).length,
    inconsistent: manifest.inconsistent.map((f) => `${f.path}: ${f.reason}`),
  };
}

/**
 * An archive's verification failure as the sentence the web app shows. `hidden`: a temporary
 * name the person never saw (an upload's partial file), replaced by what they know it as.
 */
function refused(file: string, err: unknown, hidden?: string): HearthError {
  let why = err instanceof BackupArchiveError || err instanceof Error ? err.message : String(err);
  if (hidden) why = why.replaceAll(`backup archive ${hidden} `, 'it ').replaceAll(hidden, 'the file');
  return invalid(`${file} is not a hearth backup this hub can restore: ${why}; nothing was changed`);
}

export class BackupArchives {
  private restoring = false;

  constructor(
    private readonly ctx: ManagerContext,
    private readonly isBackingUp: () => boolean,
    private readonly restart: Restart | undefined,
  ) {}

  private get dir(): string {
    return this.ctx.config.backupLocation;
  }

  /** The path of an archive of the backup folder by name: only names a backup has, only regular files. */
  private async path(file: string): Promise<string> {
    if (parseArchiveName(file) === null)
      throw notFound(`'${file}' is not a backup name (hearth-backup-<time>.tar.gz); GET /api/manager/backup/state lists them`);
    const path = join(this.dir, file);
    const st = await lstat(path).catch(() => null);
    if (!st?.isFile()) throw notFound(`no backup '${file}' in ${this.dir}; GET /api/manager/backup/state lists them`);
    return path;
  }

  /** The archive's bytes, streamed from disk (an archive can be far larger than the hub's memory). */
  async download(file: string): Promise<RawResult> {
    const path = await this.path(file);
    const st = await lstat(path);
    const stream = Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
    return new RawResult('application/gzip', stream, 200, {
      'content-disposition': `attachment; filename="${file}"`,
      'content-length': String(st.size),
      'cache-control': 'no-store',
    });
  }

  async verify(file: string): Promise<ArchiveSummary> {
    const path = await this.path(file);
    try {
      return summary(file, await verifyArchive(path));
    } catch (err) {
      throw refused(`'${file}'`, err);
    }
  }

  /**
   * Takes an uploaded archive: streamed to a hidden partial file (the stale-partial sweep removes
   * one a killed hub left), verified in full, then named after its manifest's date like any
   * backup. The same archive again adds nothing; another archive of the same moment is a conflict.
   */
  async upload(body: ReadableStream<Uint8Array>): Promise<ArchiveSummary> {
    await makeDirs(this.dir);
    const partial = join(this.dir, `.hearth-backup-upload-${randomBytes(6).toString('hex')}.${process.pid}.partial`);
    try {
      const handle = await open(partial, 'wx', 0o600);
      try {
        for await (const chunk of Readable.fromWeb(body as NodeReadableStream<Uint8Array>)) await handle.write(chunk as Buffer);
        await handle.sync();
      } finally {
        await handle.close();
      }
      let verified: VerifiedArchive;
      try {
        verified = await verifyArchive(partial);
      } catch (err) {
        throw refused('the uploaded file', err, basename(partial));
      }
      const file = archiveName(new Date(verified.manifest.createdAt));
      const target = join(this.dir, file);
      const existing = await lstat(target).catch(() => null);
      if (existing) {
        const same =
          existing.isFile() &&
          (await verifyArchive(target).then(
            (v) => v.sha256 === verified.sha256,
            () => false,
          ));
        if (!same) throw conflict(`the backup folder already holds a different '${file}'; remove it first if the upload should replace it`);
        return { ...summary(file, verified), alreadyThere: true };
      }
      await writeFileDurable(`${target}${SIDECAR_SUFFIX}`, `${verified.sha256}  ${file}\n`);
      await rename(partial, target);
      await fsyncDir(this.dir);
      this.ctx.log.info({ file, size: verified.size }, 'backup uploaded and verified');
      return summary(file, verified);
    } finally {
      await rm(partial, { force: true });
    }
  }

  /** Deletes a restore's copy of what it replaced (pre-restore/<name>/ in the backup folder). */
  async deletePreRestore(name: string): Promise<void> {
    if (!(await removePreRestore(this.dir, name)))
      throw notFound(`no pre-restore copy '${name}' in ${join(this.dir, PRE_RESTORE_DIR)}; GET /api/manager/backup/state lists them`);
    this.ctx.log.info({ name }, 'deleted a pre-restore copy');
  }

  /**
   * Verifies the archive now (a bad one changes nothing and the hub stays up), then has the hub
   * restart into it: the daemon stops the hub, the restore swaps the folders (the replaced ones
   * kept in the backup folder's pre-restore/<time>/), and a new hub starts on the same port. The outcome is
   * recorded in the restored data dir, where the next hub's state shows it.
   */
  /** What a restore by `caller` may replace (src/backup/restore-rights.ts). */
  rightsOf(caller: TokenInfo | null): RestoreRights {
    const options = this.ctx.options;
    return { grants: [...(caller?.scopes ?? [])], option: (manager, name) => options.definition(manager, name) };
  }

  /** What a restore by `caller` will bring back and leave as it is, in words (shown before a restore). */
  plan(caller: TokenInfo | null): { brings: string[]; keeps: string[] } {
    return restorePlan(this.rightsOf(caller));
  }

  async restore(file: string, caller: TokenInfo | null): Promise<ArchiveSummary & { restarting: true; leftOut: string[] }> {
    if (!this.restart) throw unavailable('this hub was not started by the hearth daemon and cannot restart itself; stop it and run hearth restore');
    if (this.restoring) throw conflict('a restore is already under way; the hub restarts when it is done');
    if (this.isBackingUp()) throw conflict('a backup is running; restore once it has finished');
    const checked = await this.verify(file);
    const path = join(this.dir, file);
    const { dataDir, appsDir, backupLocation } = this.ctx.config;
    const log = this.ctx.log;
    // The caller's rights decide what the backup may replace (src/backup/restore-rights.ts).
    const rights = this.rightsOf(caller);
    const accepted = this.restart(async () => {
      const at = new Date().toISOString();
      try {
        const r = await restoreBackup(path, { dataDir, appsDir, rights, backups: backupLocation });
        log.info({ file, previousData: r.previousData, previousApps: r.previousApps, carried: r.carried, leftOut: r.leftOut }, 'restored a backup');
        await writeRestoreRecord(dataDir, {
          file,
          createdAt: r.manifest.createdAt,
          at,
          ok: true,
          previousData: r.previousData,
          previousApps: r.previousApps,
          error: null,
          leftOut: [...r.leftOut],
          tokensAdded: r.tokensAdded,
          completedAtStart: false,
          by: caller?.actor ?? null,
        });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        log.error({ err, file }, 'restore failed; the hub starts on the data it had');
        await writeRestoreRecord(dataDir, {
          file,
          createdAt: checked.createdAt,
          at,
          ok: false,
          previousData: null,
          previousApps: null,
          error: message,
          leftOut: [],
          tokensAdded: 0,
          completedAtStart: false,
        });
      }
    });
    if (!accepted) throw conflict('the hub is already stopping or restarting; try again once it is up');
    this.restoring = true;
    return { ...checked, restarting: true, leftOut: planFiles(rights).leftOut };
  }
}
