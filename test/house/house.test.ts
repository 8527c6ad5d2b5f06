/**
 * Every manager folder has one shape (docs/architecture.md): `contract.ts`, `operations.ts` and
 * `index.ts`, and its other files under the shared names (the SDK calls in `sdk.ts`, the shapes
 * in `views.ts`); no name is used for two roles (`app-side.ts`, `schema.ts`, `records.ts`), and
 * core is the framework alone (Homey's model of a home is in src/home).
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/hub.js';

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(path)));
    else out.push(relative(ROOT, path));
  }
  return out;
}

describe('the house', () => {
  it('gives every manager folder a contract, its operations and an index', async () => {
    const managers = join(ROOT, 'src/managers');
    const missing: string[] = [];
    for (const entry of await readdir(managers, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const names = await readdir(join(managers, entry.name));
      for (const needed of ['contract.ts', 'operations.ts', 'index.ts']) if (!names.includes(needed)) missing.push(`${entry.name}/${needed}`);
    }
    expect(missing).toEqual([]);
  });

  it('names each role once: no app-side.ts, schema.ts or records.ts, and no model of the home in core', async () => {
    const all = await files(join(ROOT, 'src'));
    expect(all.filter((f) => /\/(app-side|schema|records)\.ts$/.test(f))).toEqual([]);
    expect(all.filter((f) => /^src\/core\/(capability|capability-table|fraction-capabilities|device-choice|sun)\.ts$/.test(f))).toEqual([]);
  });
});
