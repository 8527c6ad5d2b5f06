/**
 * The settings of installed apps: JSON values in each app's store record, checked against the
 * settings its manifest declares and bounded per app (every store write rewrites db.json, so one
 * app's settings must not make the whole hub slow: 1,000 keys of 60 KiB had made every write in
 * the hub take a second). A declared setting's manifest default is its value until one is saved.
 * A change made through the API is sent to the running app; its own writes it knows already.
 */
import type { Actor } from '../../core/actor.js';
import { invalid, notFound } from '../../core/errors.js';
import { nullRecord } from '../../core/null-prototype.js';
import type { RecordSection } from '../../core/store.js';
import type { AppManifest } from '../manifest/manifest.js';
import type { AppEvent } from '../wire/protocol.js';
import { capProblem, keyProblem, settingProblem, storedValue } from '../wire/setting-rules.cjs';
import type { AppRecord } from './app-record.js';
import type { SdkRouter } from './router.js';

export { MAX_APP_SETTINGS_BYTES, MAX_SETTING_KEYS } from '../wire/setting-rules.cjs';

/** What the settings need of the runtime: its store section and its installed apps. */
export interface SettingsHost {
  /** The store's apps section (opened when the runtime starts). */
  section(): RecordSection<AppRecord>;
  /**
   * The installed app's manifest (null when unusable), and where a change goes: to the app (unless
   * it made the change itself) and to its pages (widgets, settings page); 404 when not installed.
   */
  app(id: string): {
    readonly manifest: AppManifest | null;
    changed(event: AppEvent & { name: `settings.${string}` }, fromApp: boolean, by: Actor): void;
  };
}

interface ChangeOptions {
  /** Made by the app itself through the SDK: it knows already, so it is not told. */
  readonly fromApp?: boolean;
  /** Who made it through the API (its pages hear it with the key); the app itself when `fromApp`. */
  readonly by?: Actor | null;
}

/** Who a change was made by: as given, or the app (its own change, or nobody said). */
const byOf = (id: string, opts: ChangeOptions): Actor => opts.by ?? { kind: 'app', id, name: id };

export class AppSettings {
  constructor(private readonly host: SettingsHost) {}

  /** The app's SDK calls for its own settings; returns their unregister functions. */
  register(router: SdkRouter): Array<() => void> {
    return [
      router.handle('settings.set', async (app, { key, value }) => {
        await this.set(app.id, key, value, { fromApp: true });
        return null;
      }),
      router.handle('settings.unset', async (app, { key }) => {
        await this.unset(app.id, key, { fromApp: true });
        return null;
      }),
    ];
  }

  /** Every setting's value: saved ones, and the manifest default of each declared one not saved. */
  all(id: string): Record<string, unknown> {
    const out = this.defaults(id);
    for (const [k, v] of Object.entries(this.record(id).settings)) out[k] = v;
    return out;
  }

  /** The value: saved, else the manifest default, else null. */
  get(id: string, key: string): unknown {
    const s = this.record(id).settings;
    if (Object.hasOwn(s, key)) return s[key];
    const d = this.defaults(id);
    return Object.hasOwn(d, key) ? d[key] : null;
  }

  async set(id: string, key: string, value: unknown, opts: ChangeOptions = {}): Promise<unknown> {
    const app = this.host.app(id);
    const badKey = keyProblem(key);
    if (badKey) throw invalid(badKey);
    const as = storedValue(key, value);
    if (!as.ok) throw invalid(as.problem);
    const stored = as.value;
    const declared = app.manifest?.settings.find((d) => d.id === key);
    const problem = declared ? settingProblem(declared, stored) : null;
    if (problem) throw invalid(problem);
    // The caps are checked inside the update, against every change queued before this one.
    await this.host.section().updateSome([id], (d) => {
      const settings = d[id]?.settings;
      if (!settings) throw notFound(`app '${id}' is not installed`);
      const cap = capProblem(id, settings, key, stored);
      if (cap) throw invalid(cap);
      settings[key] = stored;
    });
    app.changed({ name: 'settings.set', key, value: stored }, opts.fromApp === true, byOf(id, opts));
    return stored;
  }

  /**
   * Removes the saved value (the manifest default applies again). With `mustExist`, a setting
   * that is neither saved nor declared is a 404.
   */
  async unset(id: string, key: string, opts: ChangeOptions & { readonly mustExist?: boolean } = {}): Promise<void> {
    if (!Object.hasOwn(this.record(id).settings, key)) {
      if (opts.mustExist && !Object.hasOwn(this.defaults(id), key)) throw notFound(`app '${id}' has no setting '${key}'`);
      return;
    }
    await this.host.section().updateSome([id], (d) => {
      const settings = d[id]?.settings;
      if (settings) delete settings[key];
    });
    this.host.app(id).changed({ name: 'settings.unset', key }, opts.fromApp === true, byOf(id, opts));
  }

  /** The manifest defaults of the app's declared settings. */
  private defaults(id: string): Record<string, unknown> {
    const out = nullRecord<unknown>();
    for (const def of this.host.app(id).manifest?.settings ?? []) if (def.default !== undefined) out[def.id] = def.default;
    return out;
  }

  private record(id: string): AppRecord {
    const r = this.host.section().value[id];
    if (!r) throw notFound(`app '${id}' is not installed`);
    return r;
  }
}
