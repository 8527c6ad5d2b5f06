/**
 * Putting an app folder into the apps folder and taking it out again. A staged install is
 * renamed into place (same file system, so the new folder appears whole or not at all); an
 * upgrade first renames the old folder aside and restores it if the swap fails. Leftovers of
 * an interrupted install (`.install-*`, `.old-*`, `.trash-*`) are cleaned up at the next start.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from '../../core/durable-file.js';
import { exists, makeDirs } from '../../core/files.js';

/** A fresh, empty staging folder inside the apps folder (hidden: the runtime skips dot-folders). */
export function makeStaging(appsDir: string, id: string): Promise<string> {
  return mkdtemp(join(appsDir, `.install-${id}-`));
}

/** Moves `staged` to `<appsDir>/<id>`, replacing what was there. */
export async function swapIntoPlace(appsDir: string, id: string, staged: string): Promise<void> {
  const target = join(appsDir, id);
  const aside = join(appsDir, `.old-${id}-${randomBytes(4).toString('hex')}`);
  const hadOld = await exists(target);
  if (hadOld) await rename(target, aside);
  try {
    await rename(staged, target);
  } catch (err) {
    if (hadOld) await rename(aside, target);
    throw err;
  }
  await fsyncDir(appsDir);
  if (hadOld) await rm(aside, { recursive: true, force: true });
}

/** Removes `<appsDir>/<id>` by renaming it aside first, so a half-deleted app is never listed. */
export async function removeApp(appsDir: string, id: string): Promise<void> {
  const target = join(appsDir, id);
  if (!(await exists(target))) return;
  // '.trash-' rather than '.old-': recovery must delete it, not bring the app back.
  const aside = join(appsDir, `.trash-${id}-${randomBytes(4).toString('hex')}`);
  await rename(target, aside);
  await fsyncDir(appsDir);
  await rm(aside, { recursive: true, force: true });
}

/**
 * Takes a local app's folder out of the apps folder without losing it: moved to `keepDir`
 * (`<data-dir>/removed-apps/<id>-<time>`), since a local app's folder may be the only copy of a
 * developer's work. Resolves with where it went.
 */
export async function keepAppAside(appsDir: string, id: string, keepDir: string): Promise<string | null> {
  const target = join(appsDir, id);
  if (!(await exists(target))) return null;
  const kept = join(keepDir, `${id}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await makeDirs(keepDir);
  try {
    await rename(target, kept);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    // Another file system: copy, then remove the original the way removeApp does.
    await cp(target, kept, { recursive: true, verbatimSymlinks: true });
    await removeApp(appsDir, id);
  }
  await fsyncDir(appsDir);
  return kept;
}

/**
 * Cleans up after a hub that died mid-install: staging folders go; an app folder renamed
 * aside comes back if nothing replaced it, otherwise it goes too.
 */
export async function recoverInterrupted(appsDir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(appsDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('.install-') || name.startsWith('.trash-')) await rm(join(appsDir, name), { recursive: true, force: true });
    const old = /^\.old-(.+)-[0-9a-f]{8}$/.exec(name);
    if (old?.[1]) {
      const target = join(appsDir, old[1]);
      if (await exists(target)) await rm(join(appsDir, name), { recursive: true, force: true });
      else await rename(join(appsDir, name), target);
    }
  }
}
