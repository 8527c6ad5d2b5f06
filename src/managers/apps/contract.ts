/**
 * The apps contract: the apps section of the Web API (test/fixtures/api.json) and the store
 * catalogue (an extension), and the events of apps and notifications.
 */
import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '../../apps/catalogue/upload-limits.js';
import { defineContract, lazy, op } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';
import { safeRecord } from '../../core/null-prototype.js';
import { UPLOAD_TYPES } from '../backup/contract.js';
import { AppLog, AppsState, AppView, CatalogueView, CrashLog, Heap, SourceUpdate, UploadedApp } from './views.js';

const Id = lazy(() => z.object({ id: z.string().min(1).max(128) }));
const IdName = lazy(() => z.object({ id: z.string().min(1).max(128), name: z.string().min(1).max(256) }));

/** A reader's place in an app's output stream: a whole number of bytes, as the last answer's `next` gave it. */
const Cursor = lazy(() =>
  z
    .string()
    .regex(/^\d{1,15}$/, 'a log cursor is a whole number of bytes (the `next` of the last answer)')
    .transform(Number),
);

const flag = lazy(() => z.enum(['true', 'false', '1', '0'], { error: 'purgeSettings must be "true" or "false"' }).transform((v) => v === 'true' || v === '1'));

export const appsContract = defineContract({
  name: 'apps',
  eventScope: 'service.app.readonly',
  events: lazy(() => resourceEvents('app', AppView())),
  operations: {
    getAppsState: op(
      {
        method: 'GET',
        path: '/state',
        scope: 'service.app.readonly',
        extension: true,
        summary: 'How apps are contained on this hub, how many run, and the limits each gets',
      },
      () => ({
        output: AppsState(),
      }),
    ),
    getApps: op(
      {
        method: 'GET',
        path: '/app',
        scope: 'service.app.readonly',
        summary: 'Installed apps, keyed by id (app folders placed in the apps folder by hand are picked up here too)',
      },
      () => ({
        output: z.record(z.string(), AppView()),
      }),
    ),
    getApp: op(
      {
        method: 'GET',
        path: '/app/:id',
        scope: 'service.app.readonly',
        summary: 'One installed app',
      },
      () => ({
        params: Id(),
        output: AppView(),
      }),
    ),
    updateApp: op(
      {
        method: 'PUT',
        path: '/app/:id',
        scope: 'service.app',
        summary:
          "Change an app; only `autoupdate` and `network` (the owner's grant of network access; a running app restarts) are writable (other fields may be sent unchanged)",
        bodyRoot: 'app',
      },
      () => ({
        params: Id(),
        body: safeRecord(z.string(), z.unknown(), { error: 'the body must be an App object such as {"autoupdate": false}' }),
        output: AppView(),
      }),
    ),
    uninstallApp: op(
      {
        method: 'DELETE',
        path: '/app/:id',
        scope: 'service.app',
        summary: 'Stop and remove an app; purgeSettings=true also removes its settings and userdata',
        status: 204,
      },
      () => ({
        params: Id(),
        query: z.object({ purgeSettings: flag().optional() }),
      }),
    ),
    enableApp: op(
      {
        method: 'PUT',
        path: '/app/:id/enable',
        scope: 'service.app',
        summary: 'Enable and start an app (also clears a crashed hold and re-reads its manifest)',
      },
      () => ({
        params: Id(),
        output: AppView(),
      }),
    ),
    disableApp: op(
      {
        method: 'PUT',
        path: '/app/:id/disable',
        scope: 'service.app',
        summary: 'Stop an app and keep it stopped across hub restarts',
      },
      () => ({
        params: Id(),
        output: AppView(),
      }),
    ),
    restartApp: op(
      {
        method: 'POST',
        path: '/app/:id/restart',
        scope: 'service.app',
        summary: 'Restart an enabled app (clears its crash history)',
      },
      () => ({
        params: Id(),
        output: AppView(),
      }),
    ),
    garbageCollectApp: op(
      {
        method: 'POST',
        path: '/app/:id/gc',
        scope: 'service.app',
        summary: "Run the garbage collector in the app's process; answers its heap before and after",
      },
      () => ({
        params: Id(),
        output: z.object({ before: Heap(), after: Heap() }),
      }),
    ),
    getAppLocales: op(
      {
        method: 'GET',
        path: '/app/:id/locale',
        scope: 'service.app.readonly',
        summary: "The app's locales/<language>.json files, keyed by language",
      },
      () => ({
        params: Id(),
        output: z.record(z.string(), z.unknown()),
      }),
    ),
    getAppSettings: op(
      {
        method: 'GET',
        path: '/app/:id/setting',
        scope: 'service.app.control',
        summary: "The app's settings values, keyed by name",
      },
      () => ({
        params: Id(),
        output: z.record(z.string(), z.unknown()),
      }),
    ),
    getAppSetting: op(
      {
        method: 'GET',
        path: '/app/:id/setting/:name',
        scope: 'service.app.control',
        summary: 'One settings value (404 when unset)',
      },
      () => ({
        params: IdName(),
        output: z.unknown().describe('the setting: any JSON value (null when set to null), at most 64 KiB as JSON'),
      }),
    ),
    setAppSetting: op(
      {
        method: 'PUT',
        path: '/app/:id/setting/:name',
        scope: 'service.app.control',
        summary: 'Set one settings value (any JSON up to 64 KiB); the app hears it through hub.settings.on("set")',
      },
      () => ({
        params: IdName(),
        body: z.object({ value: z.unknown().refine((v) => v !== undefined, { error: 'value is required' }) }),
        output: z.unknown().describe('the setting: any JSON value (null when set to null), at most 64 KiB as JSON'),
      }),
    ),
    unsetAppSetting: op(
      {
        method: 'DELETE',
        path: '/app/:id/setting/:name',
        scope: 'service.app.control',
        summary: 'Remove one settings value; the app hears it through hub.settings.on("unset")',
        status: 204,
      },
      () => ({
        params: IdName(),
      }),
    ),
    getAppStd: op(
      {
        method: 'POST',
        path: '/app/:id/crashlog',
        scope: 'service.app.readonly',
        summary: 'Tails of stdout/stderr and the crash fields; `message` is recorded with the crash report',
      },
      () => ({
        params: Id(),
        body: z.object({ message: z.string({ error: 'message must be a string' }).max(4096).optional() }),
        output: CrashLog(),
      }),
    ),
    getAppLog: op(
      {
        method: 'GET',
        path: '/app/:id/log',
        scope: 'service.app.readonly',
        extension: true,
        summary:
          "What the app wrote to stdout and stderr after the reader's cursors (each part's `next`; none: all that is kept, the last 64 KiB of each), to follow its log live as homey app run does",
      },
      () => ({
        params: Id(),
        query: z.object({ stdout: Cursor().optional(), stderr: Cursor().optional() }),
        output: AppLog(),
      }),
    ),
    getAppStore: op(
      {
        method: 'GET',
        path: '/store/',
        scope: 'service.app.readonly',
        extension: true,
        summary:
          "The app store's catalogue: each app with its channels' versions, the permissions each asks for (with what they mean on hearth, and whether it uses the network), and what of it is installed",
      },
      () => ({
        output: CatalogueView(),
      }),
    ),
    installFromAppStore: op(
      {
        method: 'POST',
        path: '/store/',
        scope: 'service.app',
        summary:
          'Install or upgrade an app from the app store catalogue and start it; an older version than the installed one only when `version` names it (a downgrade is never a side effect)',
      },
      () => ({
        body: z.object({
          id: z.string({ error: 'id is required: the app id in the store' }).min(1).max(128),
          channel: z.string().min(1).max(32).optional(),
          version: z.string().min(1).max(64).optional(),
          network: z
            .boolean()
            .optional()
            .describe(
              'grant the app the network (the LAN and the internet); without it a new install has it only when its release asks for hearth:network:access, and an upgrade keeps what the app had',
            ),
        }),
        output: AppView(),
      }),
    ),
    uploadApp: op(
      {
        method: 'POST',
        path: '/upload/',
        scope: 'service.app',
        extension: true,
        summary:
          'Upload an archive of an app folder (.tar.gz as the body): unpacked and checked; answers what the app is and asks for, to install within 10 minutes (of its build, when its npm packages or TypeScript are built, contained) or discard',
        upload: { types: UPLOAD_TYPES, maxBytes: MAX_UPLOAD_BYTES },
        status: 201,
      },
      () => ({ output: UploadedApp() }),
    ),
    getAppFromRepository: op(
      {
        method: 'POST',
        path: '/source/',
        scope: 'service.app',
        extension: true,
        summary:
          'Fetch an app from its GitHub repository (`owner/name`, optionally `@tag` or commit), as the commit that is now; checked as an upload (nothing of it runs) and answered the same way, to install or discard',
        status: 201,
      },
      () => ({
        body: z.object({ repo: z.string({ error: 'repo is required: owner/name, e.g. athombv/com.athom.homeyscript' }).min(3).max(300) }),
        output: UploadedApp(),
      }),
    ),
    getAppSourceUpdate: op(
      {
        method: 'GET',
        path: '/app/:id/source-update',
        scope: 'service.app.readonly',
        extension: true,
        summary:
          'For an app fetched from a repository: its latest release, and whether it is another than the one installed (GitHub asked at most every 6 hours per app); upgrade by fetching that tag and installing it',
      },
      () => ({ params: Id(), output: SourceUpdate() }),
    ),
    getUploadedApp: op(
      {
        method: 'GET',
        path: '/upload/:upload',
        scope: 'service.app',
        extension: true,
        summary: 'An uploaded or fetched app waiting to be installed, with its build as it is now (a build may take minutes)',
      },
      () => ({ params: z.object({ upload: z.string().min(1).max(64) }), output: UploadedApp() }),
    ),
    installUploadedApp: op(
      {
        method: 'POST',
        path: '/upload/:upload/install',
        scope: 'service.app',
        extension: true,
        summary: 'Install an uploaded app as a local app and start it (replacing a local app of its id, whose settings stay)',
      },
      () => ({
        params: z.object({ upload: z.string().min(1).max(64) }),
        body: z.object({ network: z.boolean().optional().describe('grant the app the network (the LAN and the internet)') }),
        output: AppView(),
      }),
    ),
    discardUploadedApp: op(
      {
        method: 'DELETE',
        path: '/upload/:upload',
        scope: 'service.app',
        extension: true,
        summary: 'Drop an uploaded app without installing it',
        status: 204,
      },
      () => ({ params: z.object({ upload: z.string().min(1).max(64) }) }),
    ),
  },
});
