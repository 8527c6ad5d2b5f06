/**
 * The hub <-> app channel's framing: each message is a 4-byte big-endian length and that many
 * bytes of UTF-8 JSON. It replaces Node's IPC channel, whose reader buffers a message until its
 * newline with no limit: an app writing to the channel's file descriptor (the permission model
 * does not guard descriptors) could make the hub buffer until it ran out of memory. Here the
 * length comes first, so an oversize message is refused before any of it is kept.
 */

/** The channel's file descriptor in the app's process (0-2 are its stdio). */
export const CHANNEL_FD = 3;

/** Largest message an app may send the hub: settings and widget state are 64 KiB at most. */
export const MAX_APP_FRAME_BYTES = 1024 * 1024;
/** Largest message the hub sends an app (insights queries can answer many entries). */
export const MAX_HUB_FRAME_BYTES = 64 * 1024 * 1024;

const HEADER_BYTES = 4;

/** A broken channel: the other side sent more than the limit or something that is not JSON. */
export class FrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameError';
  }
}

/** One message as a frame. Throws a FrameError when its JSON is larger than `maxBytes`. */
export function encodeFrame(message: unknown, maxBytes = MAX_HUB_FRAME_BYTES): Buffer {
  const json = JSON.stringify(message) ?? 'null';
  const length = Buffer.byteLength(json, 'utf8');
  if (length > maxBytes) throw new FrameError(`a message of ${length} bytes is over the limit of ${maxBytes}`);
  const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
  frame.writeUInt32BE(length, 0);
  frame.write(json, HEADER_BYTES, 'utf8');
  return frame;
}

/**
 * Turns a byte stream back into messages. Chunks are kept as they come and joined once a whole
 * frame is there, so a large frame arriving in small chunks is copied once, not once per chunk.
 *
 * @example
 * const decoder = new FrameDecoder(MAX_APP_FRAME_BYTES);
 * socket.on('data', (chunk) => { for (const m of decoder.push(chunk)) handle(m); });
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Body length of the frame being read, once its header is complete. */
  private bodyBytes: number | null = null;

  constructor(private readonly maxBytes: number) {}

  /** Feeds bytes in and returns the messages they complete. Throws a FrameError on a bad frame. */
  push(chunk: Buffer): unknown[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const messages: unknown[] = [];
    for (;;) {
      if (this.bodyBytes === null) {
        if (this.buffered < HEADER_BYTES) break;
        const length = this.take(HEADER_BYTES).readUInt32BE(0);
        if (length > this.maxBytes) throw new FrameError(`a message of ${length} bytes is over the limit of ${this.maxBytes}`);
        this.bodyBytes = length;
      }
      if (this.buffered < this.bodyBytes) break;
      const body = this.take(this.bodyBytes);
      this.bodyBytes = null;
      try {
        messages.push(JSON.parse(body.toString('utf8')));
      } catch {
        throw new FrameError(`a message of ${body.length} bytes is not JSON`);
      }
    }
    return messages;
  }

  /** Removes and returns the first `n` buffered bytes (n <= buffered). */
  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return out;
  }
}
