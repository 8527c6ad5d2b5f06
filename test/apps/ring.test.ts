/** The output ring: bounded to its capacity, keeps the newest bytes, survives a reload. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogRing } from '../../src/apps/host/ring.js';
import { removeAll, tempDir } from './helpers.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('hearth-ring-');
});
afterEach(async () => {
  await removeAll(dir);
});

describe('LogRing', () => {
  it('keeps only the newest bytes up to its capacity', () => {
    const ring = new LogRing(join(dir, 'out.log'), 10);
    ring.push('abcdef');
    ring.push(Buffer.from('ghijkl'));
    expect(ring.text()).toBe('cdefghijkl');
    ring.push('0123456789ABC');
    expect(ring.text()).toBe('3456789ABC');
    expect(ring.bytes().length).toBe(10);
  });

  it('persists durably and loads the tail back', async () => {
    const file = join(dir, 'err.log');
    const ring = new LogRing(file, 64 * 1024);
    for (let i = 0; i < 5000; i++) ring.push(`line ${i}\n`);
    await ring.flush(true);
    const onDisk = await readFile(file, 'utf8');
    expect(onDisk.length).toBeLessThanOrEqual(64 * 1024);
    expect(onDisk.endsWith('line 4999\n')).toBe(true);
    const again = new LogRing(file, 64 * 1024);
    await again.load();
    expect(again.text()).toBe(onDisk);
    const smaller = new LogRing(file, 100);
    await smaller.load();
    expect(smaller.text()).toBe(onDisk.slice(-100));
  });

  it('loads a missing file as an empty ring', async () => {
    const ring = new LogRing(join(dir, 'none.log'));
    await ring.load();
    expect(ring.text()).toBe('');
  });
});
