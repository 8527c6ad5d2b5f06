/**
 * Where the store's document is on disk: `db.json`, the whole document as of the last
 * compaction, and the journals of what changed since (store-journal.ts). Reads the document back
 * (db.json, then each journal in order), appends a write's changes, and writes db.json whole
 * again when the journals outgrow it (in the background: writes go on into a new journal) and
 * at a clean stop, so a stopped hub's db.json is the whole home.
 */
import { copyFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurable, writePiecesDurable } from './durable-file.js';
import { jsonPieces } from './json-pieces.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { appendEntry, applyEntry, createJournal, frame, type JournalOp, journalName, listJournals, type OpenJournal, readJournal } from './store-journal.js';
import { piecesDigest, writeTrust } from './store-trust.js';

export const DB_FILE = 'db.json';

export class StoreSectionError extends Error {}

export interface StoreDocument {
  schemaVersion: number;
  [section: string]: unknown;
}

/** The journals' bytes past which db.json is written whole again: the larger of this and db.json. */
const COMPACT_AT = 1024 * 1024;
/** After a compaction fails (a full disk), how long writes go on into the journal before the next try. */
const COMPACT_RETRY_MS = 10_000;

export interface ReadDocument {
  /** The document (db.json with the journals replayed); null when the data dir has neither. */
  readonly doc: StoreDocument | null;
  /** db.json as it was on disk (a migration keeps a copy of it when no journal changed it). */
  readonly baseText: string | null;
  /** Every journal found, replayed or not, oldest first. */
  readonly journals: readonly number[];
  /** Journal bytes not replayed: a write a stop cut off (never acknowledged), or damage. */
  readonly ignored: readonly { readonly file: string; readonly bytes: number }[];
  /** The sections the journals replayed changed (db.json's text does not hold them as they are). */
  readonly touched: ReadonlySet<string>;
}

/**
 * Reads the store's document from `dataDir` without changing anything: db.json, then every
 * journal in order (the restore reads the hub's own data this way, and so do tests).
 */
