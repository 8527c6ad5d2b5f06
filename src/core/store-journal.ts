/**
 * The store's journal: the changes made since `db.json` was last written whole, in order, in
 * files `db.json.journal.<n>` beside it. A write appends one entry holding what it changed (a
 * whole section, or the records of a record section it set or deleted) and makes it durable with
 * one fdatasync, so its cost is what changed, not the size of the home.
 *
 * An entry is `<bytes> <crc32>\n<JSON>\n`: a write cut off by a power cut leaves an entry whose
 * length or checksum does not hold, and reading stops there (it was never acknowledged). Every
 * entry sets whole values, so replaying an entry over a document that already holds it changes
 * nothing: db.json can be rewritten (compaction) and the journals it holds removed in any order a
 * stop may cut, and what is read back is the same.
 *
 * A journal's first line names the schema version it was written at: one older than db.json's was
 * folded into db.json by a migration (which writes db.json whole) and is not replayed again.
 */
import { type FileHandle, open, readdir, readFile } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { fsyncDir } from './durable-file.js';

/** One change: a whole section set, or a record of a record section set or deleted. */
export type JournalOp =
  | readonly [kind: 'S', section: string, value: unknown]
  | readonly [kind: 'R', section: string, id: string, value: unknown]
  | readonly [kind: 'D', section: string, id: string];

const HEADER = 'hearth-journal 1';
/** The longest entry header: a length of up to 10 digits, a space, 8 hex digits. */
const MAX_HEAD = 20;

export const journalName = (dbFile: string, n: number): string => `${dbFile}.journal.${n}`;

/** The journals beside `dbFile` in `dir`, oldest first. */
export async function listJournals(dir: string, dbFile: string): Promise<number[]> {
  const pattern = new RegExp(`^${dbFile.replace(/\./g, '\\.')}\\.journal\\.(\\d{1,15})$`);
  const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  return names
    .map((name) => pattern.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

export interface JournalContent {
  /** The schema version it was written at; null when its first line is not a journal's (made, not yet written). */
  readonly version: number | null;
  readonly entries: JournalOp[][];
  /** Bytes after the last whole entry: a write a stop cut off, or damage. */
  readonly ignored: number;
}

const isOp = (op: unknown): op is JournalOp => {
  if (!Array.isArray(op) || typeof op[1] !== 'string' || op[1] === 'schemaVersion') return false;
  if (op[0] === 'S') return op.length === 3;
  if (op[0] === 'R') return op.length === 4 && typeof op[2] === 'string';
  return op[0] === 'D' && op.length === 3 && typeof op[2] === 'string';
};

/** Reads a journal's entries up to the first that is not whole (see the module comment). */
export function parseJournal(buf: Buffer): JournalContent {
  const first = buf.indexOf(10);
  const head = first < 0 ? null : /^hearth-journal 1 (\d{1,6})$/.exec(buf.toString('latin1', 0, first));
  if (!head) return { version: null, entries: [], ignored: buf.length };
  const entries: JournalOp[][] = [];
  let pos = first + 1;
  while (pos < buf.length) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0 || nl - pos > MAX_HEAD) break;
    const m = /^(\d{1,10}) ([0-9a-f]{8})$/.exec(buf.toString('latin1', pos, nl));
    if (!m) break;
    const start = nl + 1;
    const end = start + Number(m[1]);
    if (end >= buf.length || buf[end] !== 10) break;
    const payload = buf.subarray(start, end);
    if (crc32(payload) !== Number.parseInt(m[2]!, 16)) break;
    let ops: unknown;
    try {
      ops = JSON.parse(payload.toString('utf8'));
    } catch {
      break;
    }
    if (!Array.isArray(ops) || !ops.every(isOp)) break;
    entries.push(ops);
    pos = end + 1;
  }
  return { version: Number(head[1]), entries, ignored: buf.length - pos };
}

export async function readJournal(file: string): Promise<JournalContent> {
  return parseJournal(await readFile(file));
}

/** Sets `key` of `holder` as an own property, whatever its name (`__proto__` included). */
function define(holder: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Applies one entry to a document as read from JSON. */
export function applyEntry(doc: Record<string, unknown>, ops: readonly JournalOp[]): void {
  for (const op of ops) {
    if (op[0] === 'S') {
      define(doc, op[1], op[2]);
      continue;
    }
    const found = Object.hasOwn(doc, op[1]) ? doc[op[1]] : undefined;
    const section: Record<string, unknown> = isMap(found) ? found : {};
    if (section !== found) define(doc, op[1], section);
    if (op[0] === 'R') define(section, op[2], op[3]);
    else Reflect.deleteProperty(section, op[2]);
  }
}

/** One entry as appended: its header and its JSON. */
export function frame(ops: readonly JournalOp[]): Buffer {
  const payload = Buffer.from(JSON.stringify(ops), 'utf8');
  const head = `${payload.length} ${crc32(payload).toString(16).padStart(8, '0')}\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload, Buffer.from('\n')]);
}

/** An open journal: its handle (kept while writes go to it) and how many bytes it holds. */
export interface OpenJournal {
  readonly handle: FileHandle;
  bytes: number;
}

/**
 * Makes journal `file` (it must not exist), its first line on disk and its name in the directory,
 * and keeps it open for the writes that follow: opening and closing it for each entry were two
 * more trips through libuv's threads (~0.35 ms of a write's 1.5 at p50 on this machine).
 */
export async function createJournal(file: string, dir: string, version: number): Promise<OpenJournal> {
  const header = Buffer.from(`${HEADER} ${version}\n`, 'latin1');
  const handle = await open(file, 'wx', 0o600);
  try {
    await writeAll(handle, header, 0);
    await handle.sync();
    await fsyncDir(dir);
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  return { handle, bytes: header.length };
}

/**
 * Appends `entry` to `journal` and makes it durable. A write that fails, or is cut short (a full
 * disk, a file size limit), is cut back off and rejects: the next entry follows the last whole
 * one, and nothing is acknowledged that is not whole on disk.
 */
export async function appendEntry(journal: OpenJournal, entry: Buffer): Promise<void> {
  try {
    await writeAll(journal.handle, entry, journal.bytes);
    await journal.handle.datasync();
  } catch (err) {
    await journal.handle.truncate(journal.bytes).catch(() => undefined);
    throw err;
  }
  journal.bytes += entry.length;
}

/** Writes `buf` at `position`, or rejects when the file took less of it. */
async function writeAll(handle: FileHandle, buf: Buffer, position: number): Promise<void> {
  const { bytesWritten } = await handle.write(buf, 0, buf.length, position);
  if (bytesWritten !== buf.length) throw new Error(`the journal took ${bytesWritten} of an entry's ${buf.length} bytes (is the disk full?)`);
}
