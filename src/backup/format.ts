/**
 * What a hearth backup archive is: names, layout and the manifest schema. Shared by the writer,
 * the reader (verify, restore) and the backup manager so the three cannot disagree.
 *
 * Layout of `hearth-backup-<stamp>.tar.gz` (one gzip member, plain ustar/pax entries):
 *   data/db.json             the store, snapshot taken in memory
 *   data/insights.db         SQLite online-backup copy (absent when the hub has no insights db)
 *   data/apps/<id>/...       each installed app's userdata
 *   apps/<id>/...            each installed app's package folder
 *   manifest.json            LAST entry: written after the bytes it describes, so its checksums
 *                            are of exactly what is in the archive, never of a second read
 */

import { z } from 'zod';
import { APP_ID, AppId } from '../apps/manifest/manifest.js';
import { safeRecord } from '../core/null-prototype.js';
import { transient } from '../core/transient.js';

/** Bumped when a reader of this version could misread a newer archive. */
export const FORMAT_VERSION = 1;

export const MANIFEST_PATH = 'manifest.json';
export const DATA_PREFIX = 'data/';
export const APPS_PREFIX = 'apps/';
export const STORE_ENTRY = 'data/db.json';
export const INSIGHTS_ENTRY = 'data/insights.db';

const sha256Hex = transient(() => z.string().regex(/^[0-9a-f]{64}$/));

export const manifestFileSchema = transient(() => z.object({ size: z.number().int().nonnegative(), sha256: sha256Hex() }));
export type ManifestFile = z.infer<ReturnType<typeof manifestFileSchema>>;

/**
 * Only `formatVersion` is read strictly first: a newer archive must be refused with a clear
 * sentence, not with a schema error about a field this version does not know.
 */
export const manifestVersionSchema = transient(() => z.object({ formatVersion: z.number().int().positive() }));

export const manifestSchema = transient(() =>
  z.object({
    formatVersion: z.number().int().positive(),
    hubVersion: z.string(),
    createdAt: z.iso.datetime(),
    contents: z.object({
      store: z.boolean(),
      insights: z.boolean(),
      // Ids become folder names at restore: the apps manager's own id rule, so never '..' or a path.
      apps: z.array(AppId()),
      userdata: z.array(AppId()),
      /**
       * 'shared' when the apps folder was `<data-dir>/apps` itself (the systemd layout): app
       * packages and their runtime data are one tree, archived once under data/apps/.
       */
      layout: z.enum(['separate', 'shared']).default('separate'),
    }),
    /** Every regular file in the archive except the manifest itself, by archive path. */
    files: safeRecord(z.string(), manifestFileSchema()),
    /**
     * Files in the archive that are not a consistent copy (one shrank while it was read, so the
     * rest of its entry is zeros) with why: verified like the others, never restored.
     */
    inconsistent: z.array(z.object({ path: z.string(), reason: z.string() })).default([]),
  }),
);
export type Manifest = z.infer<ReturnType<typeof manifestSchema>>;

const ARCHIVE_RE = /^hearth-backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.tar\.gz$/;
export const PARTIAL_RE = /^\.hearth-backup-.*\.(\d+)\.partial$/;
export const SIDECAR_SUFFIX = '.sha256';

/** `hearth-backup-2026-11-21T22-34-12-345Z.tar.gz`: sorts by time, no ':' (FAT USB sticks). */
export function archiveName(createdAt: Date): string {
  return `hearth-backup-${createdAt.toISOString().replace(/:/g, '-').replace('.', '-')}.tar.gz`;
}

/** The creation time encoded in an archive name, or null when the name is not one of ours. */
export function parseArchiveName(name: string): Date | null {
  const m = ARCHIVE_RE.exec(name);
  if (!m) return null;
  const date = new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Temp name of an archive being written: hidden, pid-tagged, never matching the archive pattern. */
export function partialName(final: string, pid = process.pid): string {
  return `.${final.replace(/\.tar\.gz$/, '')}.${pid}.partial`;
}

/** What an archive path holds; null for anything a backup never writes. */
export type EntryKind = { kind: 'manifest' | 'folder' | 'store' | 'insights' } | { kind: 'userdata' | 'package'; appId: string };

/**
 * The one list of what a backup writes, and so of all that verify and restore accept:
 * `manifest.json`, the folders `data/`, `apps/`, `data/apps/`, `data/db.json`,
 * `data/insights.db`, and trees under `data/apps/<app id>/` and `apps/<app id>/`. Nothing else
 * (an `owner-token`, the catalogue, a path with `..`) is ever taken from an archive.
 *
 * @example entryKind('data/apps/com.example.x/userdata/a.json') // { kind: 'userdata', appId: 'com.example.x' }
 */
export function entryKind(path: string): EntryKind | null {
  if (path === MANIFEST_PATH) return { kind: 'manifest' };
  if (path.startsWith('/') || path.includes('\\') || path.includes('\0')) return null;
  const parts = path.endsWith('/') ? path.slice(0, -1).split('/') : path.split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) return null;
  const [root, second, third] = parts;
  if (root === 'data') {
    if (parts.length === 1) return { kind: 'folder' };
    if (path === STORE_ENTRY) return { kind: 'store' };
    if (path === INSIGHTS_ENTRY) return { kind: 'insights' };
    if (second !== 'apps') return null;
    if (parts.length === 2) return { kind: 'folder' };
    return isAppId(third!) ? { kind: 'userdata', appId: third! } : null;
  }
  if (root === 'apps') {
    if (parts.length === 1) return { kind: 'folder' };
    return isAppId(second!) ? { kind: 'package', appId: second! } : null;
  }
  return null;
}

export const isAppId = (name: string): boolean => name.length <= 128 && APP_ID.test(name);

/** True for an archive path a backup may hold (see entryKind). */
export function isAllowedEntryPath(path: string): boolean {
  return entryKind(path) !== null;
}

/** The error every archive reader throws: names the archive and, when known, the entry. */
export class BackupArchiveError extends Error {
  constructor(
    message: string,
    readonly archive: string,
    readonly reason: 'corrupt' | 'newer-format' | 'not-a-backup',
    readonly entry?: string,
  ) {
    super(message);
    this.name = 'BackupArchiveError';
  }
}
