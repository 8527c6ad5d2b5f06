/**
 * Automatic updates: apps installed from the store with `autoupdate: true` are upgraded when
 * their channel in the catalogue lists a newer version. The apps manager runs a check shortly
 * after start and then daily; a failed upgrade is logged and leaves the installed version running.
 */
import type { Logger } from 'pino';
import semver from 'semver';
import type { AppRuntime } from '../host/runtime.js';
import { readCatalogue } from './catalogue.js';
import { installFromCatalogue } from './install-from-catalogue.js';
import { automaticUpdates, type CatalogueSource, sourceOf } from './key.js';

/**
 * Orders two semantic versions by semver's precedence rules (the `semver` package): numeric
 * pre-release parts compare as numbers (1.0.0-beta.10 > 1.0.0-beta.9), a pre-release sorts
 * before its release, build metadata is ignored. Both must be valid: manifests and catalogues
 * are checked with `Version` (manifest.ts) before a version gets here.
 */
export function compareVersions(a: string, b: string): number {
  return semver.compare(a, b);
}

export interface UpdateResult {
  updated: Array<{ id: string; from: string; to: string }>;
  failed: Array<{ id: string; error: string }>;
}

/** Upgrades every store-installed app that allows it and has a newer version on its channel. */
export async function checkForUpdates(rt: AppRuntime, from: string | CatalogueSource, log: Logger): Promise<UpdateResult> {
  const source = sourceOf(from);
  const result: UpdateResult = { updated: [], failed: [] };
  const candidates = Object.values(rt.list()).filter((a) => a.origin === 'appstore' && a.autoupdate && a.version !== null);
  if (candidates.length === 0) return result;
  const allowed = automaticUpdates(source);
  if (!allowed.on) {
    log.warn({ store: source.location }, allowed.why ?? 'automatic updates are off');
    return result;
  }
  const { catalogue } = await readCatalogue(source);
  for (const app of candidates) {
    const channel = app.channel ?? 'stable';
    const offered = catalogue.apps[app.id]?.channels[channel];
    if (!offered || compareVersions(offered.version, app.version!) <= 0) continue;
    try {
      await installFromCatalogue(rt, source, app.id, channel);
      result.updated.push({ id: app.id, from: app.version!, to: offered.version });
      log.info({ app: app.id, from: app.version, to: offered.version }, 'app updated from the store');
    } catch (err) {
      result.failed.push({ id: app.id, error: (err as Error).message });
      log.warn({ app: app.id, err: (err as Error).message }, 'automatic app update failed');
    }
  }
  return result;
}
