/**
 * The public types of the `hub` handle an app receives in `onInit(hub)`. App authors import
 * them for completion: `import type { Hub, HearthApp } from 'hearth'` (or JSDoc
 * `@param {import('hearth').Hub} hub` in plain JavaScript). Every call crosses IPC to the hub.
 */

export { PERMISSIONS, type Permission } from '../apps/permissions.js';

export type Units = 'metric' | 'imperial';

/** Identity of the running app, from its app.json. */
export interface AppInfo {
  readonly id: string;
  readonly version: string;
  /** The app's own folder (readable). */
  readonly dir: string;
  /** The only folder the app may write into; it survives restarts and upgrades. */
  readonly userdata: string;
}

/** Persistent key/value settings of this app (values are JSON, at most 64 KiB each). */
export interface HubSettings {
  get<T = unknown>(key: string): Promise<T | null>;
  set(key: string, value: unknown): Promise<void>;
  unset(key: string): Promise<void>;
  getKeys(): Promise<string[]>;
  /** Fired when a setting changes, including changes made through the HTTP API. */
  on(event: 'set', listener: (key: string, value: unknown) => void): this;
  on(event: 'unset', listener: (key: string) => void): this;
  off(event: 'set' | 'unset', listener: (...args: never[]) => void): this;
}

export interface LogOptions {
  title: string | Record<string, string>;
  type?: 'number' | 'boolean';
  units?: string;
  decimals?: number;
  titleTrue?: string;
  titleFalse?: string;
}

/** An insights log this app owns. */
export interface InsightsLog {
  readonly id: string;
  readonly uri: string;
  /** Records one value now, or at `date`. */
  createEntry(value: number | boolean, date?: Date): Promise<void>;
}

/** Needs the `hearth:manager:insights` permission. */
export interface HubInsights {
  /** Creates the log, or returns it when it exists already. */
  createLog(id: string, options: LogOptions): Promise<InsightsLog>;
  getLogs(): Promise<Array<{ id: string; uri: string; [field: string]: unknown }>>;
  deleteLog(id: string): Promise<void>;
}

export interface AutocompleteResult {
  id: string | number;
  name: string;
  description?: string;
  image?: string;
}

export type AutocompleteListener = (
  query: string,
  settings: Record<string, unknown>,
) => AutocompleteResult[] | Promise<AutocompleteResult[]>;

export interface HubDashboards {
  /** Answers the autocomplete setting `settingId` of widget `widgetId` (from app.json). */
  registerAutocomplete(widgetId: string, settingId: string, listener: AutocompleteListener): void;
  getWidgetStoreState(widgetStoreId: string): Promise<Record<string, unknown>>;
  setWidgetStoreState(
    widgetStoreId: string,
    state: Record<string, unknown>,
    opts?: { replace?: boolean },
  ): Promise<Record<string, unknown>>;
}

export interface Location {
  latitude: number;
  longitude: number;
  accuracy?: number;
}

/** The handle every app gets in `onInit(hub)`. */
export interface Hub {
  readonly app: AppInfo;
  /** Writes a line to the app's stdout (kept in its log ring, shown by the crash log). */
  log(...args: unknown[]): void;
  /** Writes a line to the app's stderr. */
  error(...args: unknown[]): void;
  readonly settings: HubSettings;
  readonly insights: HubInsights;
  readonly dashboards: HubDashboards;
  /** Needs the `hearth:manager:speech-output` permission. Resolves once spoken. */
  readonly speech: { say(text: string): Promise<void> };
  readonly i18n: { getLanguage(): Promise<string>; getUnits(): Promise<Units> };
  /**
   * Translates `key` (dotted path into locales/<language>.json, falling back to English) and
   * fills `__token__` placeholders. Synchronous: the locales are loaded at start.
   *
   * @example hub.__('greeting.morning', { name: 'Ada' })
   */
  __(key: string, tokens?: Record<string, string | number>): string;
  /** Needs the `hearth:manager:geolocation` permission. null when no location is set. */
  readonly geolocation: { getLocation(): Promise<Location | null> };
}

/** What an app's main module exports (as default export, or as `module.exports`). */
export interface HearthApp {
  onInit(hub: Hub): Promise<void> | void;
  onUninit?(): Promise<void> | void;
}
export type HearthAppClass = new () => HearthApp;

/** Error thrown by hub calls: `code` is e.g. 'permission_denied', 'not_available', 'timeout'. */
export interface HubCallError extends Error {
  readonly code: string;
}
