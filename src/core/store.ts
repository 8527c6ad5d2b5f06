/**
 * The hub's configuration-sized state: one JSON document (`<data-dir>/db.json`) split into
 * sections, one per manager, each checked against its owner's schema when it is opened.
 * Writes are durable and coalesced: an `update` resolves only once a write that includes its
 * change is on disk, so a 2xx answer means the change survives a power cut. A write appends what
 * it changed to a journal beside db.json (a section whole, or only the records a record section
 * changed), so its cost does not grow with the home; db.json is written whole again now and then
 * (store-files.ts, store-journal.ts).
 * Readers only ever see durable state: an update changes the next document, which becomes what
 * `value` and `snapshot()` show once the write holding it is on disk. A mutate function that
 * throws changes nothing; a write that fails (disk full, I/O error) fails every caller whose
 * change it held, and nobody ever read those changes.
 *
 * Every write is checked against its section's schema before it is committed: a change that does
 * not fit fails its caller with a 400 sentence and changes nothing (what a write path let through,
 * a restart would refuse), and against its byte bounds (byte-bounds.ts: every section declares
 * them). At open, a record the schema refuses is set aside (set-aside.ts; store-open.ts).
 */
import { z } from 'zod';
import { type ByteBound, checkRecordBytes, checkSectionBytes, type RecordBound, sizeOf } from './byte-bounds.js';
import { jsonBytes } from './json-pieces.js';
import { SCHEMA_VERSION } from './migrations.js';
import { nullProtoClone, nullRecord, safeRecord } from './null-prototype.js';
import { keepJournalAside, type RecordPaths, type SetAside } from './set-aside.js';
import { DB_FILE, migrate, readStoreDocument, type StoreDocument, StoreFiles, StoreSectionError } from './store-files.js';
import type { JournalOp } from './store-journal.js';
import { checkedWrite, SectionOpener, type SectionSpec } from './store-open.js';
import { trustedSections } from './store-trust.js';

export { DB_FILE, readStoreDocument, type StoreDocument, StoreSectionError };

/** One manager's part of the document. */
export interface Section<T> {
  /** What is on disk (or the initial value before the first write). Never mutate it: use `update`. */
  readonly value: Readonly<T>;
  /**
   * What the section will be once the writes queued are on disk: what a check before a write
   * reads (a name taken, a parent being deleted), so that two requests at once cannot both pass
   * it. Answers read `value`: this may still be lost to a failed write. Never mutate it.
   */
  readonly next: Readonly<T>;
  /**
   * Counts the changes readers have seen: what is derived from `value` is made again when this
   * moves (a record section's map is the same object before and after a change).
   */
  readonly revision: number;
  /** Applies `mutate` to the section and resolves once the result is on disk. */
  update<R>(mutate: (draft: T) => R): Promise<R>;
}

/**
 * A section that is a map of records (devices, their values): a change copies only the records
 * it names, not the whole map, so one device's change costs the same with 1 or 1,000 devices.
 */
export interface RecordSection<V> extends Section<Record<string, V>> {
  /**
   * Applies `mutate` to copies of the records `ids` (those that exist; absent ones are absent
   * from the draft) and resolves once the result is on disk. A record the draft no longer holds
   * is deleted; the draft may hold no other key.
   */
  updateSome<R>(ids: readonly string[], mutate: (draft: Record<string, V>) => R): Promise<R>;
}

/** How a section is opened: its byte bound (every section has one), and where its records are (set-aside.ts). */
export interface SectionOptions {
  readonly bytes: ByteBound;
  readonly records?: RecordPaths;
}

