/**
 * What the apps manager offers the HTTP layer besides its operation table: the apps' own Web
 * APIs (`/api/app/<appId>/...`), their realtime events, and their files (widget pages, settings
 * pages, translations). Types only, so the HTTP layer needs no import of the apps runtime.
 */
import type { AppManifest } from '../manifest/manifest.js';
import type { ApiAnswer, ApiCall } from '../wire/protocol.js';
import type { RealtimeHub } from './realtime.js';

export interface AppGateway {
  readonly appsDir: string;
  readonly realtime: RealtimeHub;
  /** Whether an app of that id is installed (its manifest may still be unusable). */
  installed(appId: string): boolean;
  /** The app's manifest, or null when it is not installed or its folder is unusable. */
  manifest(appId: string): AppManifest | null;
  /** Runs one route of the app's or a widget's api.js (503 when the app is not running). */
  callApi(appId: string, call: ApiCall): Promise<ApiAnswer>;
  /** The app's strings in the hub's language and in English, for its pages' `Homey.__`. */
  strings(appId: string): { language: string; strings: Record<string, unknown>; english: Record<string, unknown> };
}
