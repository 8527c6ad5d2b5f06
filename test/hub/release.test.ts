/**
 * `npm run release` makes one tarball per target with what a device runs: the built dist/ (web
 * app included), the example apps (examples/; never the apps folder, which is the user's),
 * systemd/, scripts/, package.json, the lockfile, release.json, and the production dependencies
 * with better-sqlite3's native module built for the target (its C sources left out); no sources,
 * tests or development dependencies. (The arm targets' tarballs are installed by the emulated
 * installation test, which cross-compiles them.)
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

it("packs everything a device runs under hearth-<version>/, and nothing else: no app of the user's", { timeout: 10 * 60_000 }, async () => {
  const out = await tempDir('hearth-release-');
  dirs.push(out);
  // An app of the user's in the checkout's apps folder (where `npm start` runs apps from).
  // Made here, the folder goes again: a fresh clone's first `npm start` makes it with the examples.
  const personal = join(ROOT, 'apps', `com.test.personal${process.pid}`);
  dirs.push(existsSync(join(ROOT, 'apps')) ? personal : join(ROOT, 'apps'));
  await mkdir(personal, { recursive: true });
  await writeFile(join(personal, 'app.json'), '{"id": "com.test.personal"}');
  const printed = JSON.parse(
    execFileSync(process.execPath, [join(ROOT, 'scripts/release.mjs'), out, '--no-build', '--target', 'linux-x64'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!,
  ) as { target: string; file: string };
  const { version } = (await import(join(ROOT, 'package.json'), { with: { type: 'json' } })).default as { version: string };
  expect(printed).toMatchObject({ target: 'linux-x64', file: join(out, `hearth-${version}-linux-x64.tgz`) });
  const paths: string[] = [];
  let release = '';
  await list({
    file: printed.file,
    onReadEntry: (e) => {
      paths.push(e.path);
      if (e.path.endsWith('/release.json')) e.on('data', (d: Buffer) => (release += d.toString()));
    },
  });
  expect(JSON.parse(release)).toEqual({
    version,
    target: 'linux-x64',
    arch: 'x64',
    dpkgArchitecture: 'amd64',
    node: { major: 20, abi: '115', builtAgainst: '20.20.2' },
  });
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
    'release.json',
    'node_modules/hono/package.json',
    'node_modules/better-sqlite3/lib/index.js',
    'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    // V8's code cache of the bundle, made by the build on this x86-64 machine.
    'dist/hearth-x64.cache',
  ]) {
    expect(inside.has(needed), needed).toBe(true);
  }
  expect([...inside].filter((p) => /^(src|test|apps|data)\//.test(p) || /\/node_modules\/.*\/node_modules\/\.cache|\.log$/.test(p))).toEqual([]);
  // Production dependencies only, and no C sources or build leftovers.
  expect([...inside].filter((p) => /^node_modules\/(vitest|typescript|@biomejs|esbuild|playwright-core)\//.test(p))).toEqual([]);
  expect([...inside].filter((p) => /^node_modules\/better-sqlite3\/(deps|src)\//.test(p))).toEqual([]);
  expect([...inside].filter((p) => p.endsWith('.node'))).toEqual(['node_modules/better-sqlite3/build/Release/better_sqlite3.node']);
});
