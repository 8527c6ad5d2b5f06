// `npm start` on a checkout: builds only when a source is newer than the last build, so a start
// costs the build (10 s here, minutes on a Pi) only after a change. The last complete build
// leaves dist/.built (written by `npm run build` as its last step: `--stamp`); anything under
// src/ or scripts/, package.json, the lockfile or a tsconfig newer than it means build again.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const stamp = join(root, 'dist/.built');

const sources = [
  'src',
  'scripts/build-web.mjs',
  'scripts/build-sdk.mjs',
  'scripts/build-daemon.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const newestSource = () => Math.max(...sources.map((s) => newest(join(root, s))));

if (process.argv.includes('--stamp')) {
  // The command `hearth` (package.json's bin): tsc writes it without the execute bit, and
  // `npx hearth` in a checkout then fails with "Permission denied".
  if (existsSync(join(root, 'dist/cli.js'))) chmodSync(join(root, 'dist/cli.js'), 0o755);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  // Never older than what it was built from: a source dated ahead (clock skew, an unpacked
  // archive) would otherwise mean a build at every start.
  // Rounded up: a Date holds whole milliseconds, and an mtime in ms is a float (x.9999 would
  // truncate to before the source it was built from).
  const at = new Date(Math.max(Date.now(), Math.ceil(newestSource()) + 1));
  utimesSync(stamp, at, at);
  process.exit(0);
}

/** The newest modification time under `path` (a file or a folder), or 0 when absent. */
function newest(path) {
  let info;
  try {
    info = statSync(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

const built = newest(stamp);
const changed = sources.find((s) => newest(join(root, s)) > built);
if (built === 0 || changed) {
  console.error(built === 0 ? 'hearth: no complete build yet; building' : `hearth: ${changed} changed since the last build; building`);
  const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
