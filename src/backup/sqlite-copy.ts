/**
 * Copies a live SQLite database through SQLite's online backup API: a consistent copy even while
 * the insights manager writes through its own connection (copying the file could catch a
 * half-applied WAL checkpoint).
 */
import Database from 'better-sqlite3';

/**
 * Pages per step. Each step runs synchronously on the event loop, so steps are bounded
 * (4 MiB at 4 KiB pages); a write by another connection between steps restarts the copy, so
 * they are not tiny either.
 */
const PAGES_PER_STEP = 1024;

/** Copies `source` into a new file `dest` (which must not exist). */
export async function copySqliteDatabase(source: string, dest: string): Promise<void> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(dest, { progress: () => PAGES_PER_STEP });
  } finally {
    db.close();
  }
}
