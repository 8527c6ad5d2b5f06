/**
 * The hub's id: what Homey's clients know a Homey by (`X-Homey-ID` on the ping, `homeyId` in the
 * realtime handshake, `homey.cloud.getHomeyId()` in an app). 24 hex digits, as Homey's ids are;
 * made at the first start and kept in `<data-dir>/hub-id`, so it is the same across restarts and
 * upgrades. It is the device's, not the home's: a backup does not carry it.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurable } from './durable-file.js';

export const HUB_ID_FILE = 'hub-id';
const HUB_ID = /^[0-9a-f]{24}$/;

/** The id in the data dir, made (and written) when there is none or it is not one. */
export async function loadHubId(dataDir: string): Promise<string> {
  const file = join(dataDir, HUB_ID_FILE);
  const kept = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (HUB_ID.test(kept)) return kept;
  const id = randomBytes(12).toString('hex');
  await writeFileDurable(file, `${id}\n`);
  return id;
}
