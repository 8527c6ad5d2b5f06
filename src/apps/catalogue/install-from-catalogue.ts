/**
 * installFromAppStore: stage the package from the store (fetch, verify, extract, check the
 * manifest), stop the installed version if any, swap the folder into place, and start the new
 * version. Settings live in the store, not in the folder, so an upgrade keeps them.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { conflict, invalid } from '../../core/errors.js';
import type { App, AppRuntime } from '../host/runtime.js';
import { APP_ID } from '../manifest/manifest.js';
import { stageFromCatalogue } from './catalogue.js';
import { makeStaging, swapIntoPlace } from './install.js';
import type { CatalogueSource } from './key.js';

const installing = new Set<string>();

/**
 * Installs or upgrades app `id` from the store at `location`; the staging folder never stays.
 * An older version than the installed one is installed only when asked for by `version`: a
 * catalogue that lists an older release (a mistake, or an old one served again) never
 * downgrades an app on its own.
 */
export async function installFromCatalogue(
  rt: AppRuntime,
  from: string | CatalogueSource,
  id: string,
  channel = 'stable',
  /** `network`: the owner's grant of network access (app-record.ts); an upgrade keeps the app's without it. */
  opts: { version?: string; network?: boolean } = {},
): Promise<App> {
  // Checked before anything touches the disk: the id becomes part of folder names.
  if (!APP_ID.test(id) || id.length > 128) throw invalid(`'${id}' is not an app id: use the reverse-domain id from the store, e.g. com.example.app`);
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(channel)) throw invalid(`channel '${channel}' must be 1-32 letters, digits, _ or -`);
  if (installing.has(id)) throw conflict(`app '${id}' is being installed already`);
  if (rt.has(id) && rt.get(id).origin === 'local') {
    throw conflict(
      `'${id}' is a local app (its folder ${join(rt.appsDir, id)} is the app): installing it from the app store would replace that folder. Uninstall it first (its folder is kept aside), or move the folder out of the apps folder; nothing was changed`,
    );
  }
  installing.add(id);
  const staging = await makeStaging(rt.appsDir, id).catch((err: unknown) => {
    installing.delete(id);
    throw err;
  });
  try {
    const staged = await stageFromCatalogue(from, id, channel, staging);
    if (opts.version !== undefined && staged.version !== opts.version) {
      throw conflict(`the app store offers '${id}' ${staged.version} on channel '${channel}', not ${opts.version}; nothing was changed`);
    }
    const installed = rt.has(id) ? rt.get(id).version : null;
    if (installed !== null && opts.version === undefined && semver.valid(installed) && semver.lt(staged.version, installed)) {
      throw conflict(
        `'${id}' ${installed} is installed and the app store offers the older ${staged.version} on channel '${channel}'; an app is downgraded only when that version is asked for ({"id": "${id}", "version": "${staged.version}"}); nothing was changed`,
      );
    }
    await rt.pause(id);
    try {
      await swapIntoPlace(rt.appsDir, id, staged.dir);
    } catch (err) {
      await rt.resume(id); // the old version is back in place: run it again
      throw err;
    }
    await rt.add(id, 'appstore', channel, true, opts.network);
    await rt.resume(id);
    return rt.get(id);
  } finally {
    installing.delete(id);
    await rm(staging, { recursive: true, force: true });
  }
}
