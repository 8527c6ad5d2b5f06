/**
 * The apps service: the runtime plus what the HTTP operations need on top of it (updateApp's
 * field rules, uninstall with its folders, install from the configured store).
 */

import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import { type BuildEnvironment, DEFAULT_BUILD_LIMITS } from '../../apps/catalogue/build.js';
import { type ChannelEntry, INDEX_FILE, readCatalogue } from '../../apps/catalogue/catalogue.js';
import { keepAppAside, removeApp } from '../../apps/catalogue/install.js';
import { installFromCatalogue } from '../../apps/catalogue/install-from-catalogue.js';
import { automaticUpdates, type CatalogueSource } from '../../apps/catalogue/key.js';
import { type RepoHost, repoHost } from '../../apps/catalogue/repository.js';
import { SourceUpdates } from '../../apps/catalogue/source-updates.js';
import { Uploads } from '../../apps/catalogue/uploads.js';
import type { App, AppRuntime } from '../../apps/host/runtime.js';
import { textOf } from '../../apps/manifest/manifest.js';
import { permissionDetails, usesNetwork } from '../../apps/manifest/permissions.js';
import type { Actor } from '../../core/actor.js';
import { invalid, notFound } from '../../core/errors.js';
import { exists, makeDirs } from '../../core/files.js';
import { toNullRecord } from '../../core/null-prototype.js';
import type { AppsState, CatalogueApp, CatalogueRelease, CatalogueView } from './views.js';

/** A catalogue release as the store answer shows it: what it asks for, before anyone installs it. */
function releaseOf(e: ChannelEntry): CatalogueRelease {
  if (!e.permissions) return { version: e.version, permissions: null, network: null };
  return { version: e.version, permissions: permissionDetails(e.permissions), network: usesNetwork(e.permissions) };
}

/** Where uninstalled local apps' folders are kept, in the data dir. */
export const REMOVED_APPS_DIR = 'removed-apps';

/** App fields a client may change through updateApp: what the owner decides of an app. */
const WRITABLE = new Set(['autoupdate', 'network']);

export class AppsService {
  /** Apps uploaded as an archive of their folder, waiting for Install or Discard. */
  readonly uploads: Uploads;

  constructor(
    readonly runtime: AppRuntime,
    private readonly store: CatalogueSource,
    private readonly log: Logger,
    /** Where Get apps fetches repositories (GitHub, or --repo-host). */
    readonly repos: RepoHost = repoHost(''),
    /** How Get apps builds an app (the npm registry, the limits). */
    builds: Omit<BuildEnvironment, 'sandbox'> = { registry: 'https://registry.npmjs.org/', limits: DEFAULT_BUILD_LIMITS },
  ) {
    this.uploads = new Uploads(runtime, builds);
    this.sourceUpdates = new SourceUpdates(repos);
  }

  /** Whether newer releases are out for apps fetched from repositories. */
  readonly sourceUpdates: SourceUpdates;

  private get storeLocation(): string {
    return this.store.location;
  }

