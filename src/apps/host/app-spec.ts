/**
 * What one start of an app is made of (the child's spec): where it lives, what it may read and
 * write, how it is contained and limited, and the init message with the state it copies. Built
 * anew at every start, so a new location or language, or a changed limit, applies at once.
 */
import { join } from 'node:path';
import type { AppFolder } from '../manifest/compose.js';
import { type AppManifest, mainModule } from '../manifest/manifest.js';
import { API_PERMISSION, permissionReadFiles } from '../manifest/permissions.js';
import { apiSocketDir } from './api-socket.js';
import { type HubState, initialState } from './app-state.js';
import type { ChildSpec } from './child-spec.js';
import type { Lent } from './lent-packages.js';
import type { Sandbox } from './sandbox.js';

/** Each app's memory and disk, MiB: the defaults, and the most an app.json may ask for. */
export interface AppLimitDefaults {
  memoryMb: number;
  memoryMaxMb: number;
  diskMb: number;
  diskMaxMb: number;
  /** Free space of the data filesystem below which an app that writes is stopped. */
  diskFloorMb: number;
}

export const DEFAULT_LIMITS: AppLimitDefaults = { memoryMb: 128, memoryMaxMb: 512, diskMb: 64, diskMaxMb: 1024, diskFloorMb: 256 };
/**
 * The hard bound on an app's mapped address space for a memory ceiling of `memoryMb`: the
 * ceiling and as much again, at least 128 MiB more (what node maps beyond what it uses).
 */
export const addressLimitMb = (memoryMb: number): number => memoryMb + Math.max(128, memoryMb);
/** Open files and processes (threads count) an app may have; its private /tmp. */
const OPEN_FILES = 1024;
const PROCESSES = 64;
const TMP_MB = 16;

/** The app's memory and disk, MiB: what app.json asks for, within the hub's maximum. */
export function limitsOf(manifest: AppManifest, d: AppLimitDefaults): { memoryMb: number; diskMb: number } {
  return {
    memoryMb: Math.min(manifest.hearth?.memoryMb ?? d.memoryMb, Math.max(d.memoryMaxMb, d.memoryMb)),
    diskMb: Math.min(manifest.hearth?.diskMb ?? d.diskMb, Math.max(d.diskMaxMb, d.diskMb)),
  };
}

/** What the runtime knows that every app's spec needs. */
export interface SpecContext {
  readonly appsDir: string;
  /** `<data-dir>/run`: the folders of the apps' API sockets (api-socket.ts). */
  readonly runDir: string;
  /** The SDK link in the apps folder, and the folder holding it. */
  readonly sdk: { readonly link: string; readonly modules: string; readonly lent: readonly Lent[] };
  readonly sandbox: Sandbox;
  readonly limits: AppLimitDefaults;
  readonly hub: HubState;
}

export function childSpec(
  ctx: SpecContext,
  app: { id: string; dir: string; folder: AppFolder; userdata: string; saved: () => Record<string, unknown>; network: boolean },
): ChildSpec {
  const { manifest } = app.folder;
  const limits = limitsOf(manifest, ctx.limits);
  return {
    id: app.id,
    version: manifest.version,
    dir: app.dir,
    userdata: app.userdata,
    readPaths: [
      ctx.sdk.modules,
      ...permissionReadFiles(manifest.permissions),
      // The folder of its socket to the hub's Web API (made now: bound before the socket exists).
      ...(manifest.permissions.includes(API_PERMISSION) ? [apiSocketDir(ctx.runDir, app.id)] : []),
    ],
    sandbox: ctx.sandbox,
    network: app.network,
    // No one file may be larger than the whole quota: the kernel refuses the write (EFBIG), even
    // to a file the app deleted and keeps open, which no walk of its folder can see.
    limits: {
      memoryMb: limits.memoryMb,
      addressMb: addressLimitMb(limits.memoryMb),
      openFiles: OPEN_FILES,
      processes: PROCESSES,
      tmpMb: TMP_MB,
      fileMb: limits.diskMb,
    },
    diskMb: limits.diskMb,
    diskFloorMb: ctx.limits.diskFloorMb,
    appsPackage: join(ctx.appsDir, 'package.json'),
    sdkLink: ctx.sdk.link,
    lent: ctx.sdk.lent,
    init: () => ({
      app: { id: app.id, version: manifest.version, dir: app.dir, main: mainModule(manifest, app.dir), userdata: app.userdata },
      manifest: manifest.raw,
      permissions: manifest.permissions,
      state: initialState(app.folder, app.saved(), ctx.hub),
    }),
  };
}
