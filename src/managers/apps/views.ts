/**
 * What the apps operations answer, as zod schemas: the operation table declares them (and the
 * OpenAPI document shows them), and the web app takes its types from here. Free of Node imports,
 * so the browser build can type-check against it.
 */

import { z } from 'zod';
import { lazy } from '../../core/contract.js';

/** How the app's last run ended, in the App object and in its crash log alike. */
const RunOutcome = lazy(() => ({
  crashed: z.boolean(),
  crashedMessage: z.string().nullable(),
  exitCode: z.number().nullable(),
  exitSignal: z.string().nullable(),
  exitCount: z.number(),
}));
/** One permission with what it means on hearth (src/apps/manifest/permissions.ts `permissionDetails`). */
export const PermissionDetail = lazy(() =>
  z.object({
    id: z.string().describe('the permission as app.json lists it, e.g. homey:manager:speech-output'),
    granted: z.boolean().describe('whether hearth gives what it asks for'),
    sentence: z.string().describe('what hearth gives, or why it cannot (e.g. "hearth has no Z-Wave radio")'),
  }),
);
export type PermissionDetail = z.infer<ReturnType<typeof PermissionDetail>>;
const Usage = lazy(() => z.object({ cpu: z.number().describe('percent of one core'), mem: z.number().describe('RSS in bytes') }));
export const AppView = lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    version: z.string().nullable(),
    sdk: z.number().nullable(),
    origin: z.enum(['local', 'appstore']),
    channel: z.string().nullable(),
    source: z
      .object({ repo: z.string(), ref: z.string().nullable(), commit: z.string() })
      .nullable()
      .describe('the repository, ref and commit a local app was fetched from (Get apps); null otherwise'),
    enabled: z.boolean(),
    autoupdate: z.boolean(),
    state: z.enum(['stopped', 'starting', 'running', 'stopping']),
    ready: z.boolean(),
    ...RunOutcome(),
    compatible: z.boolean().describe('false when hearth cannot run the app at all (it declares drivers)'),
    incompatibleReason: z.string().nullable(),
    unsupported: z.array(z.string()).describe('what the app declares that hearth does not run: flow cards, permissions hearth cannot give'),
    network: z
      .boolean()
      .describe('whether the app may use the network (the LAN and the internet): the owner grants it (updateApp {network}), a local app has it until then'),
    warnings: z.array(z.string()).describe("what Homey's tools would warn about in app.json and hearth let pass, one sentence each naming the field"),
    permissions: z.array(z.string()),
    permissionDetails: z.array(PermissionDetail()).describe('`permissions` in order, each with what it means on hearth'),
    settings: z.array(z.record(z.string(), z.unknown())).describe("the manifest's setting definitions"),
    settingsPage: z.boolean().describe('whether the app has a settings page, at /app/<appId>/settings/'),
    image: z.string().nullable().describe("the app's picture (its manifest's images.large or small) at /app/<appId>/image/<kind>"),
    icon: z.string().nullable().describe("the app's icon (its manifest's icon) at /app/<appId>/image/icon"),
    brandColor: z.string().nullable(),
    usage: Usage(),
  }),
);
export const Heap = lazy(() => z.object({ heapUsed: z.number(), heapTotal: z.number(), rss: z.number() }));
export const CrashLog = lazy(() =>
  z.object({
    stdout: z.string(),
    stderr: z.string(),
    ...RunOutcome(),
    lastCrash: z.object({ at: z.string(), message: z.string(), exitCode: z.number().nullable(), exitSignal: z.string().nullable() }).nullable(),
    reports: z.array(z.object({ at: z.string(), message: z.string() }).loose()),
  }),
);
/** An uploaded app waiting to be installed: what it is and asks for, shown before Install. */
export const UploadedApp = lazy(() =>
  z.object({
    upload: z.string().describe('the upload, for Install and Discard'),
    id: z.string(),
    name: z.string(),
    version: z.string(),
    description: z.string().nullable(),
    icon: z.string().nullable().describe('a data URL'),
    permissions: z.array(PermissionDetail()),
    drivers: z.array(z.object({ id: z.string(), name: z.string() })),
    replaces: z.string().nullable().describe('the version of the installed local app of this id that Install replaces'),
    source: z
      .object({ repo: z.string(), ref: z.string().nullable(), commit: z.string() })
      .nullable()
      .describe('the repository and the commit fetched (what is installed, whatever the ref becomes); null for an upload'),
    expiresAt: z.string().nullable().describe('when the upload is dropped unless installed; null while it is built'),
    build: z
      .object({
        state: z.enum(['building', 'built', 'failed']),
        sentence: z.string().describe('what the build does now, or did last'),
        lines: z.array(z.string()).describe('the last lines its current (or last) step printed'),
        error: z.string().nullable().describe('why it failed, in one sentence'),
        startedAt: z.string(),
        endedAt: z.string().nullable(),
      })
      .nullable()
      .describe("its build (npm packages, TypeScript), when it needs one; Install waits for it. Ask getUploadedApp until it is no longer 'building'"),
  }),
);

