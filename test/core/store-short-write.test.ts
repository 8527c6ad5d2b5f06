/**
 * A journal entry the disk takes only part of (a full disk; here a file size limit, `prlimit
 * --fsize`, on a real process) is not acknowledged: its write rejects, its bytes are cut back off,
 * and the next write follows the last whole entry, so what is read back after a kill is every
 * acknowledged write. Before, a short write went unnoticed: it was acknowledged, and every entry
 * after it was lost with it at the next start (reading stops at the first entry that is not whole).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/hub.js';
import { readStoreDoc } from '../helpers/store-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hearth-short-write-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Three writes to a store whose files may not pass 8 KiB: a small one, one of ~20 KB, a small one; then an exit without close. */
const WRITER = `
const { Store } = await import(${JSON.stringify(join(ROOT, 'dist/core/store.js'))});
const { z } = await import('zod');
const store = await Store.open(process.argv[1]);
const things = store.records('things', z.object({ name: z.string() }), { section: 1 << 20, items: 'things', record: 1 << 20, item: 'a thing' });
const said = [];
for (const [id, name] of [['a', 'small'], ['b', 'x'.repeat(20000)], ['c', 'small too']]) {
  try {
    await things.update((d) => { d[id] = { name }; });
    said.push(id + ' acknowledged');
  } catch (err) {
    said.push(id + ' failed: ' + err.message);
  }
}
console.log(JSON.stringify(said));
process.exit(0);
`;

describe('a journal entry cut short', () => {
  it('is refused and cut off, and the writes after it are read back', async () => {
    const { stdout } = await promisify(execFile)('prlimit', ['--fsize=8192', process.execPath, '--input-type=module', '-e', WRITER, dir], { cwd: ROOT });
    const said = JSON.parse(stdout.trim()) as string[];
    expect(said[0]).toBe('a acknowledged');
    expect(said[1]).toMatch(/^b failed: the journal took \d+ of an entry's \d+ bytes \(is the disk full\?\)$/);
    expect(said[2]).toBe('c acknowledged');
    // Read back as the next start reads it: every acknowledged write, and nothing of the refused one.
    const things = (await readStoreDoc(dir)).things as Record<string, { name: string }>;
    expect(Object.keys(things).sort()).toEqual(['a', 'c']);
    expect(things.c).toEqual({ name: 'small too' });
  });
});
