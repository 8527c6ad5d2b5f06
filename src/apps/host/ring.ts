/**
 * A bounded byte ring for one output stream of an app (stdout or stderr), mirrored to a file
 * under the app's data folder so the tail of its output — the crash log — survives a hub
 * restart. Writes are coalesced (at most one per second while output flows) and made durable
 * (fsync) when the process exits, which is when the tail matters most.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { writeFileDurable } from '../../core/durable-file.js';

export const RING_BYTES = 64 * 1024;
const FLUSH_DELAY_MS = 1_000;

/** What a stream wrote after a reader's cursor: its text, the cursor to ask with next, and the bytes that left the ring unread. */
export interface LogSince {
  text: string;
  next: number;
  skipped: number;
}

export class LogRing {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes written since the ring was made (with what load() found): the cursor of a reader that follows. */
  private end = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    readonly file: string,
    readonly capacity = RING_BYTES,
  ) {}

  /** Loads what a previous run left on disk (a missing file is an empty ring). */
  async load(): Promise<void> {
    try {
      const data = await readFile(this.file);
      this.chunks = [data.subarray(Math.max(0, data.length - this.capacity))];
      this.size = this.chunks[0]!.length;
      this.end = this.size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (buf.length === 0) return;
    this.chunks.push(buf);
    this.size += buf.length;
    this.end += buf.length;
    while (this.size > this.capacity) {
      const first = this.chunks[0]!;
      const excess = this.size - this.capacity;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
    this.dirty = true;
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush(false).catch(() => undefined);
      }, FLUSH_DELAY_MS);
      this.timer.unref();
    }
  }

  /** Marks where a new run starts, so the tail shows which lines belong to which run. */
  mark(line: string): void {
    this.push(`--- ${new Date().toISOString()} ${line} ---\n`);
  }

  bytes(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  text(): string {
    return this.bytes().toString('utf8');
  }

  /**
   * What was written after `cursor` (a `next` this ring gave before; 0 for everything it holds).
   * A cursor from before the hub restarted (past the end) reads everything held, as a new reader.
   */
  since(cursor: number): LogSince {
    const start = this.end - this.size;
    const from = cursor > this.end ? start : Math.max(cursor, start);
    return {
      text: this.bytes()
        .subarray(from - start)
        .toString('utf8'),
      next: this.end,
      skipped: cursor > this.end ? 0 : Math.max(0, start - cursor),
    };
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.dirty = true;
  }

  /**
   * Writes the ring to its file. `durable` fsyncs (used on exit and stop); otherwise the write
   * is atomic (temp + rename) but not synced, to spare an SD card one fsync per second.
   */
  flush(durable: boolean): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        if (!this.dirty && !durable) return;
        this.dirty = false;
        const data = this.bytes();
        if (durable) return writeFileDurable(this.file, data);
        const tmp = `${this.file}.tmp`;
        const handle = await open(tmp, 'w', 0o600);
        try {
          await handle.writeFile(data);
        } finally {
          await handle.close();
        }
        await rename(tmp, this.file).catch(async (err: unknown) => {
          await rm(tmp, { force: true });
          throw err;
        });
      });
    return this.writing;
  }
}
