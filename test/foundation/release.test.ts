/**
 * `npm run release` makes one tarball with what a device runs: the built dist/ (web app
 * included), the example apps (examples/; never the apps folder, which is the user's), systemd/, scripts/, package.json and the lockfile; no sources,
 * tests or dependencies.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { list } from 'tar';
import { afterAll, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/hub.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

it("packs everything a device runs under hearth-<version>/, and nothing else: no app of the user's", async () => {
  const out = await tempDir('hearth-release-');
  dirs.push(out);
  // An app of the user's in the checkout's apps folder (where `npm start` runs apps from).
  // Made here, the folder goes again: a fresh clone's first `npm start` makes it with the examples.
  const personal = join(ROOT, 'apps', `com.test.personal${process.pid}`);
  dirs.push(existsSync(join(ROOT, 'apps')) ? personal : join(ROOT, 'apps'));
  await mkdir(personal, { recursive: true });
  await writeFile(join(personal, 'app.json'), '{"id": "com.test.personal"}');
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
    'examples/com.hearth.greeter/app.json',
    'examples/com.hearth.sysmon/app.json',
    'systemd/hearth.service',
    'scripts/install.sh',
  ]) {
    expect(inside.has(needed), needed).toBe(true);
  }
  expect([...inside].filter((p) => /^(src|test|node_modules|apps|data)\//.test(p) || p.includes('/node_modules/'))).toEqual([]);
});
