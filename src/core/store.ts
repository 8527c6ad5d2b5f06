/**
 * The hub's configuration-sized state: one lowdb JSON document (`<data-dir>/db.json`) split into
 * sections, one per manager, each checked against its owner's schema when it is opened.
 * Writes are durable (see durable-file.ts) and coalesced: an `update` resolves only once a write
 * that includes its change is on disk, so a 2xx answer means the change survives a power cut.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import type { z } from 'zod';
import { DurableJSONFile } from './durable-file.js';
import { describeIssues } from './zod-issues.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

export const DB_FILE = 'db.json';

export interface StoreDocument {
  schemaVersion: number;
  [section: string]: unknown;
}

/** One manager's part of the document. `value` is live: mutate it only inside `update`. */
export interface Section<T> {
  readonly value: Readonly<T>;
  /** Applies `mutate` to the section and resolves once the result is on disk. */
  update<R>(mutate: (draft: T) => R): Promise<R>;
}

export class StoreSectionError extends Error {}

export class Store {
  private writing: Promise<void> | null = null;
  private pending: Promise<void> | null = null;
  private readonly sections = new Set<string>();

  private constructor(
    private readonly db: Low<StoreDocument>,
    readonly file: string,
  ) {}

  /** Opens (or creates) `<dataDir>/db.json`, migrating it to the current schema version. */
  static async open(dataDir: string): Promise<Store> {
    const file = join(dataDir, DB_FILE);
    const db = new Low<StoreDocument>(new DurableJSONFile(file), { schemaVersion: SCHEMA_VERSION });
    await db.read();
    const store = new Store(db, file);
    await store.migrate();
    return store;
  }

  private async migrate(): Promise<void> {
    const from = this.db.data.schemaVersion ?? 0;
    if (from > SCHEMA_VERSION) {
      throw new StoreSectionError(
        `${this.file} has schema version ${from}, newer than this hub understands (${SCHEMA_VERSION}); upgrade hearth`,
      );
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

  /**
   * Opens a section, parsing what is on disk with `schema` (anything read from a file is
   * checked before use). A section absent from the file starts as `initial()`.
   */
  section<S extends z.ZodType>(name: string, schema: S, initial: () => z.output<S>): Section<z.output<S>> {
    if (name === 'schemaVersion') throw new StoreSectionError('reserved section name');
    if (this.sections.has(name)) throw new StoreSectionError(`store section '${name}' is opened twice`);
    const raw = this.db.data[name];
    if (raw !== undefined) {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        throw new StoreSectionError(
          `section '${name}' of ${this.file} does not match its schema: ${describeIssues(parsed.error, '', Infinity)}`,
        );
      }
      this.db.data[name] = parsed.data;
    } else {
      this.db.data[name] = initial();
    }
    this.sections.add(name);
    const data = this.db.data;
    return {
      get value() {
        return data[name] as z.output<S>;
      },
      update: async <R>(mutate: (draft: z.output<S>) => R): Promise<R> => {
        const result = mutate(data[name] as z.output<S>);
        await this.persist();
        return result;
      },
    };
  }

  /** A consistent copy of the whole document as JSON, taken in memory (backups). */
  snapshot(): string {
    return JSON.stringify(this.db.data);
  }

  /**
   * Resolves when a write that started after this call is on disk. While a write runs, all
   * callers share the next one, so a burst of N updates costs at most two fsyncs, not N.
   */
  persist(): Promise<void> {
    if (this.pending) return this.pending;
    if (!this.writing) {
      this.writing = this.db.write().finally(() => {
        this.writing = null;
      });
      return this.writing;
    }
    const after = this.writing;
    this.pending = after
      .catch(() => undefined)
      .then(() => {
        this.pending = null;
        return this.persist();
      });
    return this.pending;
  }

  /** Waits for every write in flight. */
  async flush(): Promise<void> {
    while (this.writing || this.pending) await (this.pending ?? this.writing)?.catch(() => undefined);
  }
}
