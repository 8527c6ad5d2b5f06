/**
 * Writes that survive a power cut: write a temp file, fsync it, rename it over the target, fsync
 * the directory. A rename without the fsyncs can leave the file empty or old after a power loss
 * even though the write "succeeded".
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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
