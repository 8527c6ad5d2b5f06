/**
 * How the last restore through the hub went, in `<data-dir>/last-restore.json`: written by the
 * restore between two hubs (into the restored data dir, so the new hub finds it), read by the
 * backup state. A file of its own, not the store: the store is what the restore replaced, and a
 * backup never holds this file (its list of contents is fixed in src/backup/format.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurable } from '../../core/durable-file.js';
import { LastRestore } from './views.js';

export const RESTORE_RECORD_FILE = 'last-restore.json';

export async function writeRestoreRecord(dataDir: string, record: LastRestore): Promise<void> {
  await writeFileDurable(join(dataDir, RESTORE_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
}

/** The record, or null when there is none or it does not parse (it is information, never a reason to fail). */
export async function readRestoreRecord(dataDir: string): Promise<LastRestore | null> {
  try {
    const parsed = LastRestore().safeParse(JSON.parse(await readFile(join(dataDir, RESTORE_RECORD_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
