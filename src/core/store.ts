/**
 * The hub's configuration-sized state: one lowdb JSON document (`<data-dir>/db.json`) split into
 * sections, one per manager, each checked against its owner's schema when it is opened.
 * Writes are durable (see durable-file.ts) and coalesced: an `update` resolves only once a write
 * that includes its change is on disk, so a 2xx answer means the change survives a power cut.
 * Readers only ever see durable state: an update changes a copy of its section, which becomes
 * what `value` and `snapshot()` show once the write holding it is on disk. A mutate function
 * that throws changes nothing; a write that fails (disk full, I/O error) fails every caller
 * whose change it held, and nobody ever read those changes.
 *
 * Every write is checked against its section's schema before it is committed: a change that does
 * not fit fails its caller with a 400 sentence and changes nothing (what a write path let through,
 * a restart would refuse), and against its byte bounds (byte-bounds.ts: every section declares
 * them). At open, a record the schema refuses is set aside (set-aside.ts).
 */
import { copyFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Low } from 'lowdb';
import { z } from 'zod';
import { type ByteBound, checkRecordBytes, checkSectionBytes, type RecordBound, sizeOf } from './byte-bounds.js';
import { DurableJSONFile } from './durable-file.js';
import { invalid } from './errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { nullProtoClone, nullRecord, safeRecord } from './records.js';
import { keepSetAside, parseSettingAside, type RecordPaths, type SetAside } from './set-aside.js';
import { describeIssues } from './zod-issues.js';

export const DB_FILE = 'db.json';

export interface StoreDocument {
  schemaVersion: number;
  [section: string]: unknown;
}

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

export class StoreSectionError extends Error {}

/** How a section is opened: its byte bound (every section has one), and where its records are (set-aside.ts). */
export interface SectionOptions {
  readonly bytes: ByteBound;
  readonly records?: RecordPaths;
}

/** How an open section is read from a document: again after a failed write. */
interface SectionSpec {
  readonly schema: z.ZodType;
  readonly initial: () => unknown;
}

export class Store {
  private writing: Promise<void> | null = null;
  private pending: Promise<void> | null = null;
  private readonly sections = new Map<string, SectionSpec>();
  /** A record section's bytes, for the map object they were counted in (a failed write replaces it: counted again). */
  private readonly totals = new Map<string, { of: object; bytes: number }>();
  /**
   * What readers see: the document as last written (sections as at the start of that write).
   * `db.data` is the next document: it holds changes not yet durable. A section object is
   * never mutated once it is in either document (updates replace it with a changed copy), so
   * a shallow copy of a document is a snapshot of it.
   */
  private visible: StoreDocument;
  /** Records taken out of their sections when they were opened, with where each is kept. */
  readonly setAside: SetAside[] = [];

  private constructor(
    private readonly db: Low<StoreDocument>,
    readonly file: string,
  ) {
    this.visible = { ...db.data };
  }

  /** Opens (or creates) `<dataDir>/db.json`, migrating it to the current schema version. */
  static async open(dataDir: string): Promise<Store> {
    const file = join(dataDir, DB_FILE);
    const adapter = new DurableJSONFile<StoreDocument>(file);
    const db = new Low<StoreDocument>(adapter, { schemaVersion: SCHEMA_VERSION });
    await db.read();
    const store = new Store(db, file);
    await store.migrate();
    return store;
  }

  private async migrate(): Promise<void> {
    const from = this.db.data.schemaVersion ?? 0;
    if (from > SCHEMA_VERSION) {
      throw new StoreSectionError(`${this.file} has schema version ${from}, newer than this hub understands (${SCHEMA_VERSION}); upgrade hearth`);
    }
    if (from === SCHEMA_VERSION) return;
    // Keep the document as it was before touching it: a failed migration must lose nothing.
    await copyFile(this.file, `${this.file}.v${from}.bak`).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    let doc = this.db.data;
    for (let v = from; v < SCHEMA_VERSION; v++) {
      const step = MIGRATIONS[v];
      if (step) doc = step(doc);
      doc.schemaVersion = v + 1;
    }
    this.db.data = doc;
    await this.persist();
  }

  /** Whether the data file holds section `name` (false before its first write). Ask before opening it. */
  holds(name: string): boolean {
    return Object.hasOwn(this.db.data, name);
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
    const opened = this.open(name, spec, options.records ?? []);
    this.db.data[name] = opened;
    this.visible[name] = opened;
    this.sections.set(name, spec);
    // A section with records set aside is written without them at once, so the next start finds
    // nothing to set aside (a failure here is the next write's to report).
    if (this.setAside.some((a) => a.section === name)) this.persist().catch(() => undefined);
    const store = this;
    return {
      get value() {
        return store.visible[name] as z.output<S>;
      },
      get next() {
        return store.db.data[name] as z.output<S>;
      },
      update: async <R>(mutate: (draft: z.output<S>) => R): Promise<R> => {
        // A copy of the next state (so queued changes build on each other) with no prototypes
        // (caller-keyed records stay maps); the schema makes it what is stored once changed.
        const draft = nullProtoClone(this.db.data[name]) as z.output<S>;
        const result = mutate(draft); // throws: nothing changed
        const next = this.checked(name, schema, draft);
        checkSectionBytes(options.bytes, sizeOf(this.db.data[name]), sizeOf(next));
        this.db.data[name] = next;
        await this.persist();
        return result;
      },
    };
  }

