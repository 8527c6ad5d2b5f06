/**
 * The web app calls the hub's managers through its typed client only (src/web/client.ts), whose
 * routes the web build makes from the managers' contracts: no manager path is written by hand in
 * src/web, so a renamed operation fails the build instead of a page.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB = join(import.meta.dirname, '../../src/web');

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(p)));
    else if (/\.(ts|tsx)$/.test(e.name)) out.push(p);
  }
  return out;
}

describe('the web app and the API', () => {
  it('writes no /api/manager path by hand', async () => {
    const found: string[] = [];
    for (const file of await sources(WEB)) {
      const lines = (await readFile(file, 'utf8')).split('\n');
      for (const [i, line] of lines.entries()) if (line.includes('/api/manager')) found.push(`${file.slice(WEB.length + 1)}:${i + 1}`);
    }
    expect(found).toEqual([]);
  });
});
