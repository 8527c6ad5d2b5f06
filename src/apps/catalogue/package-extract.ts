/**
 * Unpacking an app package into a staging folder: only files and folders, modes masked, owners
 * never kept, and bounded while it extracts (bytes, files, depth), so a package cannot take more
 * of the disk than a package may. The hub writes the files itself (tar only parses), so when
 * `extract` settles nothing is still being written and the caller can remove the folder at once.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type * as Tar from 'tar';
import { HearthError } from '../../core/errors.js';
import { makeDirs } from '../../core/files.js';

/**
 * What one package may unpack to. Counted on the decompressed stream as it is read, so a tar
 * bomb (a 464 KB package had unpacked to 257 MB) is stopped at the limit, not after.
 */
export const PACKAGE_LIMITS = { bytes: 256 * 1024 * 1024, files: 20_000, depth: 32 } as const;

const badGateway = (what: string): HearthError => new HearthError('bad_gateway', what);
const noRoom = (what: string): HearthError => new HearthError('insufficient_storage', what);

/** A full disk (or quota) as the answer a person can act on; anything else unchanged. */
export function orNoRoom(err: unknown, doing: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return noRoom(`the disk is full ${doing}; free some space and try again`);
  return err;
}

/**
 * Writes `source` into the file `dest` (0600), refusing it as it comes once it passes `maxBytes`
 * (with `tooLarge`'s error) and a full disk as 507 (saying it happened `doing`); `onChunk` sees
 * each chunk (a hash). What every download and upload of an app (catalogue, repository, file) is
 * written with. Resolves with the bytes written; another error is the stream's own.
 */
export async function saveBounded(
  source: Readable,
  dest: string,
  limit: { maxBytes: number; tooLarge: () => HearthError; doing: string },
  onChunk: (chunk: Buffer) => void = () => undefined,
): Promise<number> {
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > limit.maxBytes) return done(limit.tooLarge());
      onChunk(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(dest, { mode: 0o600 }));
  } catch (err) {
    throw orNoRoom(err, limit.doing);
  }
  return size;
}

/** Entry paths a package may not contain: absolute, `..`, or anything but files and folders. */
function refusal(path: string, type: string): string | null {
  if (type !== 'File' && type !== 'Directory') return `entry '${path}' is a ${type}; only files and folders are allowed`;
  if (isAbsolute(path) || /^[a-zA-Z]:/.test(path)) return `entry '${path}' has an absolute path`;
  const parts = path.split(/[\\/]/);
  if (parts.includes('..')) return `entry '${path}' climbs out of the package ('..')`;
  if (parts.filter((p) => p !== '').length > PACKAGE_LIMITS.depth) return `entry '${path}' is nested deeper than ${PACKAGE_LIMITS.depth} folders`;
  return null;
}

/**
 * Extracts a tar.gz into `dest` (which must exist and be empty). Any entry that is not a plain
 * file or folder, or whose path leaves the package, refuses the whole package (502). Past
 * `limits` in decompressed bytes or files the extraction stops at once (507): the bytes are
 * counted as they are decompressed, before tar sees them, so nothing past the limit is written.
 * Files are written by this function itself (tar only parses), so when it returns or throws no
 * write is still in flight and the caller can remove `dest` at once.
 */
export async function extract(file: string, dest: string, limits: { bytes: number; files: number } = PACKAGE_LIMITS): Promise<void> {
  // Loaded at the first install, not with the hub: tar is 1.5 MiB of heap (docs/performance.md).
  const tar = await import('tar');
  let refused: HearthError | null = null;
  let files = 0;
  const writes: Promise<void>[] = [];
  const open = new Set<Tar.ReadEntry>();
  let wake = (): void => undefined;
  const stopped = new Promise<void>((r) => (wake = r));
  const refuse = (err: HearthError): void => {
    refused ??= err;
    // With an error: a Minipass stream destroyed without one never tells pipeline() it ended.
    for (const entry of open) entry.destroy(refused);
    wake(); // a reader waiting for the parser to drain gives up
  };
  const parser = new tar.Parser({
    strict: true,
    onReadEntry: (entry) => {
      const problem = refused ? null : refusal(entry.path, entry.type);
      if (problem) refuse(badGateway(`the app package was refused: ${problem}`));
      else if (!refused && entry.type === 'File' && ++files > limits.files) {
        refuse(noRoom(`the app package holds more than ${limits.files} files, the most a package may`));
      }
      if (refused) return void entry.resume();
      const target = join(dest, entry.path);
      if (entry.type === 'Directory') {
        writes.push(makeDirs(target, 0o755).then(() => undefined));
        return void entry.resume();
      }
      // No setuid/setgid/sticky bits, nothing writable by others, whatever the archive says.
      const mode = (entry.mode ?? 0o644) & 0o755;
      open.add(entry);
      writes.push(
        (async () => {
          await makeDirs(dirname(target), 0o755);
          // 'wx': an entry listed twice, or a path through a file, is refused, never overwritten.
          await pipeline(entry, createWriteStream(target, { flags: 'wx', mode }));
        })()
          .catch((err: unknown) => refuse(asRefusal(err)))
          .finally(() => open.delete(entry)),
      );
    },
  });
  const parsed = new Promise<void>((resolveDone, reject) => {
    parser.on('end', resolveDone);
    parser.on('error', reject);
  });
  parsed.catch((err: unknown) => refuse(asRefusal(err)));
  let unpacked = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      unpacked += chunk.length;
      if (unpacked > limits.bytes) {
        const err = noRoom(`the app package unpacks to more than ${limits.bytes / 1024 / 1024} MiB, the most a package may`);
        refuse(err);
        return done(err);
      }
      done(null, chunk);
    },
  });
  const drained = (): Promise<unknown> => Promise.race([new Promise((r) => parser.once('drain', r)), parsed.catch(() => undefined), stopped]);
  try {
    await pipeline(createReadStream(file), createGunzip(), meter, async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        if (refused) return; // stops reading: pipeline closes the file and the gunzip stream
        if (!parser.write(chunk)) await drained();
      }
    });
    if (!refused) {
      parser.end();
      await parsed;
    }
  } catch (err) {
    refuse(asRefusal(err));
  }
  if (refused) {
    parser.abort(refused);
    for (const entry of open) entry.destroy(refused);
  }
  await Promise.allSettled(writes);
  if (refused) throw refused;
}

/** What an extraction failure tells the person: our own refusal, a full disk, or a bad package. */
function asRefusal(err: unknown): HearthError {
  if (err instanceof HearthError) return err;
  const full = orNoRoom(err, 'while the app package was unpacked');
  return full instanceof HearthError ? full : badGateway(`the app package is not a valid tar.gz: ${(err as Error).message}`);
}