  /** A section that maps ids to records of `record` (see RecordSection), each and all bounded in bytes. */
  records<S extends z.ZodType>(name: string, record: S, bytes: RecordBound): RecordSection<z.output<S>> {
    const whole = this.section(name, safeRecord(z.string(), record), () => nullRecord(), { bytes, records: [['*']] });
    return {
      get value() {
        return whole.value;
      },
      get next() {
        return whole.next;
      },
      update: whole.update,
      updateSome: async <R>(ids: readonly string[], mutate: (draft: Record<string, z.output<S>>) => R): Promise<R> => {
        const current = this.db.data[name] as Record<string, z.output<S>>;
        const draft = nullRecord<z.output<S>>();
        for (const id of ids) {
          if (Object.hasOwn(current, id)) draft[id] = nullProtoClone(current[id]) as z.output<S>;
        }
        const result = mutate(draft); // throws: nothing changed
        const extra = Object.keys(draft).filter((k) => !ids.includes(k));
        if (extra.length > 0) throw new StoreSectionError(`an update of '${name}' named ${ids.join(', ')} but changed ${extra.join(', ')}`);
        // The map itself is copied shallowly: the records it shares with what readers see are never mutated.
        const next = Object.assign(nullRecord<z.output<S>>(), current);
        const before = this.recordBytes(name, current);
        let after = before;
        for (const id of ids) {
          if (Object.hasOwn(current, id)) after -= sizeOf(current[id]) + id.length;
          if (Object.hasOwn(draft, id)) {
            const stored = this.checked(`${name}' record '${id}`, record, draft[id]) as z.output<S>;
            checkRecordBytes(bytes, sizeOf(stored));
            next[id] = stored;
            after += sizeOf(stored) + id.length;
          } else delete next[id];
        }
        checkSectionBytes(bytes, before, after);
        this.db.data[name] = next;
        this.totals.set(name, { of: next, bytes: after });
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
   * What is on disk for section `name`, with the records its schema refuses set aside: kept in a
   * file first, then the section written without them. Throws when what is wrong is not a record.
   */
  private open(name: string, spec: SectionSpec, records: RecordPaths): unknown {
    const raw = this.db.data[name];
    if (raw === undefined || records.length === 0) return this.load(name, spec, raw);
    const parsed = parseSettingAside(spec.schema, raw, records);
    if (!parsed) return this.load(name, spec, raw);
    if (parsed.aside.length > 0) {
      const file = keepSetAside(dirname(this.file), name, parsed.aside);
      this.setAside.push({ section: name, file, records: parsed.aside });
    }
    return parsed.value;
  }

  /** `value` as it will be stored in `what`, or a 400 naming what does not fit (nothing is changed). */
  private checked(what: string, schema: z.ZodType, value: unknown): unknown {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw invalid(`the change was not made: what '${what}' would hold does not fit: ${describeIssues(parsed.error, '', 3)}`);
    return parsed.data;
  }

  /**
   * A section's value from a document, or its initial value when absent, parsed with its schema
   * either way: the schema is what makes caller-keyed records null-prototype (core/records.ts).
   */
  private load(name: string, spec: SectionSpec, raw: unknown): unknown {
    const parsed = spec.schema.safeParse(raw === undefined ? spec.initial() : raw);
    if (!parsed.success) {
      throw new StoreSectionError(`section '${name}' of ${this.file} does not match its schema: ${describeIssues(parsed.error, '', Infinity)}`);
    }
    return parsed.data;
  }

  /** A consistent copy of the whole document as JSON, taken in memory (backups). */
  snapshot(): string {
    return JSON.stringify(this.visible);
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
    const written = { ...this.db.data };
    const write: Promise<void> = this.db.write().then(
      () => {
        this.visible = written;
        this.writing = null;
      },
      (err: unknown) => {
        // The next document goes back to the disk: this write's changes and those of the
        // callers queued behind it, who get this error through `pending`. Nobody read them.
        this.db.data = { ...this.visible };
        this.writing = null;
        this.pending = null;
        throw err;
      },
    );
    this.writing = write;
    return write;
  }

  /** Waits for every write in flight. */
  async flush(): Promise<void> {
    while (this.writing || this.pending) await (this.pending ?? this.writing)?.catch(() => undefined);
  }
}
