/**
 * Prepares the apps folder so every app in it runs the same wherever the folder is:
 * - `node_modules/homey` links to hearth's SDK (dist/homey): `require('homey')` and
 *   `import Homey from 'homey'` resolve to it in every app folder, CommonJS and ES modules alike,
 *   with or without a package.json of the app's own. Node loads it by its real path, so the app
 *   gets the very module instance the bootstrap built its Homey from.
 * - `package.json` (no "type"): an app without a package.json of its own is CommonJS, as on
 *   Homey, even when the apps folder sits inside a project whose package.json says "module"
 *   (the checkout's own ./apps does): Node stops looking at the nearest package.json.
 * - `node_modules/.homey-for-es-modules`: a package named homey whose module is the SDK (by its
 *   absolute path). An app that ships Athom's `homey` npm package (the command-line tool) gets
 *   this folder mounted over its own in its namespace (sandbox.ts): Node resolves an ES module's
 *   `import Homey from 'homey'` to the app's copy before the apps folder's link, and Node 20 gives
 *   no hook that could say otherwise inside the permission model (CommonJS apps are answered by
 *   homey-module.ts). Without namespaces such an app gets what it ships.
 * All are made again at every start (a release upgrade moves dist).
 */
import { rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirs, replaceLink } from '../../core/files.js';
import { appRuntimeDirs } from '../../layout.js';

/** The apps folder's folder that holds the link: the hub's own, never an app's (nor backed up). */
export const SDK_MODULES_DIR = 'node_modules';

/** The folder, beside the SDK link, mounted over an app's own `node_modules/homey`. */
export const ES_MODULE_SHIM = '.homey-for-es-modules';

/** dist/homey: the SDK beside the bootstrap. */
export const sdkDir = (): string => appRuntimeDirs().sdk;

const FOLDER_PACKAGE = `${JSON.stringify(
  {
    private: true,
    description: "hearth's apps folder: apps without a package.json of their own are CommonJS here; node_modules/homey is hearth's Homey SDK",
  },
  null,
  2,
)}\n`;

/**
 * Makes the SDK link (replaced in one rename) and the folder's package.json. Resolves with the
 * link and the folder holding it, which apps may read: Node's CommonJS loader looks for
 * `homey.js`, `homey.json`, ... beside the link before it takes the folder, and before Node 20.20
 * a look the permission model refused there failed `require('homey')` (Debian 13's Node 20.19
 * found no SDK for CommonJS apps).
 */
export async function prepareAppsFolder(appsDir: string): Promise<{ link: string; modules: string }> {
  const modules = join(appsDir, SDK_MODULES_DIR);
  await makeDirs(modules);
  await writeFile(join(appsDir, 'package.json'), FOLDER_PACKAGE);
  const link = join(modules, 'homey');
  if (!(await replaceLink(sdkDir(), link))) {
    // A real folder of that name (someone put one there): the SDK's name is the hub's.
    await rm(link, { recursive: true, force: true });
    await symlink(sdkDir(), link, 'dir');
  }
  await writeShim(join(modules, ES_MODULE_SHIM));
  return { link, modules };
}

/** The ES module shim: `require` of the SDK's real path, so it is the bootstrap's own instance. */
async function writeShim(dir: string): Promise<void> {
  await makeDirs(dir);
  const main = join(sdkDir(), 'index.cjs');
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'homey', private: true, main: 'index.cjs' }, null, 2)}\n`);
  await writeFile(
    join(dir, 'index.cjs'),
    `// hearth's Homey SDK, for an app that ships a package named homey (see the apps folder's package.json).\nmodule.exports = require(${JSON.stringify(main)});\n`,
  );
}
