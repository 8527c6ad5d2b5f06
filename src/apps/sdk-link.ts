/**
 * Makes `require('homey')` and `import Homey from 'homey'` resolve to hearth's SDK in every app:
 * `<apps-dir>/node_modules/homey` is a link to the SDK (dist/homey). Node looks for a package in
 * the node_modules folders above the importing file, so every app folder in the apps folder finds
 * it, CommonJS and ES modules alike, with or without a package.json of its own; Node loads it by
 * its real path, so the app gets the very module instance the bootstrap built its Homey from.
 * The link is made again at every start (a release upgrade moves dist).
 */
import { mkdir, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { runtimeDir } from './child.js';

/** The apps folder's folder that holds the link: the hub's own, never an app's (nor backed up). */
export const SDK_MODULES_DIR = 'node_modules';

/** dist/homey: the SDK beside the bootstrap. */
export const sdkDir = (): string => join(runtimeDir(), '..', 'homey');

/**
 * Creates or replaces the link in one rename. Resolves with the folder holding it, which apps
 * may read: Node's CommonJS loader looks for `homey.js`, `homey.json`, ... beside the link
 * before it takes the folder, and before Node 20.20 a look the permission model refused there
 * failed `require('homey')` (Debian 13's Node 20.19 found no SDK for CommonJS apps).
 */
export async function ensureSdkLink(appsDir: string): Promise<string> {
  const modules = join(appsDir, SDK_MODULES_DIR);
  await mkdir(modules, { recursive: true });
  const link = join(modules, 'homey');
  const temp = join(modules, `.homey-${process.pid}-${Date.now()}`);
  await rm(temp, { force: true });
  await symlink(sdkDir(), temp, 'dir');
  try {
    await rename(temp, link);
  } catch (err) {
    // A real folder of that name (someone put one there) cannot be replaced by a rename.
    await rm(temp, { force: true });
    if ((err as NodeJS.ErrnoException).code !== 'EISDIR' && (err as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw err;
    await rm(link, { recursive: true, force: true });
    await symlink(sdkDir(), link, 'dir');
  }
  return modules;
}
