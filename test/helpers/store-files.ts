/**
 * The store's files as a test reads them: the document as the hub would read it back (db.json and
 * its journals), and a way to make the store's writes fail as on a broken disk.
 */
import { mkdir, rename, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DB_FILE, readStoreDocument } from '../../src/core/store.js';
import { journalName, listJournals } from '../../src/core/store-journal.js';

/** The store's document in `dataDir` as the next start reads it (db.json, then every journal). */
export async function readStoreDoc<T = Record<string, unknown>>(dataDir: string): Promise<T> {
  const { doc } = await readStoreDocument(dataDir);
  if (!doc) throw new Error(`no store in ${dataDir}`);
  return doc as unknown as T;
}

/**
 * Makes the store's writes in `dataDir` fail from now on, as on a full or broken disk: the
 * journal it appends to (or the one it would make next) becomes a directory, and so does the
 * temp file a whole write of db.json goes through (for a store in this process, or a hub of
 * pid `pid`). Answers the undo, which puts the journal back as it was.
 */
export async function blockStoreWrites(dataDir: string, pid = process.pid): Promise<() => Promise<void>> {
  const temp = join(dataDir, `.${DB_FILE}.${pid}.tmp`);
  await mkdir(temp);
  const last = (await listJournals(dataDir, DB_FILE)).at(-1);
  const journal = join(dataDir, journalName(DB_FILE, last ?? 1));
  if (last !== undefined) await rename(journal, `${journal}.held`);
  await mkdir(journal);
  return async () => {
    await rmdir(journal);
    if (last !== undefined) await rename(`${journal}.held`, journal);
    await rmdir(temp);
  };
}