export async function readStoreDocument(dataDir: string): Promise<ReadDocument> {
  const baseText = await readFile(join(dataDir, DB_FILE), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  let doc = baseText === null ? null : (JSON.parse(baseText) as StoreDocument);
  const journals = await listJournals(dataDir, DB_FILE);
  const ignored: { file: string; bytes: number }[] = [];
  const touched = new Set<string>();
  for (const n of journals) {
    const name = journalName(DB_FILE, n);
    const content = await readJournal(join(dataDir, name));
    if (content.ignored > 0) ignored.push({ file: name, bytes: content.ignored });
    if (content.version === null) continue;
    doc ??= { schemaVersion: content.version };
    const version = typeof doc.schemaVersion === 'number' ? doc.schemaVersion : 0;
    // Older: a migration wrote db.json whole after it, so db.json holds it already.
    if (content.version < version) continue;
    if (content.version > version) {
      throw new Error(
        `${name} in ${dataDir} was written at schema version ${content.version}, after ${DB_FILE}'s ${version}: it is not this hub's; move it away to start`,
      );
    }
    for (const entry of content.entries) {
      applyEntry(doc, entry);
      for (const op of entry) touched.add(op[1]);
    }
  }
  return { doc, baseText, journals, ignored, touched };
}

/** The journal appended to, kept open, with its number. */
type CurrentJournal = OpenJournal & { readonly n: number };

export class StoreFiles {
  /** The journal appended to; null until the first write after a compaction made none. */
  private current: CurrentJournal | null = null;
  /** Journals before the current one that db.json does not hold yet. */
  private older: number[] = [];
  private nextNumber: number;
  private baseBytes = 0;
  private compacting: Promise<void> | null = null;
  private retryAt = 0;
  /** Told when writing db.json whole failed (the journal holds every change meanwhile). */
  onCompactionError: (err: unknown) => void = () => undefined;
  /**
   * This build's id and the sections it vouches for in what it writes whole (store-trust.ts);
   * null: no trust file is written (a build without an id, a migration's first write).
   */
  trust: { readonly build: string; readonly sections: () => readonly string[] } | null = null;
  /** The sections the trust file beside db.json vouches for now. */
  private vouched: ReadonlySet<string> = new Set();

  private constructor(
    readonly dir: string,
    private readonly version: number,
    found: readonly number[],
  ) {
    this.nextNumber = (found.at(-1) ?? 0) + 1;
  }

  /**
   * Takes over `dataDir` with `doc` as read by readStoreDocument (migrated when `found` said
   * so): writes it whole as db.json and removes the journals it holds when there were any, or
   * no db.json, or `whole` (a migration).
   */
  static async start(
    dataDir: string,
    doc: StoreDocument,
    found: ReadDocument,
    whole: boolean,
    trust: StoreFiles['trust'] = null,
    vouched: ReadonlySet<string> = new Set(),
  ): Promise<StoreFiles> {
    const files = new StoreFiles(dataDir, doc.schemaVersion, found.journals);
    files.trust = trust;
    files.vouched = vouched;
    files.older = [...found.journals];
    files.baseBytes = found.baseText?.length ?? 0;
    if (whole || found.doc === null || found.journals.length > 0) await files.writeWhole(doc);
    return files;
  }

  get dbFile(): string {
    return join(this.dir, DB_FILE);
  }

  /** Appends one write's changes (serialised now: what they hold may change once this returns) and makes them durable. */
  async append(ops: readonly JournalOp[]): Promise<void> {
    if (ops.length === 0) return;
    const entry = frame(ops);
    // A compaction slower than the writes (a slow card): they wait for it rather than let the journals grow past twice the bound.
    if (this.compacting && (this.current?.bytes ?? 0) > this.compactAt()) await this.compacting;
    this.current ??= await this.createJournal();
    await appendEntry(this.current, entry);
  }

  /**
   * Starts writing `doc` (the durable state as of the last append) whole as db.json when the
   * journals outgrew it. `doc` is serialised before this returns.
   */
  compactIfDue(doc: StoreDocument): void {
    if (this.current && this.current.bytes > this.compactAt() && !this.compacting && Date.now() >= this.retryAt) {
      // Later writes go to a new journal (made by the next append); db.json is written as of this one.
      this.retire();
      this.compacting = this.writeWhole(doc)
        .catch((err: unknown) => {
          this.retryAt = Date.now() + COMPACT_RETRY_MS;
          this.onCompactionError(err);
        })
        .finally(() => {
          this.compacting = null;
        });
    }
  }

  private compactAt(): number {
    return Math.max(COMPACT_AT, this.baseBytes);
  }

  /** Writes `doc` (durable state) whole as db.json and removes every journal: a clean stop. */
  async close(doc: StoreDocument): Promise<void> {
    await this.compacting;
    this.retire();
    // Also when this run checked sections the trust file does not vouch for (a first start of
    // this build): the next start then trusts them.
    const unvouched = this.trust?.sections().some((name) => !this.vouched.has(name)) ?? false;
    if (this.older.length > 0 || unvouched) await this.writeWhole(doc);
  }

  /** Writes `doc` whole as db.json (serialised before the first await), then removes the journals it holds (those in `older` now). */
  private async writeWhole(doc: StoreDocument): Promise<void> {
    const held = [...this.older];
    const vouched = this.trust && { build: this.trust.build, sections: this.trust.sections() };
    // In pieces, never one string of the whole home (json-pieces.ts); counted and digested as written.
    const digest = piecesDigest();
    let chars = 0;
    await writePiecesDurable(this.dbFile, (put) =>
      jsonPieces(doc, (piece) => {
        digest.add(piece);
        chars += piece.length;
        put(piece);
      }),
    );
    // After db.json: a stop between the two leaves a trust file whose digest is the old db.json's.
    if (vouched) {
      await writeTrust(this.dir, vouched.build, digest.digest(), vouched.sections);
      this.vouched = new Set(vouched.sections);
    }
    this.baseBytes = chars;
    for (const n of held) await rm(join(this.dir, journalName(DB_FILE, n)), { force: true });
    this.older = this.older.filter((n) => !held.includes(n));
  }

  private async createJournal(): Promise<CurrentJournal> {
    const n = this.nextNumber++;
    return { n, ...(await createJournal(join(this.dir, journalName(DB_FILE, n)), this.dir, this.version)) };
  }

  /**
   * The current journal takes no more writes: it waits among the older ones for db.json to hold
   * it. Its handle is closed (no write is under way: the store makes one at a time, and this runs
   * after the last one ended).
   */
  private retire(): void {
    if (!this.current) return;
    this.older.push(this.current.n);
    void this.current.handle.close().catch(() => undefined);
    this.current = null;
  }
}

/**
 * Migrates `doc` in place to the current schema version, first keeping what it was beside the
 * data file (a failed migration must lose nothing). Answers whether it changed anything.
 */
export async function migrate(dataDir: string, doc: StoreDocument, found: ReadDocument): Promise<boolean> {
  const file = join(dataDir, DB_FILE);
  const from = doc.schemaVersion ?? 0;
  if (from > SCHEMA_VERSION) {
    throw new StoreSectionError(`${file} has schema version ${from}, newer than this hub understands (${SCHEMA_VERSION}); upgrade hearth`);
  }
  if (from === SCHEMA_VERSION) return false;
  const copy = `${file}.v${from}.bak`;
  if (found.baseText !== null && found.journals.length === 0) await copyFile(file, copy);
  else if (found.doc !== null) await writeFileDurable(copy, JSON.stringify(doc));
  for (let v = from; v < SCHEMA_VERSION; v++) {
    const step = MIGRATIONS[v];
    if (step) Object.assign(doc, step(doc));
    doc.schemaVersion = v + 1;
  }
  return true;
}
