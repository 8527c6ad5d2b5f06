/**
 * The store's files as a test reads them: the document as the hub would read it back (db.json and
 * its journals), and a way to make the store's writes fail as on a broken disk.
 */
import { execFile } from 'node:child_process';
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { onTestFinished } from 'vitest';
import { DB_FILE, readStoreDocument, Store } from '../../src/core/store.js';
import { journalName, listJournals } from '../../src/core/store-journal.js';

const run = promisify(execFile);

/** The store's document in `dataDir` as the next start reads it (db.json, then every journal). */
export async function readStoreDoc<T = Record<string, unknown>>(dataDir: string): Promise<T> {
  const { doc } = await readStoreDocument(dataDir);
  if (!doc) throw new Error(`no store in ${dataDir}`);
  return doc as unknown as T;
}

/**
 * Makes the store's writes in `dataDir` fail from now on, as on a full disk, for a store in this
 * process or a hub of pid `pid`: the journal it appends to (the store keeps it open) can grow no
 * more, by a file size limit on the process at its size (`prlimit`: the write fails with EFBIG, as
 * a full disk's fails with ENOSPC); the one it would make next, when it has none, and the temp
 * file a whole write of db.json goes through become directories. Answers the undo.
 */
export async function blockStoreWrites(dataDir: string, pid = process.pid): Promise<() => Promise<void>> {
  const temp = join(dataDir, `.${DB_FILE}.${pid}.tmp`);
  await mkdir(temp);
  const last = (await listJournals(dataDir, DB_FILE)).at(-1);
  const journal = join(dataDir, journalName(DB_FILE, last ?? 1));
  const limit = async (fsize: string) => void (await run('prlimit', ['--pid', String(pid), `--fsize=${fsize}:`]));
  const before = (await run('prlimit', ['--pid', String(pid), '--fsize', '--output=SOFT', '--noheadings'])).stdout.trim();
  if (last !== undefined) await limit(String((await stat(journal)).size));
  else await mkdir(journal);
  let undone: Promise<void> | undefined;
  const undo = () =>
    (undone ??= (async () => {
      if (last !== undefined) await limit(before);
      else await rmdir(journal);
      await rmdir(temp);
    })());
  // The limit is the whole process's: it never outlives the test, whether the test undid it or
  // not (by then a hub's process or the folder may be gone: nothing left to undo).
  onTestFinished(() => undo().catch(() => undefined));
  return undo;
}

/**
 * Store.open for a test: the store is closed when the test ends, as a hub's is (its journal's
 * handle is not left to the garbage collector). A store whose disk the test broke fails to close,
 * and is let go.
 */
export async function openStore(...args: Parameters<typeof Store.open>): Promise<Store> {
  const store = await Store.open(...args);
  onTestFinished(() => store.close().catch(() => undefined));
  return store;
}
