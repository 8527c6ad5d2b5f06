/**
 * Narrows a restore's staged data dir to what the caller's rights may bring in
 * (restore-rights.ts): the parts left out are removed from the stage, so the swap carries the
 * hub's own across, and db.json is composed from the backup's and the hub's current one.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurable } from '../core/durable-file.js';
import { DB_FILE, readStoreDocument, type StoreDocument } from '../core/store.js';
import { type FilePlan, INSIGHTS_FILE_NAMES } from './restore-journal.js';
import { composeStore, planFiles, type RestoreRights } from './restore-rights.js';

/** A data dir's db.json as JSON, or null when there is none. */
async function readStore(file: string): Promise<StoreDocument | null> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  return text === null ? null : (JSON.parse(text) as StoreDocument);
}

/**
 * Narrows the staged data dir to what `rights` may bring in (restore-rights.ts): parts left out
 * are removed from the stage (the swap then carries the hub's own across), and db.json is
 * composed from both. Runs after the stage was checked against the manifest.
 */
export async function narrowStage(stage: string, dataDir: string, rights: RestoreRights): Promise<{ plan: FilePlan; leftOut: string[]; tokensAdded: number }> {
  const plan = planFiles(rights);
  const leftOut = [...plan.leftOut];
  if (!plan.apps) {
    await rm(join(stage, 'data', 'apps'), { recursive: true, force: true });
    await rm(join(stage, 'apps'), { recursive: true, force: true });
  }
  if (!plan.insights) for (const f of INSIGHTS_FILE_NAMES) await rm(join(stage, 'data', f), { force: true });
  let current: StoreDocument | null;
  try {
    // The hub's own document as it stands: db.json and the journal of what changed since.
    current = (await readStoreDocument(dataDir)).doc;
  } catch (err) {
    if (!rights.grants.includes('*'))
      throw new Error(
        `the hub's own ${DB_FILE} cannot be read (${(err as Error).message}), so its tokens and settings could not be kept: only the owner may restore over it; nothing was changed`,
      );
    current = null;
    leftOut.push(`the hub's own tokens could not be kept: its ${DB_FILE} could not be read`);
  }
  const backup = (await readStore(join(stage, 'data', DB_FILE))) ?? { schemaVersion: current?.schemaVersion ?? 1 };
  const composed = composeStore(backup, current, rights);
  await writeFileDurable(join(stage, 'data', DB_FILE), `${JSON.stringify(composed.doc, null, 2)}\n`, { mode: 0o600 });
  return { plan, leftOut: [...leftOut, ...composed.leftOut], tokensAdded: composed.tokensAdded };
}
