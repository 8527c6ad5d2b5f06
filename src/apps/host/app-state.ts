/**
 * What an app copies into its process (Homey's settings, i18n, geolocation and clock getters are
 * synchronous): the snapshot sent with init, and the events that keep the copy current.
 */
import { HOMEY_VERSION } from '../../version.js';
import type { AppFolder } from '../manifest/compose.js';
import type { AppEvent, AppState } from '../wire/protocol.js';

export const GEOLOCATION_PERMISSION = 'homey:manager:geolocation';

export interface Locale {
  language: string;
  units: 'metric' | 'imperial';
}

export interface Location {
  latitude: number;
  longitude: number;
  accuracy?: number;
}

/** What the hub knows that apps copy. */
export interface HubState {
  locale(): Locale;
  location(): Location | null;
  readonly timeZone: string;
  readonly hubId: string;
}

type Strings = Record<string, unknown>;

/** The app's strings in `language` and in English. */
function stringsOf(folder: AppFolder, language: string): { strings: Strings; english: Strings } {
  const english = folder.locales.en ?? {};
  return { strings: folder.locales[language] ?? english, english };
}

/** The manifest defaults of the app's declared settings. */
export function defaultsOf(folder: AppFolder): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const def of folder.manifest.settings) if (def.default !== undefined) out[def.id] = def.default;
  return out;
}

/** The location, only for an app with the geolocation permission. */
const locationFor = (folder: AppFolder, hub: HubState): Location | null =>
  folder.manifest.permissions.includes(GEOLOCATION_PERMISSION) ? hub.location() : null;

export function initialState(folder: AppFolder, saved: Record<string, unknown>, hub: HubState): AppState {
  const locale = hub.locale();
  return {
    ...locale,
    ...stringsOf(folder, locale.language),
    settings: saved,
    defaults: defaultsOf(folder),
    location: locationFor(folder, hub),
    timezone: hub.timeZone,
    homeyVersion: HOMEY_VERSION,
    hubId: hub.hubId,
  };
}

export function localeEvent(folder: AppFolder, locale: Locale): AppEvent {
  return { name: 'i18n.update', ...locale, ...stringsOf(folder, locale.language) };
}

/** The event telling the app its location changed, or null when it may not know it. */
export function locationEvent(folder: AppFolder, hub: HubState): AppEvent | null {
  return folder.manifest.permissions.includes(GEOLOCATION_PERMISSION) ? { name: 'geolocation.update', location: hub.location() } : null;
}
