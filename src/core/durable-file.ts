/**
 * Writes that survive a power cut: write a temp file, fsync it, rename it over the target, fsync
 * the directory. A rename without the fsyncs can leave the file empty or old after a power loss
 * even though the write "succeeded".
 */
import { close, closeSync, fsync, fsyncSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';

export interface DurableWriteOptions {
  /** Mode of the new file; 0600 unless others must read it (e.g. WAVs handed to other programs). */
  readonly mode?: number;
  /** Checked once the data is on disk, before the rename: an aborted write leaves nothing. */
  readonly signal?: AbortSignal;
}

/** Writes `text` to `file` atomically and durably. */
export function writeFileDurable(file: string, text: string | Uint8Array, options: DurableWriteOptions = {}): Promise<void> {
  return replaceDurably(file, options, async (tmp, mode) => {
    const handle = await open(tmp, 'w', mode);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
}

/** The temp file a durable write of `file` goes through (beside it: the rename stays on one file system). */
const tempOf = (file: string): string => join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);

/**
 * The steps every durable write shares: `fill` writes and syncs the temp file (called before
 * this first waits), then the rename over `file` and the directory's fsync; on any failure the
 * temp file is removed and `file` is as it was.
 */
async function replaceDurably(file: string, options: DurableWriteOptions, fill: (tmp: string, mode: number) => Promise<void>): Promise<void> {
  const tmp = tempOf(file);
  try {
    await fill(tmp, options.mode ?? 0o600);
    options.signal?.throwIfAborted();
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await fsyncDir(dirname(file));
}

/** Pieces are gathered up to about this many characters before each write (a few at most per write). */
const PIECES_PER_WRITE_CHARS = 32 * 1024;

/**
 * `writeFileDurable` for a text made piece by piece: `write` runs before this first waits (what
 * it reads may change once this returns) and hands each piece to `put`, which writes them on,
 * a few tens of KiB at a time, so no string or Buffer of the whole text is ever made. The writes
 * are synchronous: they go to the page cache (the fsync that waits for the disk is not), and a
 * piece that lived on across an await would be kept by V8 until a full collection, as the whole
 * text was (json-pieces.ts).
 */
export function writePiecesDurable(file: string, write: (put: (piece: string) => void) => void, options: DurableWriteOptions = {}): Promise<void> {
  return replaceDurably(file, options, async (tmp, mode) => {
    const fd = openSync(tmp, 'w', mode);
    try {
      let gathered = '';
      write((piece) => {
        gathered += piece;
        if (gathered.length >= PIECES_PER_WRITE_CHARS) {
          writeAllSync(fd, gathered);
          gathered = '';
        }
      });
      if (gathered !== '') writeAllSync(fd, gathered);
      await promisify(fsync)(fd);
    } finally {
      await promisify(close)(fd);
    }
  });
}

/** Writes all of `text` at `fd`'s position: a short write (rare for a file) goes on from where it stopped. */
function writeAllSync(fd: number, text: string): void {
  const written = writeSync(fd, text);
  if (written === Buffer.byteLength(text)) return;
  const bytes = Buffer.from(text);
  for (let at = written; at < bytes.length; ) at += writeSync(fd, bytes, at);
}

/**
 * `writeFileDurable`, synchronously: for what must be on disk before code that cannot wait goes
 * on (the store setting a record aside while a section opens, at start).
 */
export function writeFileDurableSync(file: string, text: string | Uint8Array, mode = 0o600): void {
  const tmp = tempOf(file);
  try {
    const fd = openSync(tmp, 'w', mode);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
