/**
 * `hearth app pack <folder> --store <dir>`: turns an app folder into a package (tar.gz with
 * app.json at its root) inside a local store folder and lists it in that store's index.json.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import * as tar from 'tar';
import { writeFileDurable } from '../core/durable-file.js';
import { invalid } from '../core/errors.js';
import { signIndex, SIGNATURE_SUFFIX } from './catalogue-key.js';
import { loadManifest } from './manifest.js';
import { readCatalogue, type Catalogue } from './store.js';

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

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Packs `folder` into `<storeDir>/<id>-<version>.tar.gz` and points `channel` of the app at it
 * in `<storeDir>/index.json` (created when absent; other apps and channels are kept).
 *
 * @example await packApp('./apps/com.hearth.sysmon', './data/store') // then install it by id
 */
export async function packApp(folder: string, storeDir: string, channel = 'stable', opts: { signKey?: string } = {}): Promise<PackResult> {
  const src = resolve(folder);
  const loaded = await loadManifest(src, { checkFolderName: false });
  if (!loaded.ok) throw invalid(`${src} is not a valid app: ${loaded.message}`);
  const { id, version, name: appName, description } = loaded.manifest;
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(channel)) throw invalid(`channel '${channel}' must be 1-32 letters, digits, _ or -`);
  const store = resolve(storeDir);
  await mkdir(store, { recursive: true });
  const name = `${id}-${version}.tar.gz`;
  const file = join(store, name);
  const tmp = join(store, `.${name}.${process.pid}.tmp`);
  const entries = (await readdir(src)).filter((e) => !SKIP.has(e));
  try {
    // portable: no uid/gid/uname, so the package is the same whoever packs it.
    await tar.c({ gzip: true, cwd: src, file: tmp, portable: true, filter: (p) => !p.split('/').some((s) => SKIP.has(s)) }, entries);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  const sha256 = await sha256Of(file);
  const { size } = await stat(file);
  const { catalogue } = await readCatalogue(store);
  const next: Catalogue = { apps: { ...catalogue.apps } };
  next.apps[id] = {
    name: appName,
    ...(description ? { description } : {}),
    channels: { ...(catalogue.apps[id]?.channels ?? {}), [channel]: { version, url: name, sha256 } },
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
