/**
 * The WAV folder sink stays bounded: the oldest of its own files go first, and nothing it did not
 * write (another name, a link, a socket) is ever deleted, whatever its name.
 */

import { lstat, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderSink } from '../../../src/managers/speech-output/sink.js';
import { tempDir } from './tools.js';

const wav = (bytes: number): Uint8Array => new Uint8Array(bytes).fill(7);
const signal = new AbortController().signal;

async function wavNames(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.endsWith('.wav')).sort();
}

describe('FolderSink', () => {
  it('keeps at most its file limit, dropping the oldest', async () => {
    const dir = await tempDir('sink-files');
    const sink = new FolderSink(dir, { files: 3, bytes: 1 << 30 });
    const written: string[] = [];
    for (let i = 0; i < 6; i++) written.push(await sink.play(wav(100), signal));
    expect(await wavNames(dir)).toEqual(written.slice(3).map((f) => f.slice(dir.length + 1)));
  });

  it('keeps within its byte limit, and always the file just written', async () => {
    const dir = await tempDir('sink-bytes');
    const sink = new FolderSink(dir, { files: 100, bytes: 2500 });
    const written: string[] = [];
    for (let i = 0; i < 4; i++) written.push(await sink.play(wav(1000), signal));
    expect(await wavNames(dir)).toEqual(written.slice(2).map((f) => f.slice(dir.length + 1)));
    // One utterance bigger than the whole budget is still delivered.
    const big = await sink.play(wav(5000), signal);
    expect(await wavNames(dir)).toEqual([big.slice(dir.length + 1)]);
  });

  it('orders by modification time, so a file named in the future is not kept over new ones', async () => {
    const dir = await tempDir('sink-future');
    const future = '29991231T235959999Z-000001.wav';
    await writeFile(join(dir, future), wav(10));
    await utimes(join(dir, future), new Date('2020-01-01'), new Date('2020-01-01'));
    const sink = new FolderSink(dir, { files: 2, bytes: 1 << 30 });
    const a = await sink.play(wav(10), signal);
    const b = await sink.play(wav(10), signal);
    expect(await wavNames(dir)).toEqual([a, b].map((f) => f.slice(dir.length + 1)).sort());
  });

  it('never deletes what it did not write: other names, links and sockets named like its files', async () => {
    const dir = await tempDir('sink-foreign');
    const outside = await tempDir('sink-outside');
    await writeFile(join(outside, 'precious.wav'), 'keep me');
    await writeFile(join(dir, 'doorbell.wav'), "not the sink's");
    const link = '20000101T000000000Z-000001.wav';
    await symlink(join(outside, 'precious.wav'), join(dir, link));
    const socketName = '20000101T000000000Z-000002.wav';
    const server = createServer();
    await new Promise<void>((r) => server.listen(join(dir, socketName), r));
    try {
      const sink = new FolderSink(dir, { files: 1, bytes: 1 << 30 });
      const kept = await sink.play(wav(10), signal);
      await sink.play(wav(10), signal);
      const names = await readdir(dir);
      expect(names).toContain('doorbell.wav');
      expect(names).toContain(link);
      expect(names).toContain(socketName);
      expect((await lstat(join(dir, socketName))).isSocket()).toBe(true);
      expect(names).not.toContain(kept.slice(dir.length + 1));
      expect(await readFile(join(outside, 'precious.wav'), 'utf8')).toBe('keep me');
    } finally {
      server.close();
    }
  });
});