  /** Creates the default local store (an empty catalogue) so `hearth app pack` has a target. */
  async prepareStore(): Promise<void> {
    if (/^https?:\/\//i.test(this.storeLocation)) return;
    await makeDirs(this.storeLocation);
    const index = join(this.storeLocation, INDEX_FILE);
    if (!(await exists(index))) await writeFile(index, '{"apps": {}}\n', { flag: 'wx' }).catch(() => undefined);
  }

  state(): AppsState {
    const apps = Object.values(this.runtime.list());
    const { containment, reason, hold } = this.runtime.containment;
    return {
      containment,
      containmentReason: reason,
      held: hold,
      apps: apps.length,
      running: apps.filter((a) => a.state === 'running').length,
      limits: { ...this.runtime.limits },
    };
  }

  /** Every setting's value: saved ones, and the declared default of each one not saved. */
  settings(id: string): Record<string, unknown> {
    return this.runtime.settings.all(id);
  }

  getSetting(id: string, name: string): unknown {
    const settings = this.runtime.settings.all(id);
    if (!Object.hasOwn(settings, name)) throw notFound(`app '${id}' has no setting '${name}'`);
    return settings[name];
  }

  /** Stores a setting and tells the app and its pages; answers the value as stored. */
  setSetting(id: string, name: string, value: unknown, by: Actor | null = null): Promise<unknown> {
    return this.runtime.settings.set(id, name, value, { by });
  }

  /** Removes a saved setting (its declared default applies again); 404 when it is neither saved nor declared. */
  unsetSetting(id: string, name: string, by: Actor | null = null): Promise<void> {
    return this.runtime.settings.unset(id, name, { mustExist: true, by });
  }

  /**
   * Applies the writable fields of `patch`. Read-only fields sent with their current value are
   * accepted (a client may PUT back what it got); changed or unknown ones are a 400 naming them.
   */
  async update(id: string, patch: Record<string, unknown>): Promise<App> {
    const current = this.runtime.get(id) as unknown as Record<string, unknown>;
    const refused = Object.keys(patch).filter((k) => !WRITABLE.has(k) && (!Object.hasOwn(current, k) || !isDeepStrictEqual(current[k], patch[k])));
    if (refused.length) {
      throw invalid(`only autoupdate and network can be changed; read-only or unknown field${refused.length > 1 ? 's' : ''}: ${refused.join(', ')}`);
    }
    const grants: { autoupdate?: boolean; network?: boolean } = {};
    for (const key of ['autoupdate', 'network'] as const) {
      if (!(key in patch)) continue;
      const value = patch[key];
      if (typeof value !== 'boolean') throw invalid(`${key} must be true or false`);
      grants[key] = value;
    }
    return Object.keys(grants).length > 0 ? this.runtime.decisions.configure(id, grants) : this.runtime.get(id);
  }

  /**
   * Removes an app. A store app's folder is deleted (the store has the package); a local app's
   * is moved to `<data-dir>/removed-apps/` (it may be a developer's only copy), and the log says where.
   */
  async uninstall(id: string, purgeSettings: boolean): Promise<void> {
    const local = this.runtime.has(id) && this.runtime.get(id).origin === 'local';
    const keepDir = join(this.runtime.dataDir, REMOVED_APPS_DIR);
    await this.runtime.remove(id, purgeSettings, async () => {
      if (!local) return removeApp(this.runtime.appsDir, id);
      const kept = await keepAppAside(this.runtime.appsDir, id, keepDir);
      if (kept) this.log.info({ app: id, kept }, 'uninstalled a local app; its folder is kept');
    });
    // Logs and userdata are the app's data: they go with its settings, or stay for a reinstall.
    if (purgeSettings) await rm(this.runtime.dataDirOf(id), { recursive: true, force: true });
  }

  /** The store's catalogue with what of it is installed (502 when the store cannot be read). */
  async catalogue(): Promise<CatalogueView> {
    const { catalogue } = await readCatalogue(this.store);
    const language = this.runtime.locale().language;
    const installed = this.runtime.list();
    const apps: Record<string, CatalogueApp> = {};
    for (const id of Object.keys(catalogue.apps).sort()) {
      const entry = catalogue.apps[id]!;
      const app = installed[id];
      apps[id] = {
        id,
        name: entry.name ? textOf(entry.name, language) : id,
        description: entry.description ? textOf(entry.description, language) : null,
        icon: entry.icon ?? null,
        brandColor: entry.brandColor ?? null,
        channels: toNullRecord(Object.entries(entry.channels).map(([channel, e]) => [channel, releaseOf(e)])),
        installed: app ? { version: app.version, channel: app.channel } : null,
      };
    }
    const updates = automaticUpdates(this.store);
    return { location: this.storeLocation, signed: this.store.key !== null, automaticUpdates: updates.on, automaticUpdatesOff: updates.why, apps };
  }

  install(id: string, opts: { channel?: string; version?: string; network?: boolean } = {}): Promise<App> {
    return installFromCatalogue(this.runtime, this.store, id, opts.channel ?? 'stable', opts);
  }
}
