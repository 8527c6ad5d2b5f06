/**
 * The child side of the SDK: the `hub` handle an app gets in onInit. Every call goes over IPC
 * through an RpcPeer; settings notifications and autocomplete requests from the hub are routed
 * to the listeners the app registered. Loaded inside the app's child: imports nothing heavy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import type {
  AppInfo,
  AutocompleteListener,
  AutocompleteResult,
  Hub,
  HubSettings,
  InsightsLog,
  Location,
  LogOptions,
  Units,
} from '../sdk/index.js';
import type { AppEvent, HubCallArgs, HubCallMethod } from './protocol.js';
import { RpcError, type RpcPeer } from './wire.js';

type SetListener = (key: string, value: unknown) => void;
/** Most autocomplete results passed on (protocol.ts APP_CALLS.autocomplete allows 200). */
const AUTOCOMPLETE_MAX = 200;
type UnsetListener = (key: string) => void;

/** Everything the bootstrap needs besides the handle itself. */
export interface ChildSdk {
  readonly hub: Hub;
  /** Routes a hub notification (settings changed, language changed). */
  onEvent(event: AppEvent): void;
  autocomplete(widgetId: string, settingId: string, query: string, settings: Record<string, unknown>): Promise<AutocompleteResult[]>;
}

type Locale = Record<string, unknown>;

function readLocale(dir: string, language: string): Locale {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, 'locales', `${language}.json`), 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Locale) : {};
  } catch {
    return {};
  }
}

function lookup(locale: Locale, key: string): string | undefined {
  let node: unknown = locale;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Builds the handle. `language`/`units` come from init and follow `i18n.update` events. */
export function createChildSdk(peer: RpcPeer, app: AppInfo, initial: { language: string; units: Units }): ChildSdk {
  const call = <M extends HubCallMethod>(method: M, args: HubCallArgs<M>): Promise<unknown> => peer.call(method, args);
  const setListeners = new Set<SetListener>();
  const unsetListeners = new Set<UnsetListener>();
  const autocompletes = new Map<string, AutocompleteListener>();
  let language = initial.language;
  let strings = readLocale(app.dir, language);
  const english = language === 'en' ? strings : readLocale(app.dir, 'en');

  const settings: HubSettings = {
    get: async <T>(key: string) => (await call('settings.get', { key })) as T | null,
    set: async (key, value) => {
      await call('settings.set', { key, value });
    },
    unset: async (key) => {
      await call('settings.unset', { key });
    },
    getKeys: async () => (await call('settings.getKeys', {})) as string[],
    on(event: 'set' | 'unset', listener: SetListener | UnsetListener) {
      if (event === 'set') setListeners.add(listener as SetListener);
      else unsetListeners.add(listener as UnsetListener);
      return settings;
    },
    off(event, listener) {
      if (event === 'set') setListeners.delete(listener as unknown as SetListener);
      else unsetListeners.delete(listener as unknown as UnsetListener);
      return settings;
    },
  };

  const logOf = (id: string, info: { uri?: unknown }): InsightsLog => ({
    id,
    uri: String(info.uri ?? `hearth:app:${app.id}`),
    createEntry: async (value, date) => {
      await call('insights.createEntry', { id, value, ...(date ? { date: date.toISOString() } : {}) });
    },
  });

  const hub: Hub = {
    app,
    log: (...args) => process.stdout.write(`${new Date().toISOString()} ${format(...args)}\n`),
    error: (...args) => process.stderr.write(`${new Date().toISOString()} ${format(...args)}\n`),
    settings,
    insights: {
      createLog: async (id: string, options: LogOptions) =>
        logOf(id, (await call('insights.createLog', { id, options: { type: 'number', ...options } })) as { uri?: unknown }),
      getLogs: async () => (await call('insights.getLogs', {})) as Array<{ id: string; uri: string }>,
      deleteLog: async (id) => {
        await call('insights.deleteLog', { id });
      },
    },
    dashboards: {
      registerAutocomplete(widgetId, settingId, listener) {
        if (typeof listener !== 'function') throw new TypeError('registerAutocomplete needs a listener function');
        autocompletes.set(`${widgetId}\u0000${settingId}`, listener);
      },
      getWidgetStoreState: async (id) => (await call('dashboards.getWidgetStoreState', { id })) as Record<string, unknown>,
      setWidgetStoreState: async (id, state, opts) =>
        (await call('dashboards.setWidgetStoreState', { id, state, ...(opts?.replace !== undefined ? { replace: opts.replace } : {}) })) as Record<string, unknown>,
    },
    speech: {
      say: async (text) => {
        await call('speech.say', { text: String(text) });
      },
    },
    i18n: {
      getLanguage: async () => (await call('i18n.getLanguage', {})) as string,
      getUnits: async () => (await call('i18n.getUnits', {})) as Units,
    },
    __(key, tokens) {
      let text = lookup(strings, key) ?? lookup(english, key) ?? key;
      for (const [name, value] of Object.entries(tokens ?? {})) text = text.split(`__${name}__`).join(String(value));
      return text;
    },
    geolocation: {
      getLocation: async () => (await call('geolocation.getLocation', {})) as Location | null,
    },
  };

  // A listener that throws must not take the app down with an unhandled error from our code.
  const fire = (fn: () => void): void => {
    try {
      fn();
    } catch (err) {
      hub.error('settings listener failed:', err);
    }
  };

  return {
    hub,
    onEvent(event) {
      switch (event.name) {
        case 'settings.set':
          for (const l of setListeners) fire(() => l(event.key, event.value));
          break;
        case 'settings.unset':
          for (const l of unsetListeners) fire(() => l(event.key));
          break;
        case 'i18n.update':
          if (event.language !== language) {
            language = event.language;
            strings = readLocale(app.dir, language);
          }
          break;
      }
    },
    async autocomplete(widgetId, settingId, query, widgetSettings) {
      const listener = autocompletes.get(`${widgetId}\u0000${settingId}`);
      if (!listener) {
        throw new RpcError('not_found', `the app registered no autocomplete listener for widget '${widgetId}' setting '${settingId}'`);
      }
      const results = await listener(query, widgetSettings);
      if (!Array.isArray(results)) throw new RpcError('app_error', 'the autocomplete listener did not return an array');
      return results.slice(0, AUTOCOMPLETE_MAX); // capped, as the protocol allows no more
    },
  };
}
