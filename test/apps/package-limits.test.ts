/**
 * App packages that try to take more than a package may: a tar bomb (a small gzip of a huge
 * file), too many files, and a local catalogue pointing at files outside its folder. Each is
 * refused while it extracts, with a sentence, and leaves nothing behind.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installFromCatalogue } from '../../src/apps/catalogue/install-from-catalogue.js';
import { extract } from '../../src/apps/catalogue/package-extract.js';
import { assertBuilt, listApps, listDir, removeAll, startRuntime, type TestRuntime, tempDir } from './helpers.js';

let appsDir: string;
let dataDir: string;
let storeDir: string;
let t: TestRuntime;

beforeAll(assertBuilt);
beforeEach(async () => {
  appsDir = await tempDir('hearth-apps-');
  dataDir = await tempDir('hearth-data-');
  storeDir = await tempDir('hearth-store-');
  t = await startRuntime({ appsDir, dataDir });
});
afterEach(async () => {
  await t.close();
  await removeAll(appsDir, dataDir, storeDir);
});

/** A ustar header for a regular file of `size` bytes. */
function header(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

const manifest = (id: string): string => JSON.stringify({ id, version: '1.0.0', sdk: 3, name: { en: id } });
const pad = (n: number): Buffer => Buffer.alloc((512 - (n % 512)) % 512);

/** A package holding app.json and one file of `bytes` zeros, gzipped as it is generated. */
async function bomb(file: string, id: string, bytes: number): Promise<void> {
  const m = Buffer.from(manifest(id));
  async function* blocks(): AsyncGenerator<Buffer> {
    yield Buffer.concat([header('app.json', m.length), m, pad(m.length), header('zeros.bin', bytes)]);
    const chunk = Buffer.alloc(1024 * 1024);
    for (let left = bytes; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
    yield Buffer.concat([pad(bytes), Buffer.alloc(1024)]);
  }
  await pipeline(Readable.from(blocks()), createGzip({ level: 1 }), createWriteStream(file));
}

async function publish(id: string, file: string, url = `${id}.tar.gz`): Promise<void> {
  const sha = createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
  await writeFile(join(storeDir, 'index.json'), JSON.stringify({ apps: { [id]: { channels: { stable: { version: '1.0.0', url, sha256: sha } } } } }));
}

describe('package limits', () => {
  it('stops a tar bomb at 256 MiB unpacked (507), and leaves nothing', { timeout: 120_000 }, async () => {
    const file = join(storeDir, 'com.test.bomb.tar.gz');
    await bomb(file, 'com.test.bomb', 300 * 1024 * 1024);
    await publish('com.test.bomb', file);
    expect((await readFile(file)).length).toBeLessThan(2 * 1024 * 1024);
    await expect(installFromCatalogue(t.rt, storeDir, 'com.test.bomb')).rejects.toMatchObject({
      code: 'insufficient_storage',
      status: 507,
      message: 'the app package unpacks to more than 256 MiB, the most a package may',
    });
    expect(await listApps(appsDir)).toEqual([]);
    expect(() => t.rt.get('com.test.bomb')).toThrow(/not installed/);
  });

  it('stops extracting at the file limit, writing no more than it allows', async () => {
    const entries: Buffer[] = [];
    for (let i = 0; i < 40; i++) entries.push(header(`f${i}.txt`, 1), Buffer.from('x'), pad(1));
    const file = join(storeDir, 'many.tar.gz');
    await writeFile(file, gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)])));
    const dest = await tempDir('hearth-extract-');
    await expect(extract(file, dest, { bytes: 1 << 30, files: 25 })).rejects.toMatchObject({
      code: 'insufficient_storage',
      message: 'the app package holds more than 25 files, the most a package may',
    });
    expect((await listDir(dest)).length).toBeLessThanOrEqual(25);
    await removeAll(dest);
  });

  it('refuses a package nested deeper than 32 folders', async () => {
    const deep = `${Array.from({ length: 40 }, (_, i) => `d${i}`).join('/')}/x.txt`;
    const file = join(storeDir, 'deep.tar.gz');
    // A pax-free ustar name fits 100 bytes; this one is longer, so it goes in the prefix field.
    const h = header('x.txt', 1);
    const dir = deep.slice(0, deep.lastIndexOf('/'));
    h.write(dir, 345, 155, 'utf8');
    let sum = 0;
    h.write('        ', 148);
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    await writeFile(file, gzipSync(Buffer.concat([h, Buffer.from('x'), pad(1), Buffer.alloc(1024)])));
    const dest = await tempDir('hearth-extract-');
    await expect(extract(file, dest)).rejects.toMatchObject({ code: 'bad_gateway', message: expect.stringContaining('nested deeper than 32 folders') });
    await removeAll(dest);
  });
});

describe('a local catalogue reads only its own folder', () => {
  it('refuses a package outside the catalogue folder without telling anything about that file', async () => {
    const outside = await tempDir('hearth-outside-');
    const secret = join(outside, 'secret.tar.gz');
    await writeFile(secret, 'the hub can read this, the catalogue must not make it');
    for (const url of [secret, `file://${secret}`, `../${outside.split('/').pop()}/secret.tar.gz`, '/etc/hostname']) {
      await writeFile(
        join(storeDir, 'index.json'),
        JSON.stringify({ apps: { 'com.test.peek': { channels: { stable: { version: '1.0.0', url, sha256: '0'.repeat(64) } } } } }),
      );
      const err = (await installFromCatalogue(t.rt, storeDir, 'com.test.peek').catch((e: unknown) => e)) as { code: string; message: string };
      expect(err.code, url).toBe('bad_gateway');
      expect(err.message, url).toMatch(/^the app store lists a package outside its own folder/);
    }
    expect(await listApps(appsDir)).toEqual([]);
    await removeAll(outside);
  });

  it('a checksum mismatch does not repeat the hash of what was read', async () => {
    await writeFile(join(storeDir, 'com.test.sum.tar.gz'), 'not the listed package');
    await writeFile(
      join(storeDir, 'index.json'),
      JSON.stringify({ apps: { 'com.test.sum': { channels: { stable: { version: '1.0.0', url: 'com.test.sum.tar.gz', sha256: '1'.repeat(64) } } } } }),
    );
    const actual = createHash('sha256').update('not the listed package').digest('hex');
    const err = (await installFromCatalogue(t.rt, storeDir, 'com.test.sum').catch((e: unknown) => e)) as Error;
    expect(err.message).toContain('failed its checksum');
    expect(err.message).not.toContain(actual);
  });
});
