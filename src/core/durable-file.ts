/**
 * A lowdb adapter whose writes survive a power cut: write a temp file, fsync it, rename it over
 * the target, fsync the directory. lowdb's own TextFile writer renames without fsync, so after a
 * power loss the file can be empty or old even though the write "succeeded".
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

export interface DurableWriteOptions {
  /** Mode of the new file; 0600 unless others must read it (e.g. WAVs handed to other programs). */
  readonly mode?: number;
  /** Checked once the data is on disk, before the rename: an aborted write leaves nothing. */
  readonly signal?: AbortSignal;
}

/** Writes `text` to `file` atomically and durably. */
export async function writeFileDurable(file: string, text: string | Uint8Array, options: DurableWriteOptions = {}): Promise<void> {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    const handle = await open(tmp, 'w', options.mode ?? 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    options.signal?.throwIfAborted();
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await fsyncDir(dirname(file));
}

/**
 * `writeFileDurable`, synchronously: for what must be on disk before code that cannot wait goes
 * on (the store setting a record aside while a section opens, at start).
 */
export function writeFileDurableSync(file: string, text: string | Uint8Array, mode = 0o600): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
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

/**
 * JSON document adapter for lowdb with durable writes; `read` returns null when absent.
 * `persisted` is the text on disk as of the last read or successful write, so a caller whose
 * write failed can go back to what the disk holds.
 */
export class DurableJSONFile<T> implements Adapter<T> {
  persisted: string | null = null;

  constructor(readonly file: string) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const data = JSON.parse(text) as T;
    this.persisted = text;
    return data;
  }

  async write(data: T): Promise<void> {
    const text = JSON.stringify(data);
    await writeFileDurable(this.file, text);
    this.persisted = text;
  }
}
