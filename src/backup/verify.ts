/**
 * Reads a backup archive end to end through tar v7's parser, hashing every entry, and holds the
 * result against the archive's manifest. Used after writing (read-back), by restore before it
 * touches anything, and by the CLI. Every failure is a BackupArchiveError naming the archive
 * and, where the damage can be placed, the entry.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { Parser, type ReadEntry } from 'tar';
import {
  BackupArchiveError,
  entryKind,
  FORMAT_VERSION,
  isAllowedEntryPath,
  MANIFEST_PATH,
  type Manifest,
  type ManifestFile,
  manifestSchema,
  manifestVersionSchema,
} from './format.js';

const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;
const SLICE = 16 * 1024;
const TRAILER = 8;

export interface VerifiedArchive {
  readonly manifest: Manifest;
  /** sha256 and size of the .tar.gz file itself (what getState lists). */
  readonly sha256: string;
  readonly size: number;
}

interface Scan {
  files: Map<string, ManifestFile>;
  manifestText: string | null;
  /** Entry being read when a failure happened, or the last one finished. */
  current: string | null;
  last: string | null;
}

/** tar and zlib errors in words a person reading a log understands. */
function describe(err: unknown): string {
  const e = err as { code?: string; tarCode?: string; message?: string };
  const msg = e.message ?? String(err);
  if (e.code === 'TAR_ENTRY_INVALID' || e.tarCode === 'TAR_ENTRY_INVALID') return `an entry header is unreadable (${msg.replace(/^TAR_ENTRY_INVALID: /, '')})`;
  if (e.code === 'TAR_BAD_ARCHIVE' || e.tarCode === 'TAR_BAD_ARCHIVE')
    return `it ends early or is not a tar archive (${msg.replace(/^TAR_BAD_ARCHIVE: /, '')})`;
  if (e.code?.startsWith('Z_') || e.tarCode === 'TAR_ABORT') return `the compressed data is corrupt (zlib: ${msg.replace(/^zlib: /, '')})`;
  return msg;
}

/**
 * Verifies every checksum of `file` against its manifest; resolves with the manifest, or
 * rejects with a BackupArchiveError naming the bad file. Refuses archives of a newer format.
 *
 * @example await verifyArchive('/data/backups/hearth-backup-2026-11-21T03-30-00-000Z.tar.gz')
 */
export async function verifyArchive(file: string): Promise<VerifiedArchive> {
  const name = basename(file);
  const scan: Scan = { files: new Map(), manifestText: null, current: null, last: null };
  const whole = createHash('sha256');
  let size = 0;
  let parseError: Error | null = null;

  const parser = new Parser({
    strict: true,
    // Our archives hold SQLite files with runs of empty pages; the sizes are checked anyway.
    maxDecompressionRatio: Infinity,
    onReadEntry: (entry: ReadEntry) => readEntry(entry, scan, (err) => (parseError ??= err)),
  });
  parser.on('error', (err: Error) => {
    parseError ??= err;
  });
  const ended = once(parser, 'end');
  ended.catch(() => undefined); // a parser error is reported through parseError instead

  try {
    await new Promise<void>((resolve, reject) => {
      // The parser gunzips itself (minizlib, synchronously): every decompressed byte reaches it
      // before a bad trailer CRC is reported, so the damaged file can still be named. Node's
      // own zlib stream drops its buffered output when it errors.
      const input = createReadStream(file, { highWaterMark: 256 * 1024 });
      const fail = (err: unknown): void => {
        input.destroy();
        reject(err);
      };
      input.on('error', fail);
      parser.on('error', fail);
      // Held back so the gzip trailer (CRC, length) arrives in a write of its own: minizlib
      // drops the output of a write that fails, which would otherwise be the manifest.
      let held: Buffer = Buffer.alloc(0);
      const feed = (buf: Buffer): boolean => {
        let ok = true;
        // Small writes: a failure loses at most one slice of output, so it is placed precisely.
        for (let at = 0; at < buf.length && !parseError; at += SLICE) ok = parser.write(buf.subarray(at, at + SLICE));
        return ok;
      };
      input.on('data', (chunk) => {
        const buf = chunk as Buffer;
        whole.update(buf);
        size += buf.length;
        const all = held.length ? Buffer.concat([held, buf]) : buf;
        held = all.subarray(Math.max(0, all.length - TRAILER));
        if (!feed(all.subarray(0, all.length - held.length))) {
          input.pause();
          parser.once('drain', () => input.resume());
        }
        if (parseError) fail(parseError);
      });
      input.on('end', () => {
        feed(held);
        parser.end();
      });
      ended.then(() => (parseError ? fail(parseError) : resolve()), fail);
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new BackupArchiveError(`backup archive ${file} does not exist`, file, 'not-a-backup');
    }
    if (err instanceof UnexpectedEntry) {
      throw new BackupArchiveError(`backup archive ${name} holds an ${err.message}; it cannot be restored`, file, 'not-a-backup', err.path);
    }
    // The gzip trailer CRC fails only after the last entry: if the manifest arrived, a content
    // mismatch names the damaged file more precisely than "corrupt compressed data".
    if (scan.manifestText !== null) checkAgainstManifest(file, scan);
    const where = scan.current ? `inside '${scan.current}'` : scan.last ? `after '${scan.last}'` : 'at its start';
    throw new BackupArchiveError(
      `backup archive ${name} is damaged ${where}: ${describe(err)}; it cannot be restored, use another backup`,
      file,
      'corrupt',
      scan.current ?? scan.last ?? undefined,
    );
  }
  const manifest = checkAgainstManifest(file, scan);
  return { manifest, sha256: whole.digest('hex'), size };
}

/** An entry no backup writes: reported as such, even when the manifest arrived later. */
class UnexpectedEntry extends Error {
  constructor(
    readonly path: string,
    type: string,
  ) {
    super(`unexpected entry '${path}' of type ${type}: not something a hearth backup writes`);
  }
}

function readEntry(entry: ReadEntry, scan: Scan, fail: (err: Error) => void): void {
  const path = entry.path;
  if (!isAllowedEntryPath(path) || (entry.type !== 'File' && entry.type !== 'Directory')) {
    fail(new UnexpectedEntry(path, entry.type));
    entry.resume();
    return;
  }
  if (entry.type === 'Directory') {
    entry.resume();
    return;
  }
  if (scan.files.has(path) || (path === MANIFEST_PATH && scan.manifestText !== null)) {
    fail(new Error(`entry '${path}' appears twice`));
  }
  scan.current = path;
  const hash = createHash('sha256');
  const manifestChunks: Buffer[] = [];
  let bytes = 0;
  entry.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (path === MANIFEST_PATH) {
      if (bytes > MAX_MANIFEST_BYTES) fail(new Error('manifest.json is implausibly large'));
      else manifestChunks.push(chunk);
    } else {
      hash.update(chunk);
    }
  });
  entry.on('end', () => {
    if (path === MANIFEST_PATH) scan.manifestText = Buffer.concat(manifestChunks).toString('utf8');
    else scan.files.set(path, { size: bytes, sha256: hash.digest('hex') });
    scan.last = path;
    scan.current = null;
  });
}