/** Whether a newer release is out for an app fetched from a repository. */
export const SourceUpdate = lazy(() =>
  z.object({
    latest: z
      .object({ tag: z.string(), name: z.string().nullable(), publishedAt: z.string().nullable() })
      .nullable()
      .describe("the repository's latest release, or null when it has none"),
    newer: z.boolean().describe('whether that is another release than the one installed'),
    checkedAt: z.string().describe('when GitHub was asked (at most every 6 hours per app)'),
  }),
);

/** What an app wrote to a stream after a reader's cursor (`next` is the cursor to ask with next). */
const LogPart = lazy(() => z.object({ text: z.string(), next: z.number(), skipped: z.number() }));
/** An app's output after the reader's cursors, for following it live (`hearth app log --follow`, the Apps page). */
export const AppLog = lazy(() => z.object({ state: z.string(), stdout: LogPart(), stderr: LogPart() }));
export type AppLog = z.infer<ReturnType<typeof AppLog>>;
export type AppView = z.infer<ReturnType<typeof AppView>>;
export type CrashLog = z.infer<ReturnType<typeof CrashLog>>;

export const CatalogueRelease = lazy(() =>
  z.object({
    version: z.string(),
    // null rather than []: an older catalogue that lists nothing must not read as "asks for nothing".
    permissions: z
      .array(PermissionDetail())
      .nullable()
      .describe(
        "the release's app.json permissions, each with what it means on hearth; null when the catalogue does not list them (an older or malformed catalogue)",
      ),
    network: z
      .boolean()
      .nullable()
      .describe(
        'whether the release asks for hearth:network:access (in namespaces, an app without it has only a loopback of its own); null when the catalogue does not list permissions',
      ),
  }),
);
export type CatalogueRelease = z.infer<ReturnType<typeof CatalogueRelease>>;

export const CatalogueApp = lazy(() =>
  z.object({
    id: z.string(),
    /** In the hub's language; the id when the catalogue has no name. */
    name: z.string(),
    description: z.string().nullable(),
    /** The app's icon as the catalogue carries it (a data URL), or null. */
    icon: z.string().nullable(),
    brandColor: z.string().nullable(),
    /** Channel -> the release it offers, with what that release asks for. */
    channels: z.record(z.string(), CatalogueRelease()),
    /** The installed version and channel, or null. */
    installed: z.object({ version: z.string().nullable(), channel: z.string().nullable() }).nullable(),
  }),
);
export type CatalogueApp = z.infer<ReturnType<typeof CatalogueApp>>;
export const CatalogueView = lazy(() =>
  z.object({
    location: z.string().describe('the store folder or URL the hub installs from'),
    signed: z.boolean().describe('true when a store key is pinned: the catalogue was checked against it'),
    automaticUpdates: z.boolean().describe('whether store apps with autoupdate on are upgraded daily'),
    automaticUpdatesOff: z.string().nullable().describe('why automatic updates are off (plain http without a pinned key), or null'),
    apps: z.record(z.string(), CatalogueApp()),
  }),
);
export type CatalogueView = z.infer<ReturnType<typeof CatalogueView>>;

export const AppsState = lazy(() =>
  z.object({
    containment: z
      .enum(['namespaces', 'permission-model-only'])
      .describe("how apps are contained: namespaces of their own (bubblewrap) inside Node's permission model, or the permission model alone"),
    containmentReason: z.string().nullable().describe('why apps run with the permission model only; null in namespaces'),
    held: z.string().nullable().describe('why the hub starts no app (no namespaces, and the owner did not choose --app-sandbox off), or null'),
    apps: z.number().int(),
    running: z.number().int(),
    limits: z.object({
      memoryMb: z.number().int().describe("each app's memory ceiling (its proportional set size, sampled), unless its app.json asks for more"),
      memoryMaxMb: z.number().int().describe('the most an app.json may ask for'),
      diskMb: z.number().int().describe("each app's userdata quota"),
      diskMaxMb: z.number().int(),
      diskFloorMb: z.number().int().describe('free space kept on the data disk: below it an app that goes on writing is stopped'),
    }),
  }),
);
export type AppsState = z.infer<ReturnType<typeof AppsState>>;
