/**
 * The example apps arrive once, when the hub makes its apps folder: a fresh clone's `npm start`
 * and a fresh install get them, and after that the folder is the owner's. They are never run
 * from examples/ itself, so what a user puts in the apps folder stays out of the repository, the
 * tests (each hub gets a folder of its own) and the releases (which carry examples/ only).
 */
import { cp, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { exists, makeDirs } from '../../core/files.js';
import { EXAMPLES_ROOT } from '../../layout.js';

/**
 * Makes `appsDir` when it does not exist, with a copy of each example app; resolves with the
 * ids copied (none when the folder was there). Each copy lands in one rename from a
 * `.install-` folder, which recoverInterrupted() removes if the hub dies half-way.
 */
export async function makeAppsFolder(appsDir: string, examples = EXAMPLES_ROOT): Promise<string[]> {
  if (await exists(appsDir)) return [];
  await makeDirs(appsDir);
  const ids = (await readdir(examples, { withFileTypes: true }).catch(() => []))
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .map((d) => d.name)
    .sort();
  for (const id of ids) {
    const staging = join(appsDir, `.install-example-${id}`);
    await rm(staging, { recursive: true, force: true });
    await cp(join(examples, id), staging, { recursive: true, filter: (src) => !src.split('/').includes('node_modules') });
    await rename(staging, join(appsDir, id));
  }
  return ids;
}
