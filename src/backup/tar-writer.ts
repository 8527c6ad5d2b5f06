/**
 * Writes a gzip-compressed tar stream entry by entry, hashing each file's bytes exactly as they
 * go into the archive. Headers come from tar v7 (`Header`, `Pax` for long paths); we frame the
 * bodies ourselves instead of using `tar.create`, because Pack reads files on its own, so
 * checksums would need a second read that a running app's userdata can race, and it would
 * store hard links and symlinks as link entries, which restore refuses.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip, type Gzip } from 'node:zlib';
import { Header, Pax } from 'tar';
import type { ManifestFile } from './format.js';

const BLOCK = 512;

const READ_CHUNK = 1024 * 1024;

/** ustar stores whole seconds; keeping them whole also keeps pax headers out of the common case. */
const seconds = (d: Date): Date => new Date(Math.floor(d.getTime() / 1000) * 1000);

export class TarGzWriter {
  private readonly gzip: Gzip;
  private readonly done: Promise<void>;
  private failure: unknown = null;
  /** Uncompressed bytes written, for the record. */
  bytes = 0;

  /** Creates `file` exclusively (mode 0600: the store holds token hashes and app settings). */
  constructor(
    readonly path: string,
    level: number,
  ) {
    this.gzip = createGzip({ level, chunkSize: 256 * 1024 });
    const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    this.done = pipeline(this.gzip, out);
    // Recorded so a write waiting on 'drain' learns about ENOSPC instead of hanging.
    this.done.catch((err: unknown) => {
      this.failure = err;
    });
  }

  private async push(chunk: Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    this.bytes += chunk.length;
    if (!this.gzip.write(chunk)) {
      await Promise.race([once(this.gzip, 'drain'), this.done.then(() => undefined)]);
      if (this.failure) throw this.failure;
    }
  }

  private async header(data: { path: string; type: 'File' | 'Directory'; size: number; mode: number; mtime: Date }): Promise<void> {
    const header = new Header({ ...data, mtime: seconds(data.mtime) });
    // encode() answers true when a field does not fit ustar (long path): precede it with pax.
    if (header.encode()) {
      await this.push(new Pax({ path: data.path, size: data.size, mtime: seconds(data.mtime) }).encode());
    }
    if (!header.block) throw new Error(`could not encode the tar header of ${data.path}`);
    await this.push(header.block);
  }

  async directory(path: string, mtime: Date): Promise<void> {
    await this.header({ path: path.endsWith('/') ? path : `${path}/`, type: 'Directory', size: 0, mode: 0o755, mtime });
  }

  /** Adds an in-memory file (the store snapshot, the manifest). */
  async buffer(path: string, body: Uint8Array, mtime: Date): Promise<ManifestFile> {
    await this.header({ path, type: 'File', size: body.length, mode: 0o644, mtime });
    await this.push(body);
    await this.pad(body.length);
    return { size: body.length, sha256: createHash('sha256').update(body).digest('hex') };
  }

  /**
   * Adds a file from disk. The size is fixed when the file is opened: a file that grows while it
   * is read is archived up to that size (a consistent prefix, matching its checksum). One that
   * shrinks cannot take back the size its header promised: the rest of the entry is zeros and
   * the result says `shrank`, so the caller records it as inconsistent (never restored) instead
   * of failing the whole backup. An app flipping a file's size every few milliseconds had made
   * every backup of the home fail.
   */
  async addFile(path: string, source: string): Promise<ManifestFile & { shrank: boolean }> {
    const handle = await open(source, 'r');
    try {
      const stat = await handle.stat();
      const size = stat.size;
      await this.header({ path, type: 'File', size, mode: stat.mode & 0o100 ? 0o755 : 0o644, mtime: stat.mtime });
      const hash = createHash('sha256');
      let position = 0;
      let shrank = false;
      while (position < size) {
        // A fresh buffer each time: zlib keeps a reference until it has consumed the chunk.
        const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, size - position));
        const { bytesRead } = shrank ? { bytesRead: 0 } : await handle.read(buf, 0, buf.length, position);
        if (bytesRead === 0) {
          shrank = true;
          buf.fill(0);
        }
        const chunk = bytesRead === 0 || bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
        hash.update(chunk);
        await this.push(chunk);
        position += chunk.length;
      }
      await this.pad(size);
      return { size, sha256: hash.digest('hex'), shrank };
    } finally {
      await handle.close();
    }
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest) await this.push(Buffer.alloc(BLOCK - rest));
  }

  /** Writes the end-of-archive blocks and waits until every byte is handed to the file. */
  async finish(): Promise<void> {
    await this.push(Buffer.alloc(BLOCK * 2));
    this.gzip.end();
    await this.done;
  }

  /** Stops writing after a failure; the caller removes the file. */
  async abort(): Promise<void> {
    this.gzip.destroy();
    await this.done.catch(() => undefined);
  }
}
