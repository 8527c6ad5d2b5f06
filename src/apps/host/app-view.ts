/** The App object of the Web API, from an app's folder, its record and its run state. */
import type { AppFolder } from '../manifest/compose.js';
import { textOf } from '../manifest/manifest.js';
import { notGranted, type PermissionDetail, permissionDetails } from '../manifest/permissions.js';
import type { SettingDefinition } from '../manifest/settings.js';
import { type AppRecord, networkGranted } from './app-record.js';
import type { AppSupervisor, RunState } from './supervisor.js';

export interface App extends RunState {
  id: string;
  name: string;
  description: string | null;
  version: string | null;
  sdk: number | null;
  origin: AppRecord['origin'];
  channel: string | null;
  /** The repository and commit a local app was fetched from (Get apps), or null. */
  source: AppRecord['source'];
  enabled: boolean;
  autoupdate: boolean;
  /** False when hearth cannot run the app at all (it has drivers); `incompatibleReason` says why. */
  compatible: boolean;
  incompatibleReason: string | null;
  /** What the app declares that hearth does not run (flow cards, permissions it cannot give). */
  unsupported: string[];
  /** What Homey's tools would warn about in app.json and hearth let pass. */
  warnings: string[];
  /** Whether the app may use the network (the LAN and the internet): the owner's grant (app-record.ts). */
  network: boolean;
  permissions: string[];
  /** `permissions` with what each means on hearth, as the store showed them before install. */
  permissionDetails: PermissionDetail[];
  settings: SettingDefinition[];
  /** Whether the app has a settings page (settings/index.html), opened from the web app. */
  settingsPage: boolean;
  /** Where the web app finds the app's picture and icon (`/app/<id>/image/<kind>`), if it ships them. */
  image: string | null;
  icon: string | null;
  brandColor: string | null;
}

export function viewOf(e: { id: string; folder: AppFolder | null; supervisor: AppSupervisor }, r: AppRecord, language: string): App {
  const m = e.folder?.manifest;
  return {
    id: e.id,
    name: m ? textOf(m.name, language) : e.id,
    description: m?.description ? textOf(m.description, language) : null,
    version: m?.version ?? null,
    sdk: m?.sdk ?? null,
    origin: r.origin,
    channel: r.channel,
    source: r.source,
    enabled: r.enabled,
    autoupdate: r.autoupdate,
    ...e.supervisor.state,
    compatible: !m?.incompatible,
    incompatibleReason: m?.incompatible ?? null,
    unsupported: m ? [...m.unrun, ...notGranted(m.permissions)] : [],
    warnings: m?.warnings ?? [],
    network: networkGranted(r, m?.permissions ?? []),
    permissions: m?.permissions ?? [],
    permissionDetails: permissionDetails(m?.permissions ?? []),
    settings: m?.settings ?? [],
    settingsPage: e.folder?.settingsPage ?? false,
    image: m?.images?.large || m?.images?.small ? `/app/${e.id}/image/${m.images.large ? 'large' : 'small'}` : null,
    icon: m?.icon ? `/app/${e.id}/image/icon` : null,
    brandColor: m?.brandColor ?? null,
  };
}
