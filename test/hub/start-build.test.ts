/**
 * `npm start` on a checkout builds only when a source is newer than the last complete build
 * (scripts/build-if-stale.mjs), run in a copy of the repository's layout whose build only counts.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/hub.js';

let repo: string;
beforeAll(async () => {
  repo = await tempDir('hearth-start-build-');
  await mkdir(join(repo, 'scripts'));
  await mkdir(join(repo, 'src'));
  await copyFile(join(ROOT, 'scripts/build-if-stale.mjs'), join(repo, 'scripts/build-if-stale.mjs'));
  await writeFile(join(repo, 'src/a.ts'), 'export {};\n');
  // A build that only counts itself, then stamps as the real one does.
  const build = `node -e "require('fs').appendFileSync('builds.txt', 'x')" && node -e "require('fs').mkdirSync('dist', {recursive: true})" && node scripts/build-if-stale.mjs --stamp`;
  await writeFile(join(repo, 'package.json'), JSON.stringify({ name: 'x', private: true, scripts: { build } }));
});
afterAll(() => rm(repo, { recursive: true, force: true }));

const start = (): number => spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: repo, stdio: 'ignore' }).status ?? -1;
const builds = async (): Promise<number> => (await readFile(join(repo, 'builds.txt'), 'utf8').catch(() => '')).length;

it('builds when there is no build, not again while nothing changed, and again after a change', async () => {
  expect(start()).toBe(0);
  expect(await builds()).toBe(1);
  expect(start()).toBe(0);
  expect(await builds()).toBe(1);
  const later = new Date(Date.now() + 60_000);
  await utimes(join(repo, 'src/a.ts'), later, later);
  expect(start()).toBe(0);
  expect(await builds()).toBe(2);
  expect(start()).toBe(0);
  expect(await builds()).toBe(2);
});
