// `npm run release`: one tarball, `hearth-<version>.tgz`, with everything a device needs to run
// the hub and nothing it would have to compile but better-sqlite3's native module: the built
// dist/ (web app included), the example apps, systemd/, scripts/, package.json and the lockfile
// (`npm pack` leaves the lockfile out, and install.sh runs `npm ci --omit=dev` from it).
// Everything sits under `hearth-<version>/`; modes are kept, owners are not.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { create } from 'tar';

const root = resolve(import.meta.dirname, '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const args = process.argv.slice(2);
const out = resolve(args.find((a) => !a.startsWith('--')) ?? root);

// --no-build: dist/ is fresh already (the tests, which just built it).
if (!args.includes('--no-build')) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const RELEASE_ENTRIES = ['dist', 'examples', 'systemd', 'scripts', 'package.json', 'package-lock.json', 'README.md', 'docs'];
const file = join(out, `hearth-${version}.tgz`);
const prefix = `hearth-${version}/`;
await create(
  {
    gzip: true,
    file,
    cwd: root,
    portable: true,
    prefix,
    // Dependencies are installed on the device (npm ci --omit=dev); logs are this checkout's.
    filter: (path) => !/(^|\/)(node_modules|\.git)(\/|$)/.test(path) && !path.endsWith('.log'),
  },
  RELEASE_ENTRIES,
);
console.log(JSON.stringify({ file, size: statSync(file).size }));
