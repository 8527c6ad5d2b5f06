/**
 * Which sections of db.json need no checking at the next start: those this build of the hub
 * wrote, that it had checked (every section it opened was parsed at open and every change to it
 * was checked before it was written), in a db.json nobody changed since. Written beside db.json
 * (`db.json.trust`) each time db.json is written whole: this build's id, the digest of the text
 * written, and the sections it vouches for. At open, a section is trusted only when the build is
 * this one, db.json's bytes have that digest, and no journal changed the section after it:
 * anything else (another build, whose schemas may differ; db.json edited by hand or damaged; a
 * change still in a journal) is checked as before. The file itself is only ever a reason to skip
 * a check of what this hub wrote: one that is missing, stale or unreadable costs a check, never
 * data. Checking a big home's sections (1,000 devices, 400 flows) was most of its extra start.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurable } from './durable-file.js';

export const TRUST_FILE = 'db.json.trust';

interface TrustRecord {
  build: string;
  digest: string;
  sections: string[];
}

/** The digest of a whole text (db.json as read): the same as piecesDigest's of its pieces. */
const digestOf = (text: string): string => {
  const d = piecesDigest();
  d.add(text);
  return d.digest();
};

/**
 * The sections the trust file vouches for in `baseText` (db.json as read), for `build`, less
 * those `touched` (changed by a journal since). Empty when any of it does not hold.
 */
export async function trustedSections(dataDir: string, build: string, baseText: string, touched: ReadonlySet<string>): Promise<Set<string>> {
  let record: TrustRecord;
  try {
    record = JSON.parse(await readFile(join(dataDir, TRUST_FILE), 'utf8')) as TrustRecord;
  } catch {
    return new Set();
  }
  if (record?.build !== build || record.digest !== digestOf(baseText) || !Array.isArray(record.sections)) return new Set();
  return new Set(record.sections.filter((s) => typeof s === 'string' && !touched.has(s)));
}

/** The digest a trust file holds, of a text handed over piece by piece (db.json as it is written). */
export function piecesDigest(): { add(piece: string): void; digest(): string } {
  const h = createHash('sha256');
  return { add: (piece) => h.update(piece, 'utf8'), digest: () => h.digest('hex') };
}

/** Vouches for `sections` of the db.json `build` just wrote whole, whose text has `digest` (piecesDigest). */
export async function writeTrust(dataDir: string, build: string, digest: string, sections: readonly string[]): Promise<void> {
  const record: TrustRecord = { build, digest, sections: [...sections].sort() };
  await writeFileDurable(join(dataDir, TRUST_FILE), JSON.stringify(record));
}
