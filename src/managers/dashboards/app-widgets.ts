/**
 * App widgets: the `widgets` of installed apps' manifests as API objects (`<appId>:<widgetId>`),
 * read live from the apps runtime, plus the bookkeeping that turns app installs, upgrades,
 * uninstalls and language changes into appwidget.create/update/delete events.
 */

import { type AppManifest, textOf, type WidgetDefinition } from '../../apps/manifest/manifest.js';
import type { SettingDefinition } from '../../apps/manifest/settings.js';
import { diff } from '../../core/diff.js';
import type { UpdateInfo } from '../../core/events.js';
import { appOwnerUri } from '../../core/owners.js';
import { DEVICE_TILE, type DeviceChoice } from '../../home/device-choice.js';
import type { AppWidget } from './views.js';

/** What the catalog needs from the apps runtime (AppRuntime fits). */
export interface AppSource {
  list(): Record<string, { state: string; ready: boolean }>;
  manifest(id: string): AppManifest | null;
}

export type WidgetChange = { kind: 'create' | 'delete'; widget: AppWidget } | { kind: 'update'; widget: AppWidget; info: UpdateInfo };

export const appUri = appOwnerUri;

/** The hub's own widgets, and the devices each takes. */
const BUILT_IN: Readonly<Record<string, DeviceChoice>> = { [DEVICE_TILE]: { type: 'global', singular: true } };

export const isBuiltIn = (appWidgetId: string): boolean => Object.hasOwn(BUILT_IN, appWidgetId);

/** `com.example.app:clock` -> `com.example.app` (app ids hold no colon). */
export function appIdOf(appWidgetId: string): string {
  const i = appWidgetId.indexOf(':');
  return i < 0 ? appWidgetId : appWidgetId.slice(0, i);
}

function widgetOf(appId: string, manifest: AppManifest, widgetId: string, def: WidgetDefinition, language: string): AppWidget {
  return {
    id: `${appId}:${widgetId}`,
    ownerId: appId,
    ownerUri: appUri(appId),
    ownerName: textOf(manifest.name, language),
    name: textOf(def.name, language),
    settings: def.settings as unknown as Array<Record<string, unknown>>,
    height: def.height ?? null,
    transparent: def.transparent ?? false,
    deprecated: def.deprecated ?? false,
    devices: def.devices ?? null,
    preview: {
      light: manifest.widgetPreviews?.[widgetId]?.light ? `/app/${appId}/widget-preview/${widgetId}/light` : null,
      dark: manifest.widgetPreviews?.[widgetId]?.dark ? `/app/${appId}/widget-preview/${widgetId}/dark` : null,
    },
  };
}

export class AppWidgetCatalog {
  /** What clients were last told, per app; null until the runtime has read its apps. */
  private known: Map<string, Map<string, AppWidget>> | null = null;

  constructor(
    private readonly source: AppSource,
    private readonly language: () => string,
  ) {}

  /** The widgets of one app as they are now (none when it is not installed or broken). */
  private widgetsOf(appId: string): Map<string, AppWidget> {
    const manifest = this.source.manifest(appId);
    const out = new Map<string, AppWidget>();
    if (!manifest) return out;
    const language = this.language();
    for (const [widgetId, def] of Object.entries(manifest.widgets)) {
      const w = widgetOf(appId, manifest, widgetId, def, language);
      out.set(w.id, w);
    }
    return out;
  }

  list(): Record<string, AppWidget> {
    const out: Record<string, AppWidget> = {};
    for (const appId of Object.keys(this.source.list()).sort()) {
      for (const [id, w] of this.widgetsOf(appId)) out[id] = w;
    }
    return out;
  }

  get(id: string): AppWidget | null {
    return this.widgetsOf(appIdOf(id)).get(id) ?? null;
  }

  has(id: string): boolean {
    return this.get(id) !== null;
  }

  /** Whether a dashboard may place `id`: an installed app's widget, or the hub's own. */
  placeable(id: string): boolean {
    return isBuiltIn(id) || this.has(id);
  }

  /** Which devices widget `id` may be given (null: it takes none, or it is not installed). */
  deviceChoice(id: string): DeviceChoice | null {
    if (isBuiltIn(id)) return BUILT_IN[id] ?? null;
    const appId = appIdOf(id);
    return this.source.manifest(appId)?.widgets[id.slice(appId.length + 1)]?.devices ?? null;
  }

  /** The settings app widget `id` declares in its app's manifest (none when unknown). */
  settingDefinitions(id: string): readonly SettingDefinition[] {
    const appId = appIdOf(id);
    const widget = this.source.manifest(appId)?.widgets[id.slice(appId.length + 1)];
    return widget?.settings ?? [];
  }

  /** Whether the app owning widget `id` runs and has finished onInit. */
  running(appId: string): boolean {
    const app = this.source.list()[appId];
    return app !== undefined && app.state === 'running' && app.ready;
  }

  /** Remembers the current widgets without announcing them (apps present at start-up). */
  seed(): void {
    this.known = new Map();
    for (const appId of Object.keys(this.source.list())) this.known.set(appId, this.widgetsOf(appId));
  }

  /**
   * Compares what clients were told about `appIds` (all apps when omitted) with the runtime
   * now and returns the changes, remembering the new view. Before seed(): nothing.
   */
  refresh(appIds?: readonly string[]): WidgetChange[] {
    if (!this.known) return [];
    const ids = appIds ?? [...new Set([...this.known.keys(), ...Object.keys(this.source.list())])];
    const changes: WidgetChange[] = [];
    for (const appId of ids) {
      const before = this.known.get(appId) ?? new Map<string, AppWidget>();
      const after = this.widgetsOf(appId);
      for (const [id, w] of before) if (!after.has(id)) changes.push({ kind: 'delete', widget: w });
      for (const [id, w] of after) {
        const old = before.get(id);
        if (!old) changes.push({ kind: 'create', widget: w });
        else {
          const info = diff(old, w);
          if (info.changedKeys.length) changes.push({ kind: 'update', widget: w, info });
        }
      }
      if (after.size) this.known.set(appId, after);
      else this.known.delete(appId);
    }
    return changes;
  }
}
