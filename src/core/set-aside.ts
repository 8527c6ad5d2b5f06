/**
 * What the store does with a record on disk that its schema refuses (a hand edit, an older bug,
 * a disk that flipped a byte): the record is taken out of its section and kept in a file of its
 * own under `<data-dir>/set-aside/`, so the section and its manager start with every other
 * record. Only records are set aside, never a section's own shape: a section that is not an
 * object where one is needed stays as it is, and its manager answers 503 until someone repairs it.
 *
 * A section says what its records are by paths with `*` for an id: `['*']` for a map of records
 * (tokens, devices, flows), `['dashboards', '*']` for a map inside an object.
 */
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { writeFileDurableSync } from './durable-file.js';
import { makeDirsSync } from './files.js';
import { issueKey } from './null-prototype.js';
import { describeIssues } from './zod-issues.js';

/** Where records are in a section: a path per kind of record, `*` standing for any id. */
export type RecordPaths = readonly (readonly string[])[];

export const SET_ASIDE_DIR = 'set-aside';
/** Files kept in the set-aside folder; the oldest go first. */
const FILES_KEPT = 20;
/** Passes over one section: a record set aside can only reveal issues in others, never loop. */
const MAX_PASSES = 3;

export interface SetAsideRecord {
  /** Where the record was in its section, e.g. ['b2c4…'] or ['dashboards', 'kitchen']. */
  readonly path: readonly string[];
  /** Why the schema refused it (its first issues, in one line). */
  readonly reason: string;
  readonly value: unknown;
}

export interface SetAside {
  readonly section: string;
  /** The file that keeps the records, in the data dir. */
  readonly file: string;
  readonly records: readonly SetAsideRecord[];
}

/** The record an issue at `path` lies in, by the section's record paths; null when it lies in none. */
function recordOf(path: readonly PropertyKey[], paths: RecordPaths): string[] | null {
  for (const p of paths) {
    if (path.length < p.length) continue;
    const at = path.slice(0, p.length).map(issueKey);
    if (p.every((seg, i) => seg === '*' || seg === at[i])) return at;
  }
  return null;
}

function take(doc: unknown, path: readonly string[]): unknown {
  let at = doc;
  for (const seg of path.slice(0, -1)) at = (at as Record<string, unknown>)[seg];
  const holder = at as Record<string, unknown>;
  const key = path[path.length - 1]!;
  const value = holder[key];
  // Reflect.deleteProperty removes an own `__proto__` key that JSON.parse made, as any other.
  Reflect.deleteProperty(holder, key);
  return value;
}

/**
 * Parses `raw` with `schema`, taking out the records it refuses (by `paths`). Answers the parsed
 * section and what was taken out; answers null when what is wrong lies outside any record.
 */
export function parseSettingAside(schema: z.ZodType, raw: unknown, paths: RecordPaths): { value: unknown; aside: SetAsideRecord[] } | null {
  let doc = raw;
  const aside: SetAsideRecord[] = [];
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const parsed = schema.safeParse(doc);
    if (parsed.success) return { value: parsed.data, aside };
    if (pass === 0) doc = structuredClone(raw);
    const byRecord = new Map<string, { path: string[]; issues: z.core.$ZodIssue[] }>();
    for (const issue of parsed.error.issues) {
      const path = recordOf(issue.path, paths);
      if (!path) return null;
      const key = JSON.stringify(path);
      const entry = byRecord.get(key) ?? { path, issues: [] };
      entry.issues.push(issue);
      byRecord.set(key, entry);
    }
    for (const { path, issues } of byRecord.values()) {
      const reason = describeIssues({ issues } as z.ZodError, '', 3);
      aside.push({ path, reason, value: take(doc, path) });
    }
  }
  return null;
}

/**
 * Writes what was set aside from `section` to `<dataDir>/set-aside/<time>-<section>.json`, on disk
 * before the section is written without it (sync: it happens at start, once per broken record).
 * Answers the file's path relative to the data dir.
 */
export function keepSetAside(dataDir: string, section: string, records: readonly SetAsideRecord[]): string {
  return keep(dataDir, `${section.replace(/[^A-Za-z0-9_-]/g, '_')}.json`, (file) =>
    writeFileDurableSync(file, JSON.stringify({ section, setAsideAt: new Date().toISOString(), records }, null, 1)),
  );
}

/**
 * Keeps a copy of the store's journal `name` (in the data dir) in the set-aside folder: part of it
 * could not be read back, and the store is about to fold what could into db.json and remove it.
 */
export function keepJournalAside(dataDir: string, name: string): string {
  return keep(dataDir, name, (file) => copyFileSync(join(dataDir, name), file));
}

/** Makes `<dataDir>/set-aside/<time>-<name>` with `make`, keeping the newest FILES_KEPT files. Answers its path in the data dir. */
function keep(dataDir: string, name: string, make: (file: string) => void): string {
  const dir = join(dataDir, SET_ASIDE_DIR);
  makeDirsSync(dir, 0o700);
  // The time first: the names sort oldest first.
  const kept = `${new Date().toISOString().replace(/[:.]/g, '-')}-${name}`;
  make(join(dir, kept));
  const files = readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .sort();
  for (const old of files.slice(0, Math.max(0, files.length - FILES_KEPT))) rmSync(join(dir, old), { force: true });
  return join(SET_ASIDE_DIR, kept);
}