function checkAgainstManifest(file: string, scan: Scan): Manifest {
  const name = basename(file);
  if (scan.manifestText === null) {
    throw new BackupArchiveError(`backup archive ${name} has no manifest.json: it is truncated or not a hearth backup`, file, 'not-a-backup');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(scan.manifestText);
  } catch {
    throw new BackupArchiveError(`backup archive ${name} is damaged: manifest.json is not valid JSON`, file, 'corrupt', MANIFEST_PATH);
  }
  const version = manifestVersionSchema().safeParse(raw);
  if (version.success && version.data.formatVersion > FORMAT_VERSION) {
    throw new BackupArchiveError(
      `backup archive ${name} was made by a newer hearth (format ${version.data.formatVersion}; this hearth reads up to ${FORMAT_VERSION}); upgrade hearth to restore it`,
      file,
      'newer-format',
    );
  }
  const parsed = manifestSchema().safeParse(raw);
  if (!parsed.success) {
    throw new BackupArchiveError(
      `backup archive ${name} is damaged: manifest.json does not match the manifest schema (${parsed.error.issues[0]?.message ?? 'invalid'})`,
      file,
      'corrupt',
      MANIFEST_PATH,
    );
  }
  const manifest = parsed.data;
  for (const [path, expected] of Object.entries(manifest.files)) {
    const actual = scan.files.get(path);
    if (!actual) {
      throw new BackupArchiveError(`backup archive ${name} is damaged: '${path}' is listed in the manifest but missing`, file, 'corrupt', path);
    }
    if (actual.size !== expected.size || actual.sha256 !== expected.sha256) {
      throw new BackupArchiveError(
        `backup archive ${name} is damaged: checksum mismatch for '${path}' (expected ${expected.size} bytes sha256 ${expected.sha256.slice(0, 12)}…, found ${actual.size} bytes sha256 ${actual.sha256.slice(0, 12)}…)`,
        file,
        'corrupt',
        path,
      );
    }
  }
  const shared = manifest.contents.layout === 'shared';
  for (const path of Object.keys(manifest.files)) {
    const kind = entryKind(path);
    const listed =
      kind?.kind === 'package'
        ? manifest.contents.apps.includes(kind.appId)
        : kind?.kind === 'userdata'
          ? manifest.contents.userdata.includes(kind.appId) || (shared && manifest.contents.apps.includes(kind.appId))
          : kind !== null && kind.kind !== 'folder';
    if (!listed) {
      throw new BackupArchiveError(`backup archive ${name} holds '${path}', which is not something a backup of its contents writes`, file, 'corrupt', path);
    }
  }
  for (const { path } of manifest.inconsistent) {
    if (!(path in manifest.files)) {
      throw new BackupArchiveError(`backup archive ${name} is damaged: '${path}' is listed as inconsistent but not as a file`, file, 'corrupt', MANIFEST_PATH);
    }
  }
  for (const path of scan.files.keys()) {
    if (!(path in manifest.files)) {
      throw new BackupArchiveError(`backup archive ${name} holds '${path}', which its manifest does not list`, file, 'corrupt', path);
    }
  }
  return manifest;
}