export class Store {
  private writing: Promise<void> | null = null;
  private pending: Promise<void> | null = null;
  private readonly sections = new Map<string, SectionSpec>();
  /** A record section's bytes, for the map object they were counted in (a failed write replaces it: counted again). */
  private readonly totals = new Map<string, { of: object; bytes: number }>();
  /**
   * What changed in `next` since the last write began: a section whole (null), or ids of a
   * record section. The next write journals exactly these (store-journal.ts).
   */
  private changed = new Map<string, Set<string> | null>();
  /** Sections opened with `records`: their maps are changed in place, record by record. */
  private readonly recordSections = new Set<string>();
  /** Each section's `revision`. */
  private readonly revisions = new Map<string, number>();
  /**
   * What readers see: the document as last written. `next` is the next document: it holds changes
   * not yet durable. A section's value is replaced by a changed copy, never mutated; a record
   * section's map is the exception (its records are replaced, never mutated): `next` and
   * `visible` each have their own, changed in place, `visible`'s once the change is on disk.
   */
  private visible: StoreDocument;
  private next: StoreDocument;
  /** Records taken out of their sections when they were opened, with where each is kept. */
  readonly setAside: SetAside[] = [];
  /** Journals found at open with bytes that could not be replayed (a write a power cut cut off, or damage), and where a copy is kept. */
  readonly ignored: readonly { readonly file: string; readonly bytes: number; readonly keptIn: string }[];
  /** Sections opened as this build wrote them, unchecked (store-trust.ts). */
  readonly trustedAtOpen: string[] = [];
  /** Sections the trust file vouched for that their parse did not give back as trusted (only looked for with `verify`): a fault of the shape. */
  readonly mistrusted: string[] = [];
  /** Every section asked for, opened or not. */
  private readonly asked = new Set<string>();
  private readonly opener: SectionOpener;

  private constructor(
    private readonly files: StoreFiles,
    doc: StoreDocument,
    ignored: Store['ignored'],
    /** Sections db.json holds as this build wrote and vouched for them. */
    private readonly trusted: ReadonlySet<string>,
    /** Parse trusted sections all the same, and say so when that differs (the tests' hubs). */
    verify: boolean,
  ) {
    this.next = doc;
    this.visible = { ...doc };
    this.ignored = ignored;
    this.opener = new SectionOpener(files.dir, files.dbFile, trusted, verify, this);
  }

  /** The data file: the whole document as of the last compaction (the journals beside it hold what changed since). */
  get file(): string {
    return this.files.dbFile;
  }

  /** Told when writing the data file whole failed; every change is still in the journal. */
  set onCompactionError(report: (err: unknown) => void) {
    this.files.onCompactionError = report;
  }

  /**
   * Opens (or creates) the store in `dataDir` (db.json and its journals), migrating it to the
   * current schema version. `build`: this build's id, with which the store trusts what the same
   * build wrote and vouches for what it writes (store-trust.ts); without one, every section is
   * checked. `verify`: trusted sections are parsed all the same, a difference noted in `mistrusted`.
   */
  static async open(dataDir: string, options: { build?: string | null; verify?: boolean } = {}): Promise<Store> {
    const found = await readStoreDocument(dataDir);
    const doc = found.doc ?? { schemaVersion: SCHEMA_VERSION };
    const migrated = await migrate(dataDir, doc, found);
    const build = options.build ?? null;
    const trusted = build && !migrated && found.baseText !== null ? await trustedSections(dataDir, build, found.baseText, found.touched) : new Set<string>();
    // Copies first: starting folds the journals into db.json and removes them.
    const ignored = found.ignored.map((i) => ({ ...i, keptIn: keepJournalAside(dataDir, i.file) }));
    let store: Store | null = null;
    const vouched = () => (store ? store.vouched() : [...trusted]);
    const files = await StoreFiles.start(dataDir, doc, found, migrated, build ? { build, sections: vouched } : null, trusted);
    store = new Store(files, doc, ignored, trusted, options.verify === true);
    return store;
  }

  /**
   * The sections the next db.json written whole holds as checked: those opened (checked at open
   * or trusted, and every change checked), and those trusted at open that nobody asked for since.
   */
  private vouched(): string[] {
    return [...this.sections.keys(), ...[...this.trusted].filter((name) => !this.asked.has(name))];
  }

  /** Whether the data file holds section `name` (false before its first write). Ask before opening it. */
  holds(name: string): boolean {
    return Object.hasOwn(this.next, name);
  }

