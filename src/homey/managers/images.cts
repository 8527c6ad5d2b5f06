/**
 * `this.homey.images`: images an app shows (a device's album art or camera picture). An image's
 * content comes from a file of the app's (`setPath`: in its folder or /userdata), a stream it
 * writes on demand (`setStream(async (stream) => ...)`) or a URL (`setUrl`, fetched by whoever
 * shows it). The hub keeps only which images exist and where their content comes from; when a
 * client asks for the content of a file or stream image, the hub asks the app (`image.content`),
 * which reads its own file with its own rights: the hub never opens a path an app names.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { HomeyContext } from '../context.cjs';
import { HomeyError } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';

/** The largest image content served, in bytes. */
const MAX_BYTES = 4 * 1024 * 1024;

type Source = { kind: 'path'; path: string } | { kind: 'stream'; fill: (stream: Writable) => unknown } | { kind: 'url'; url: string } | null;

export class Image {
  private source: Source = null;

  /** `forget`: takes the image out of the manager that made it (unregister frees it). */
  constructor(
    private readonly ctx: HomeyContext,
    readonly id: string,
    private readonly forget: () => void = () => undefined,
  ) {}

  setPath(path: string): void {
    if (typeof path !== 'string' || path === '') throw new HomeyError('Image.setPath takes the path of a file', 'invalid_args');
    this.source = { kind: 'path', path };
    this.tell('app', null);
  }

  setStream(source: (stream: Writable) => unknown): void {
    if (typeof source !== 'function') throw new HomeyError('Image.setStream takes a function that writes the image into a stream', 'invalid_args');
    this.source = { kind: 'stream', fill: source };
    this.tell('app', null);
  }

  setUrl(url: string): void {
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw new HomeyError('Image.setUrl takes an http(s) URL', 'invalid_args');
    this.source = { kind: 'url', url };
    this.tell('url', url);
  }

  private tell(source: 'app' | 'url', url: string | null): void {
    this.ctx.transport.call('image.set', { id: this.id, source, url }).catch((err: unknown) => {
      console.error(`image ${this.id}: the hub did not take its source:`, err instanceof Error ? err.message : String(err));
    });
  }

  /** The content changed: clients showing it fetch it again. */
  async update(): Promise<null> {
    await this.ctx.transport.call('image.update', { id: this.id });
    return null;
  }

  async unregister(): Promise<void> {
    this.forget();
    await this.ctx.transport.call('image.unregister', { id: this.id });
  }

  async getStream(): Promise<Readable> {
    const s = this.source;
    if (!s) throw new HomeyError(`image ${this.id} has no content yet (setPath, setStream or setUrl)`, 'not_found');
    // A relative path is the app's own file (its folder), as Homey's are.
    if (s.kind === 'path') return createReadStream(isAbsolute(s.path) ? s.path : join(this.ctx.app.dir, s.path));
    if (s.kind === 'url') {
      const res = await fetch(s.url);
      if (!res.ok || !res.body) throw new HomeyError(`image ${this.id}: ${s.url} answered ${res.status}`, 'not_found');
      const { Readable: R } = await import('node:stream');
      return R.fromWeb(res.body as never);
    }
    const stream = new PassThrough();
    Promise.resolve()
      .then(() => s.fill(stream))
      .catch((err: unknown) => stream.destroy(err instanceof Error ? err : new Error(String(err))));
    return stream;
  }

  async pipe(stream: Writable): Promise<{ filename: string; contentType: string }> {
    const content = await this.content();
    stream.end(Buffer.from(content.base64, 'base64'));
    return { filename: this.id, contentType: 'application/octet-stream' };
  }

  /** The content, whole, for the hub (at most MAX_BYTES). */
  async content(): Promise<{ base64: string }> {
    const stream = await this.getStream();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size += b.length;
      if (size > MAX_BYTES) {
        stream.destroy();
        throw new HomeyError(`image ${this.id} is larger than ${MAX_BYTES / 1024 / 1024} MiB`, 'invalid_args');
      }
      chunks.push(b);
    }
    return { base64: Buffer.concat(chunks).toString('base64') };
  }

  toJSON(): string {
    return this.id;
  }
}

export class ManagerImages extends Manager {
  static ID = 'images';
  private readonly images = new Map<string, Image>();

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  async createImage(): Promise<Image> {
    const image: Image = new Image(this.ctx, randomUUID(), () => {
      if (this.images.get(image.id) === image) this.images.delete(image.id);
    });
    await this.ctx.transport.call('image.register', { id: image.id });
    this.images.set(image.id, image);
    return image;
  }

  getImage(id: string): Image {
    const image = this.images.get(id);
    if (!image) throw new HomeyError(`the app has no image '${id}'`, 'not_found');
    return image;
  }

  async unregisterImage(image: Image): Promise<void> {
    await image.unregister();
  }

  /** The hub asks for an image's content (a client wants to show it). */
  content(id: string): Promise<{ base64: string }> {
    return this.getImage(id).content();
  }
}
