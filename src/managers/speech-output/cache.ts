/**
 * Synthesized audio of repeated phrases, on disk (`<data-dir>/speech-cache/`), bounded by total
 * size with least-recently-used eviction, so an announcement that repeats is ready at once.
 * The index lives in memory (rebuilt from the folder at start); files are the WAVs themselves.
 * Entries are written temp+rename so a reader never sees half a file; they are not fsynced,
 * because a lost cache entry is only re-synthesized.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirs } from '../../core/files.js';

const ENTRY = /^[0-9a-f]{64}\.wav$/;

export interface CacheKeyParts {
  readonly engine: string;
  readonly voice: string;
  readonly speed: number;
  readonly text: string;
}

/** sha256 over the parts that change the audio. */
export function cacheKey(parts: CacheKeyParts): string {
  return createHash('sha256')
    .update(JSON.stringify([parts.engine, parts.voice, parts.speed, parts.text]))
    .digest('hex');
}

export class SpeechCache {
  /** key -> size; Map order is recency order (oldest first), re-inserted on every hit. */
  private readonly entries = new Map<string, number>();
  private total = 0;
  private tmpSeq = 0;
  private readonly writing = new Map<string, Promise<void>>();

  constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {}

  /** Loads the index from the folder, oldest-modified first, and trims it to the bound. */
  async open(): Promise<void> {
    await makeDirs(this.dir);
    const found: { key: string; size: number; mtime: number }[] = [];
    for (const name of await readdir(this.dir)) {
      const file = join(this.dir, name);
      if (!ENTRY.test(name)) {
        // Left-over temp files from a crash mid-write; nothing else belongs here.
        if (name.endsWith('.tmp')) await rm(file, { force: true });
        continue;
      }
      const s = await stat(file).catch(() => null);
      if (s?.isFile()) found.push({ key: name.slice(0, 64), size: s.size, mtime: s.mtimeMs });
    }
    found.sort((a, b) => a.mtime - b.mtime);
    for (const f of found) {
      this.entries.set(f.key, f.size);
      this.total += f.size;
    }
    await this.evict();
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.total };
  }

  private file(key: string): string {
    return join(this.dir, `${key}.wav`);
  }

  /** The cached WAV, or null. A hit becomes the most recently used entry. */
  async get(key: string): Promise<Uint8Array | null> {
    const size = this.entries.get(key);
    if (size === undefined) return null;
    try {
      const bytes = await readFile(this.file(key));
      this.entries.delete(key);
      this.entries.set(key, size);
      return bytes;
    } catch {
      this.forget(key);
      return null;
    }
  }

  /**
   * Stores a WAV; entries larger than a quarter of the bound are not worth evicting others for.
   * Callers may leave it running; flush() waits for every write still in flight.
   */
  put(key: string, wav: Uint8Array): Promise<void> {
    if (wav.byteLength > this.maxBytes / 4 || this.entries.has(key) || this.writing.has(key)) return Promise.resolve();
    const write = this.write(key, wav).finally(() => this.writing.delete(key));
    this.writing.set(key, write);
    return write;
  }

  /** Resolves when no write is in flight (stop, tests). */
  async flush(): Promise<void> {
    while (this.writing.size > 0) await Promise.allSettled([...this.writing.values()]);
  }

  private async write(key: string, wav: Uint8Array): Promise<void> {
    const tmp = join(this.dir, `.${key}.${process.pid}.${this.tmpSeq++}.tmp`);
    try {
      await writeFile(tmp, wav);
      await rename(tmp, this.file(key));
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    this.entries.set(key, wav.byteLength);
    this.total += wav.byteLength;
    await this.evict();
  }

  private forget(key: string): void {
    const size = this.entries.get(key);
    if (size === undefined) return;
    this.entries.delete(key);
    this.total -= size;
  }

  private async evict(): Promise<void> {
    for (const key of this.entries.keys()) {
      if (this.total <= this.maxBytes) break;
      this.forget(key);
      await rm(this.file(key), { force: true });
    }
  }
}