  /**
   * Opens a section, parsing what is on disk with `schema` (anything read from a file is checked
   * before use); a record at one of `records` that the schema refuses is set aside, the section
   * opens with the others. A section absent from the file starts as `initial()`.
   */
  section<S extends z.ZodType>(name: string, schema: S, initial: () => z.output<S>, options: SectionOptions): Section<z.output<S>> {
    if (name === 'schemaVersion') throw new StoreSectionError('reserved section name');
    if (this.sections.has(name)) throw new StoreSectionError(`store section '${name}' is opened twice`);
    const spec: SectionSpec = { schema, initial };
    this.asked.add(name);
    const opened = this.opener.open(name, spec, this.next[name], options.records ?? []);
    this.next[name] = opened;
    this.visible[name] = opened;
    this.sections.set(name, spec);
    // A section with records set aside is written without them at once, so the next start finds
    // nothing to set aside (a failure here is the next write's to report).
    if (this.setAside.some((a) => a.section === name)) {
      this.mark(name);
      this.persist().catch(() => undefined);
    }
    const store = this;
    return {
      get value() {
        return store.visible[name] as z.output<S>;
      },
      get next() {
        return store.next[name] as z.output<S>;
      },
      get revision() {
        return store.revisions.get(name) ?? 0;
      },
      update: async <R>(mutate: (draft: z.output<S>) => R): Promise<R> => {
        // A copy of the next state (so queued changes build on each other) with no prototypes
        // (caller-keyed records stay maps); the schema makes it what is stored once changed.
        const draft = nullProtoClone(this.next[name]) as z.output<S>;
        const result = mutate(draft); // throws: nothing changed
        const next = checkedWrite(name, schema, draft);
        checkSectionBytes(options.bytes, sizeOf(this.next[name]), sizeOf(next));
        this.next[name] = next;
        this.mark(name);
        await this.persist();
        return result;
      },
    };
  }

  /** A section that maps ids to records of `record` (see RecordSection), each and all bounded in bytes. */
  records<S extends z.ZodType>(name: string, record: S, bytes: RecordBound): RecordSection<z.output<S>> {
    const whole = this.section(name, safeRecord(z.string(), record), () => nullRecord(), { bytes, records: [['*']] });
    // Readers' map and the next map are two objects, each changed in place (commit()).
    this.recordSections.add(name);
    this.visible[name] = Object.assign(nullRecord(), this.next[name]);
    return {
      get value() {
        return whole.value;
      },
      get next() {
        return whole.next;
      },
      get revision() {
        return whole.revision;
      },
      update: whole.update,
      updateSome: async <R>(ids: readonly string[], mutate: (draft: Record<string, z.output<S>>) => R): Promise<R> => {
        const current = this.next[name] as Record<string, z.output<S>>;
        const draft = nullRecord<z.output<S>>();
        for (const id of ids) {
          if (Object.hasOwn(current, id)) draft[id] = nullProtoClone(current[id]) as z.output<S>;
        }
        const result = mutate(draft); // throws: nothing changed
        const extra = Object.keys(draft).filter((k) => !ids.includes(k));
        if (extra.length > 0) throw new StoreSectionError(`an update of '${name}' named ${ids.join(', ')} but changed ${extra.join(', ')}`);
        // Every record checked before any is changed: a refusal changes nothing.
        const stored = nullRecord<z.output<S>>();
        const before = this.recordBytes(name, current);
        let after = before;
        for (const id of ids) {
          if (Object.hasOwn(current, id)) after -= sizeOf(current[id]) + id.length;
          if (Object.hasOwn(draft, id)) {
            stored[id] = checkedWrite(`${name}' record '${id}`, record, draft[id]) as z.output<S>;
            checkRecordBytes(bytes, sizeOf(stored[id]));
            after += sizeOf(stored[id]) + id.length;
          }
        }
        checkSectionBytes(bytes, before, after);
        // The next map is changed in place (what readers see is another map, changed once this
        // is on disk): a change costs the records it names, not a copy of the map.
        for (const id of ids) {
          if (Object.hasOwn(stored, id)) current[id] = stored[id]!;
          else delete current[id];
        }
        this.totals.set(name, { of: current, bytes: after });
        this.mark(name, ids);
        await this.persist();
        return result;
      },
    };
  }

  /** Bytes of a record section's records (their ids counted too), counted again only when `map` is not the one last counted. */
  private recordBytes(name: string, map: Record<string, unknown>): number {
    const known = this.totals.get(name);
    if (known?.of === map) return known.bytes;
    let bytes = 0;
    for (const [id, r] of Object.entries(map)) bytes += sizeOf(r) + id.length;
    this.totals.set(name, { of: map, bytes });
    return bytes;
  }

  /**
   * A consistent copy of the whole document as JSON bytes, taken in memory (backups): made in
   * pieces (json-pieces.ts), never one string of the whole home, which went to V8's large-object
   * space and stayed there until the next full collection with the backup's other copies of it.
   */
  snapshot(): Buffer {
    return jsonBytes(this.visible);
  }

