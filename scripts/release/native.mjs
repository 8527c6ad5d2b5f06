// better-sqlite3's native module for each release target, compiled on this machine with the
// target's toolchain (Debian's cross compilers for another architecture) against the headers of
// the target's Node build, so that a device installs with no compiler and no download but Node.
// Each module is built once and cached (HEARTH_RELEASE_CACHE, else ~/.cache/hearth-release):
// compiling SQLite takes a minute and a half.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { hostTarget } from './targets.mjs';

/** Where built modules and Node builds are kept between releases. */
export function cacheDir() {
  const dir = process.env.HEARTH_RELEASE_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hearth-release');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The npm registry's node-linux-<arch> package of the target's Node version, unpacked (bin/node,
 * include/node with the config.gypi node-gyp compiles with); fetched once.
 * @param {import('./targets.mjs').Target} target
 */
export function nodeBuild(target, cache = cacheDir()) {
  const dir = join(cache, `${target.nodePackage}-${target.node}`);
  if (existsSync(join(dir, 'include/node/node.h'))) return dir;
  const work = mkdtempSync(join(cache, '.node-'));
  try {
    const packed = execFileSync('npm', ['pack', `${target.nodePackage}@${target.node}`, '--pack-destination', work, '--json', '--silent'], {
      encoding: 'utf8',
    });
    const [{ filename }] = JSON.parse(packed);
    execFileSync('tar', ['-xzf', join(work, filename), '-C', work, '--no-same-owner']);
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(work, 'package'), dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

/**
 * The NODE_MODULE_VERSION of the target's Node (115 for every 20.x): a module built for it loads
 * in any Node that says the same.
 * @param {import('./targets.mjs').Target} target
 */
export function nodeAbi(target, cache = cacheDir()) {
  const header = readFileSync(join(nodeBuild(target, cache), 'include/node/node_version.h'), 'utf8');
  const abi = /#define NODE_MODULE_VERSION (\d+)/.exec(header)?.[1];
  if (!abi) throw new Error(`no NODE_MODULE_VERSION in ${target.nodePackage}@${target.node}'s node_version.h`);
  return abi;
}

/** node-gyp as npm carries it (what `npm rebuild` itself runs). */
function nodeGyp() {
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm && existsSync(fromNpm)) return fromNpm;
  const globalRoot = execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim();
  const file = join(globalRoot, 'npm/node_modules/node-gyp/bin/node-gyp.js');
  if (!existsSync(file)) throw new Error(`node-gyp is not where npm keeps it (${file})`);
  return file;
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Where the cache keeps better_sqlite3.node for `target`: by better-sqlite3's version (the
 * checkout's), the target and the Node build it is compiled against.
 * @param {import('./targets.mjs').Target} target
 * @param {{ root: string, cache?: string }} options
 */
export function addonCacheFile(target, { root, cache = cacheDir() }) {
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules/better-sqlite3/package.json'), 'utf8'));
  return join(cache, `better-sqlite3-${version}-${target.name}-node${target.node}.node`);
}

/**
 * better_sqlite3.node for `target`, built from the checkout's better-sqlite3 (its version is the
 * lockfile's) and checked to be an ELF module for the target's architecture.
 * @param {import('./targets.mjs').Target} target
 * @param {{ root: string, elfArch: (file: string) => string | null, cache?: string }} options
 */
export function sqliteAddon(target, { root, elfArch, cache = cacheDir() }) {
  const source = join(root, 'node_modules/better-sqlite3');
  const file = addonCacheFile(target, { root, cache });
  if (existsSync(file)) return file;

  const native = hostTarget().name === target.name;
  const prefix = native ? '' : `${target.cross}-`;
  if (!hasCommand(`${prefix}g++`)) {
    const pkg = native ? 'g++' : `g++-${target.cross.replaceAll('_', '-')}`;
    throw new Error(`compiling better-sqlite3 for ${target.name} needs ${prefix}g++ (apt-get install ${pkg} make python3)`);
  }
  const nodedir = nodeBuild(target, cache);
  const work = mkdtempSync(join(cache, '.build-'));
  try {
    const dir = join(work, 'better-sqlite3');
    cpSync(source, dir, { recursive: true, filter: (path) => !path.startsWith(join(source, 'build')) });
    const tools = native ? {} : { CC: `${prefix}gcc`, CXX: `${prefix}g++`, LINK: `${prefix}g++`, AR: `${prefix}ar` };
    const built = spawnSync(process.execPath, [nodeGyp(), 'rebuild', '--release', `--arch=${target.gypArch}`, `--nodedir=${nodedir}`], {
      cwd: dir,
      env: { ...process.env, ...tools },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
    if (built.status !== 0) throw new Error(`compiling better-sqlite3 for ${target.name} failed: ${built.stderr.slice(-1500)}`);
    const addon = join(dir, 'build/Release/better_sqlite3.node');
    // Symbols are for debugging here, not on an SD card.
    execFileSync(`${prefix}strip`, ['--strip-unneeded', addon]);
    const arch = elfArch(addon);
    if (arch !== target.elf) throw new Error(`the module compiled for ${target.name} is built for ${arch}`);
    // The build folder is in the cache's file system: one atomic rename, even when two releases race.
    renameSync(addon, file);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return file;
}
