/**
 * `hearth app pack <folder> --store <dir>`: turns a Homey app folder into a package (tar.gz with
 * app.json at its root) inside a local store folder and lists it in that store's index.json.
 * A Homey Compose folder is built first (app.json and locales written into the package, as
 * `homey app build` does), and the main module must load as the hub will load it.
 */
import { spawn } from 'node:child_process';
import { cp, lstat, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join, relative, resolve } from 'node:path';
import * as tar from 'tar';
import { writeFileDurable } from '../../core/durable-file.js';
import { invalid } from '../../core/errors.js';
import { makeDirs, sha256File } from '../../core/files.js';
import { runtimeDir } from '../host/child.js';
import { prepareAppsFolder } from '../host/sdk-link.js';
import { type AppFolder, loadAppFolder } from '../manifest/compose.js';
import { MANIFEST_FILE, mainModule } from '../manifest/manifest.js';
import { type Catalogue, ICON_MAX_BYTES, readCatalogue } from './catalogue.js';
import { SIGNATURE_SUFFIX, signIndex } from './key.js';

export interface PackResult {
  id: string;
  version: string;
  channel: string;
  /** Absolute path of the package written. */
  file: string;
  sha256: string;
  size: number;
}

/** Version-control and editor droppings never belong in a package. */
const SKIP = new Set(['.git', '.hg', '.svn', '.DS_Store', '.vscode', '.idea']);
/** How long the main module may take to load in the check. */
const LOAD_TIMEOUT_MS = 15_000;

/** Refuses what a package may not hold (the hub refuses it at install): anything but files and folders. */
async function checkEntries(root: string, dir = root): Promise<void> {
  for (const name of await readdir(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    const info = await lstat(path);
    if (info.isDirectory()) await checkEntries(root, path);
    else if (!info.isFile())
      throw invalid(`${relative(root, path)} is ${info.isSymbolicLink() ? 'a symlink' : 'not a file'}; a package holds only files and folders`);
  }
}

/** A hint for the usual reason a main module does not load: CommonJS and ES module syntax mixed up. */
function moduleHint(stderr: string): string {
  if (/require is not defined|module is not defined|Cannot use import statement|Unexpected token 'export'/.test(stderr)) {
    return ' (CommonJS uses require and module.exports in app.js; an ES module uses import and export default, in app.mjs with "esm": true in app.json, or in app.js beside a package.json with "type": "module")';
  }
  return '';
}

/** Loads `main` of the app in `appDir` (inside an apps folder prepared as the hub's) in a child node. */
function checkMainLoads(appDir: string, main: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(runtimeDir(), 'check-main.js'), join(appDir, main)], {
      cwd: appDir,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: LOAD_TIMEOUT_MS,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolvePromise();
      const why = signal ? `it did not finish loading within ${LOAD_TIMEOUT_MS / 1000} s` : stderr.trim().split('\n').filter(Boolean).slice(-3).join(' / ');
      reject(invalid(`the main module ${main} cannot load: ${why}${moduleHint(stderr)}`));
    });
  });
}

/** Writes what compose made (app.json and locales) into the staged copy of a compose folder. */
async function writeComposed(appDir: string, folder: AppFolder): Promise<void> {
  await writeFile(join(appDir, MANIFEST_FILE), `${JSON.stringify(folder.manifest.raw, null, 2)}\n`);
  await makeDirs(join(appDir, 'locales'));
  for (const [language, strings] of Object.entries(folder.locales)) {
    await writeFile(join(appDir, 'locales', `${language}.json`), `${JSON.stringify(strings, null, 2)}\n`);
  }
}

const ICON_TYPES: Record<string, string> = { '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp' };

/** The app's icon as a data URL for the catalogue, or null (none, unreadable, or over ICON_MAX_BYTES). */
export async function iconDataUrl(folder: string, icon: string | undefined): Promise<string | null> {
  const type = icon ? ICON_TYPES[extname(icon).toLowerCase()] : undefined;
  if (!icon || !type) return null;
  const bytes = await readFile(join(folder, icon)).catch(() => null);
  return bytes && bytes.length <= ICON_MAX_BYTES ? `data:${type};base64,${bytes.toString('base64')}` : null;
}

/**
 * Packs `folder` into `<storeDir>/<id>-<version>.tar.gz` and points `channel` of the app at it
 * in `<storeDir>/index.json` (created when absent; other apps and channels are kept).
 *
 * @example await packApp('./examples/com.hearth.sysmon', './data/store') // then install it by id
 */
export async function packApp(folder: string, storeDir: string, channel = 'stable', opts: { signKey?: string } = {}): Promise<PackResult> {
  const src = resolve(folder);
  const loaded = await loadAppFolder(src, { checkFolderName: false });
  if (!loaded.ok) throw invalid(`${src} is not a valid app: ${loaded.message}`);
  const { id, version, name: appName, description, permissions, brandColor } = loaded.folder.manifest;
  const icon = await iconDataUrl(src, loaded.folder.manifest.icon);
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(channel)) throw invalid(`channel '${channel}' must be 1-32 letters, digits, _ or -`);
  await checkEntries(src);
  const store = resolve(storeDir);
  await makeDirs(store);
  const name = `${id}-${version}.tar.gz`;
  const file = join(store, name);
  const tmp = join(store, `.${name}.${process.pid}.tmp`);
  // The package is made from a copy inside an apps folder prepared as the hub's: compose writes
  // into the copy, and the main module loads there as it will on the hub.
  const staging = await mkdtemp(join(tmpdir(), 'hearth-pack-'));
  try {
    const appDir = join(staging, id);
    await cp(src, appDir, { recursive: true, filter: (p) => !SKIP.has(basename(p)) });
    if ((await stat(join(src, MANIFEST_FILE)).catch(() => null)) === null) await writeComposed(appDir, loaded.folder);
    await prepareAppsFolder(staging);
    const main = mainModule(loaded.folder.manifest, appDir);
    if (main !== null) await checkMainLoads(appDir, main);
    // portable: no uid/gid/uname, so the package is the same whoever packs it.
    await tar.c({ gzip: true, cwd: appDir, file: tmp, portable: true }, await readdir(appDir));
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const sha256 = await sha256File(file);
  const { size } = await stat(file);
  const { catalogue } = await readCatalogue(store);
  // Each change makes a newer catalogue: hubs refuse one older than they have seen (store.ts).
  const next: Catalogue = { sequence: (catalogue.sequence ?? 0) + 1, publishedAt: new Date().toISOString(), apps: { ...catalogue.apps } };
  next.apps[id] = {
    name: appName,
    ...(description ? { description } : {}),
    ...(icon ? { icon } : {}),
    ...(brandColor ? { brandColor } : {}),
    // The permissions travel with the release: a person sees them before installing, and the hub
    // refuses a package that asks for others than listed here (store.ts).
    channels: { ...(catalogue.apps[id]?.channels ?? {}), [channel]: { version, url: name, sha256, permissions } },
  };
  const index = Buffer.from(`${JSON.stringify(next, null, 2)}\n`);
  // Signed before anything is written, so a bad key leaves the catalogue as it was.
  const signature = opts.signKey ? signIndex(index, opts.signKey) : null;
  await writeFileDurable(join(store, 'index.json'), index);
  if (signature) await writeFileDurable(join(store, `index.json${SIGNATURE_SUFFIX}`), signature);
  // An index changed without its key keeps no signature that no longer holds.
  else await rm(join(store, `index.json${SIGNATURE_SUFFIX}`), { force: true });
  return { id, version, channel, file, sha256, size };
}
