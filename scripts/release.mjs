// `npm run release [out] [--target linux-arm64 ...] [--no-build]`: one tarball per target,
// `hearth-<version>-linux-<x64|arm64|armhf>.tgz`, with everything a device runs and nothing it
// has to compile or download but Node.js itself: the built dist/ (web app included), the
// example apps, systemd/, scripts/, package.json, the lockfile, release.json (what the release is
// for), and node_modules with the production dependencies, better-sqlite3's native module
// compiled for the target (scripts/release/native.mjs). Everything sits under
// `hearth-<version>/`; modes are kept, owners are not. Without --target, all three.
// Prints one JSON line per tarball: {"target", "file", "size"}.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { create } from 'tar';
import { nodeAbi, sqliteAddon } from './release/native.mjs';
import { TARGETS, target } from './release/targets.mjs';

const root = resolve(import.meta.dirname, '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const args = process.argv.slice(2);
const named = args.flatMap((a, i) => (args[i - 1] === '--target' ? a.split(',') : []));
const out = resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--target') ?? root);
const targets = named.length > 0 ? named.map(target) : TARGETS;

function run(command, commandArgs, cwd) {
  const done = spawnSync(command, commandArgs, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (done.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} failed in ${cwd}`);
}

// --no-build: dist/ is fresh already (the tests, which just built it).
if (!args.includes('--no-build')) run('npm', ['run', 'build'], root);
const { elfArch } = await import('../dist/core/native-module.js');

const RELEASE_ENTRIES = ['dist', 'examples', 'systemd', 'scripts', 'package.json', 'package-lock.json', 'README.md', 'docs'];
const stage = mkdtempSync(join(tmpdir(), 'hearth-release-'));
try {
  const app = join(stage, 'app');
  // Logs are this checkout's; its own dependencies come from the lockfile below.
  const skip = /(^|\/)(node_modules|\.git)(\/|$)|\.log$/;
  for (const entry of RELEASE_ENTRIES) {
    cpSync(join(root, entry), join(app, entry), { recursive: true, verbatimSymlinks: true, filter: (p) => !skip.test(relative(root, p)) });
  }
  // The lockfile's production dependencies, as JavaScript: nothing compiles here.
  run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], app);
  const modules = join(app, 'node_modules');
  // npm 10 (hearth's own, first on PATH under `npm run`) leaves the scope folders of development
  // packages it skipped, empty: nothing of them belongs in a release.
  for (const scope of readdirSync(modules).filter((n) => n.startsWith('@'))) {
    if (readdirSync(join(modules, scope)).length === 0) rmSync(join(modules, scope), { recursive: true });
  }
  // matter.js ships its TypeScript sources and a CommonJS build beside the ES modules the Matter
  // app imports (83 of its 141 MB): a device needs the ES modules only (the installation test
  // imports them from the release).
  for (const pkg of readdirSync(join(modules, '@matter'))) {
    for (const dir of ['src', 'dist/cjs']) rmSync(join(modules, '@matter', pkg, dir), { recursive: true, force: true });
  }
  const sqlite = join(modules, 'better-sqlite3');
  // Its C sources (10 MB) are for compiling, which a device never does.
  for (const dir of ['deps', 'src', 'build']) rmSync(join(sqlite, dir), { recursive: true, force: true });
  const stray = readdirSync(modules, { recursive: true }).filter((p) => String(p).endsWith('.node'));
  if (stray.length > 0) throw new Error(`a dependency carries a native module the release does not build: ${stray.join(', ')}`);

  for (const t of targets) {
    const addon = join(sqlite, 'build/Release/better_sqlite3.node');
    cpSync(sqliteAddon(t, { root, elfArch }), addon);
    const major = Number(t.node.split('.')[0]);
    const release = { version, target: t.name, arch: t.arch, dpkgArchitecture: t.dpkg, node: { major, abi: nodeAbi(t), builtAgainst: t.node } };
    writeFileSync(join(app, 'release.json'), `${JSON.stringify(release, null, 2)}\n`);
    const file = join(out, `hearth-${version}-${t.name}.tgz`);
    // V8's code cache of the bundle is for the build machine's architecture; another's would
    // crash the hub (scripts/bundle-loader.mjs), so a foreign target's hub compiles at start.
    const ownCache = `dist/hearth-${t.elf}.cache`;
    const filter = (path) => !/^dist\/hearth-\w+\.cache$/.test(path) || path === ownCache;
    await create({ gzip: true, file, cwd: app, portable: true, prefix: `hearth-${version}/`, filter }, readdirSync(app));
    console.log(JSON.stringify({ target: t.name, file, size: statSync(file).size }));
  }
} finally {
  rmSync(stage, { recursive: true, force: true });
}
