// Unit tests of the app channel's framing: round trips in any chunking, and refusals that come
// before the oversize body is kept.
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, FrameError } from '../../src/apps/wire/frames.js';

const messages = [{ type: 'hello', protocol: 1, pid: 42 }, { text: 'grüße ✓', n: [1, 2, 3] }, null, 'x'.repeat(70_000)];
const stream = Buffer.concat(messages.map((m) => encodeFrame(m)));

describe('frames', () => {
  it('decodes what was encoded, whole or split at every chunk size', () => {
    expect(new FrameDecoder(1 << 20).push(stream)).toEqual(messages);
    for (const size of [1, 3, 4, 5, 7, 4096]) {
      const decoder = new FrameDecoder(1 << 20);
      const out: unknown[] = [];
      for (let i = 0; i < stream.length; i += size) out.push(...decoder.push(stream.subarray(i, i + size)));
      expect(out).toEqual(messages);
    }
  });

  it('refuses a frame over the limit from its header alone', () => {
    const decoder = new FrameDecoder(100);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(101);
    expect(() => decoder.push(header)).toThrow(new FrameError('a message of 101 bytes is over the limit of 100'));
    expect(() => encodeFrame({ s: 'x'.repeat(200) }, 100)).toThrow(/a message of 208 bytes is over the limit of 100/);
  });

  it('refuses a body that is not JSON, and holds an incomplete frame until the rest arrives', () => {
    const body = Buffer.from('{oops');
    const header = Buffer.alloc(4);
    header.writeUInt32BE(body.length);
    const decoder = new FrameDecoder(100);
    expect(decoder.push(Buffer.concat([header, body.subarray(0, 2)]))).toEqual([]);
    expect(() => decoder.push(body.subarray(2))).toThrow('a message of 5 bytes is not JSON');
  });
});
