/**
 * The settings of installed apps: JSON values in each app's store record, at most 64 KiB each,
 * checked against the settings its manifest declares. A change made through the API is sent to
 * the running app; its own writes it knows already.
 */
import { invalid, notFound } from '../core/errors.js';
import type { Section } from '../core/store.js';
import type { AppManifest } from './manifest.js';
import type { AppEvent } from './protocol.js';
import type { AppRecord, AppsSection } from './records.js';
import { MAX_SETTING_BYTES } from './records.js';
import type { SdkRouter } from './router.js';
import { settingProblem } from './setting-values.js';

/** What the settings need of the runtime: its store section and its installed apps. */
export interface SettingsHost {
  /** The store's apps section (opened when the runtime starts). */
  section(): Section<AppsSection>;
  /** The installed app's manifest (null when unusable) and a way to tell it; 404 when not installed. */
  app(id: string): { readonly manifest: AppManifest | null; notify(event: AppEvent): void };
}

interface ChangeOptions {
  /** Made by the app itself through the SDK: it is not told. */
  readonly fromApp?: boolean;
}

export class AppSettings {
  constructor(private readonly host: SettingsHost) {}

  /** The app's SDK calls for its own settings; returns their unregister functions. */
  register(router: SdkRouter): Array<() => void> {
    return [
      router.handle('settings.get', (app, { key }) => this.get(app.id, key)),
      router.handle('settings.set', async (app, { key, value }) => {
        await this.set(app.id, key, value, { fromApp: true });
        return null;
      }),
      router.handle('settings.unset', async (app, { key }) => {
        await this.unset(app.id, key, { fromApp: true });
        return null;
      }),
      router.handle('settings.getKeys', (app) => Object.keys(this.record(app.id).settings)),
    ];
  }

  all(id: string): Record<string, unknown> {
    return { ...this.record(id).settings };
  }

  /** The value, or null when the setting was never set. */
  get(id: string, key: string): unknown {
    const s = this.record(id).settings;
    return Object.hasOwn(s, key) ? s[key] : null;
  }

  async set(id: string, key: string, value: unknown, opts: ChangeOptions = {}): Promise<unknown> {
    const app = this.host.app(id);
    const json = JSON.stringify(value);
    if (json === undefined) throw invalid(`setting '${key}' needs a JSON value`);
    if (Buffer.byteLength(json) > MAX_SETTING_BYTES) throw invalid(`setting '${key}' is larger than 64 KiB as JSON`);
    const stored: unknown = JSON.parse(json);
    const declared = app.manifest?.settings.find((d) => d.id === key);
    const problem = declared ? settingProblem(declared, stored) : null;
    if (problem) throw invalid(problem);
    await this.host.section().update((d) => {
      d[id]!.settings[key] = stored;
    });
    if (!opts.fromApp) app.notify({ name: 'settings.set', key, value: stored });
    return stored;
  }

  /** Removes the setting; with `mustExist`, a setting that was never set is a 404. */
  async unset(id: string, key: string, opts: ChangeOptions & { readonly mustExist?: boolean } = {}): Promise<void> {
    if (!Object.hasOwn(this.record(id).settings, key)) {
      if (opts.mustExist) throw notFound(`app '${id}' has no setting '${key}'`);
      return;
    }
    await this.host.section().update((d) => {
      delete d[id]!.settings[key];
    });
    if (!opts.fromApp) this.host.app(id).notify({ name: 'settings.unset', key });
  }

  private record(id: string): AppRecord {
    const r = this.host.section().value[id];
    if (!r) throw notFound(`app '${id}' is not installed`);
    return r;
  }
}
