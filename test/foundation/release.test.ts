/**
 * `npm run release` makes one tarball with what a device runs: the built dist/ (web app
 * included), the example apps, systemd/, scripts/, package.json and the lockfile; no sources,
 * tests or dependencies.
 */
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { list } from 'tar';
import { afterAll, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/hub.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

it('packs everything a device runs under hearth-<version>/, and nothing else', async () => {
  const out = await tempDir('hearth-release-');
  dirs.push(out);
  const printed = JSON.parse(
    execFileSync(process.execPath, [join(ROOT, 'scripts/release.mjs'), out, '--no-build'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!,
  ) as { file: string };
  const { version } = (await import(join(ROOT, 'package.json'), { with: { type: 'json' } })).default as { version: string };
  expect(printed.file).toBe(join(out, `hearth-${version}.tgz`));
  const paths: string[] = [];
  await list({ file: printed.file, onReadEntry: (e) => void paths.push(e.path) });
  const prefix = `hearth-${version}/`;
  expect(paths.every((p) => p.startsWith(prefix))).toBe(true);
  const inside = new Set(paths.map((p) => p.slice(prefix.length)));
  for (const needed of [
    'package.json',
    'package-lock.json',
    'dist/cli.js',
    'dist/apps/bootstrap.cjs',
    // The app SDK an app's require('homey') reaches: without its package.json no app starts.
    'dist/homey/package.json',
    'dist/homey/index.cjs',
    'dist/web/index.html',
    'dist/web/homey-widget.js',
    'apps/com.hearth.greeter/app.json',
    'systemd/hearth.service',
    'scripts/install.sh',
  ]) {
    expect(inside.has(needed), needed).toBe(true);
  }
  expect([...inside].filter((p) => /^(src|test|node_modules)\//.test(p) || p.includes('/node_modules/'))).toEqual([]);
});