  /**
   * Resolves when a write that started after this call is on disk. While a write runs, all
   * callers share the next one, so a burst of N updates costs at most two fsyncs, not N. A
   * write that fails rejects for its callers and for those queued behind it, and the next
   * document goes back to what readers see (the disk).
   */
  persist(): Promise<void> {
    if (this.pending) return this.pending;
    if (!this.writing) return this.startWrite();
    const pending: Promise<void> = this.writing.then(
      () => {
        if (this.pending === pending) this.pending = null;
        return this.persist();
      },
      (err: unknown) => {
        if (this.pending === pending) this.pending = null;
        throw err;
      },
    );
    this.pending = pending;
    return pending;
  }

  private startWrite(): Promise<void> {
    const ops = journalOps(this.next, this.changed, this.recordSections);
    this.changed = new Map();
    const write: Promise<void> = this.files.append(ops).then(
      () => {
        this.commit(ops);
        this.writing = null;
        this.files.compactIfDue(this.visible);
      },
      (err: unknown) => {
        // The next document goes back to the disk: this write's changes and those of the
        // callers queued behind it, who get this error through `pending`. Nobody read them.
        this.revert(ops);
        this.writing = null;
        this.pending = null;
        throw err;
      },
    );
    this.writing = write;
    return write;
  }

  /** What readers see becomes what `ops` wrote. */
  private commit(ops: readonly JournalOp[]): void {
    for (const op of ops) {
      this.revisions.set(op[1], (this.revisions.get(op[1]) ?? 0) + 1);
      if (op[0] === 'S') {
        this.visible[op[1]] = op[2];
        continue;
      }
      const map = this.visible[op[1]] as Record<string, unknown>;
      if (op[0] === 'R') map[op[2]] = op[3];
      else delete map[op[2]];
    }
  }

  /** The next document goes back to what readers see, for what `ops` and the changes queued since touched. */
  private revert(ops: readonly JournalOp[]): void {
    const touched = new Map(this.changed);
    for (const op of ops) {
      if (op[0] === 'S') touched.set(op[1], null);
      else if (touched.get(op[1]) !== null) touched.set(op[1], new Set([...(touched.get(op[1]) ?? []), op[2]]));
    }
    this.changed = new Map();
    for (const [name, ids] of touched) {
      const seen = this.visible[name];
      if (!this.recordSections.has(name)) this.next[name] = seen;
      else if (!ids) this.next[name] = Object.assign(nullRecord(), seen);
      else {
        const map = this.next[name] as Record<string, unknown>;
        const shown = seen as Record<string, unknown>;
        for (const id of ids) {
          if (Object.hasOwn(shown, id)) map[id] = shown[id];
          else delete map[id];
        }
      }
      this.totals.delete(name);
    }
  }

  /** Waits for every write in flight. */
  async flush(): Promise<void> {
    while (this.writing || this.pending) await (this.pending ?? this.writing)?.catch(() => undefined);
  }

  /** Waits for every write, then writes the data file whole and removes the journals (a clean stop). */
  async close(): Promise<void> {
    await this.flush();
    await this.files.close(this.visible);
  }

  /** Notes that a section changed whole, or records `ids` of it: what the next write journals. */
  private mark(name: string, ids?: readonly string[]): void {
    const known = this.changed.get(name);
    if (known === null) return;
    if (!ids) this.changed.set(name, null);
    else if (known) for (const id of ids) known.add(id);
    else this.changed.set(name, new Set(ids));
  }
}

/**
 * What `changed` names of `doc`, as journal entries. A record section changed whole is copied
 * (its next map goes on changing in place); records and other sections are never mutated.
 */
function journalOps(doc: StoreDocument, changed: ReadonlyMap<string, ReadonlySet<string> | null>, recordSections: ReadonlySet<string>): JournalOp[] {
  const ops: JournalOp[] = [];
  for (const [name, ids] of changed) {
    if (!ids) {
      ops.push(['S', name, recordSections.has(name) ? Object.assign(nullRecord(), doc[name]) : doc[name]]);
      continue;
    }
    const section = doc[name] as Record<string, unknown>;
    for (const id of ids) ops.push(Object.hasOwn(section, id) ? ['R', name, id, section[id]] : ['D', name, id]);
  }
  return ops;
}
