/**
 * The apps operation table: the 15 operations of the apps section of the Web API (test/fixtures/api.json), and the
 * store catalogue (an extension), each a thin call into the apps service.
 */
import { z } from 'zod';
import { defineOperation, type Operation } from '../../core/operation.js';
import type { AppsService } from './service.js';
import { AppsState, AppView, CrashLog, Heap, StoreCatalogue } from './views.js';
import { safeRecord } from '../../core/records.js';

const Id = z.object({ id: z.string().min(1).max(128) });
const IdName = z.object({ id: z.string().min(1).max(128), name: z.string().min(1).max(256) });

const flag = z
  .enum(['true', 'false', '1', '0'], { error: 'purgeSettings must be "true" or "false"' })
  .transform((v) => v === 'true' || v === '1');

export function appsOperations(service: AppsService): Operation[] {
  return [
    defineOperation({
      id: 'getAppsState',
      method: 'GET',
      path: '/state',
      scope: 'service.app.readonly',
      extension: true,
      summary: 'How apps are contained on this hub, how many run, and the limits each gets',
      output: AppsState,
      handler: () => service.state(),
    }),
    defineOperation({
      id: 'getApps',
      method: 'GET',
      path: '/app',
      scope: 'service.app.readonly',
      summary: 'Installed apps, keyed by id (app folders placed in the apps folder by hand are picked up here too)',
      output: z.record(z.string(), AppView),
      handler: async () => {
        await service.runtime.rescan();
        return service.runtime.list();
      },
    }),
    defineOperation({
      id: 'getApp',
      method: 'GET',
      path: '/app/:id',
      scope: 'service.app.readonly',
      summary: 'One installed app',
      params: Id,
      output: AppView,
      handler: ({ params }) => service.runtime.get(params.id),
    }),
    defineOperation({
      id: 'updateApp',
      method: 'PUT',
      path: '/app/:id',
      scope: 'service.app',
      summary: 'Change an app; only `autoupdate` is writable (other fields may be sent unchanged)',
      params: Id,
      body: safeRecord(z.string(), z.unknown(), { error: 'the body must be an App object such as {"autoupdate": false}' }),
      bodyRoot: 'app',
      output: AppView,
      handler: ({ params, body }) => service.update(params.id, body),
    }),
    defineOperation({
      id: 'uninstallApp',
      method: 'DELETE',
      path: '/app/:id',
      scope: 'service.app',
      summary: 'Stop and remove an app; purgeSettings=true also removes its settings and userdata',
      params: Id,
      query: z.object({ purgeSettings: flag.optional() }),
      status: 204,
      handler: ({ params, query }) => service.uninstall(params.id, query.purgeSettings ?? false),
    }),
    defineOperation({
      id: 'enableApp',
      method: 'PUT',
      path: '/app/:id/enable',
      scope: 'service.app',
      summary: 'Enable and start an app (also clears a crashed hold and re-reads its manifest)',
      params: Id,
      output: AppView,
      handler: ({ params }) => service.runtime.setEnabled(params.id, true),
    }),
    defineOperation({
      id: 'disableApp',
      method: 'PUT',
      path: '/app/:id/disable',
      scope: 'service.app',
      summary: 'Stop an app and keep it stopped across hub restarts',
      params: Id,
      output: AppView,
      handler: ({ params }) => service.runtime.setEnabled(params.id, false),
    }),
    defineOperation({
      id: 'restartApp',
      method: 'POST',
      path: '/app/:id/restart',
      scope: 'service.app',
      summary: 'Restart an enabled app (clears its crash history)',
      params: Id,
      output: AppView,
      handler: ({ params }) => service.runtime.restart(params.id),
    }),
    defineOperation({
      id: 'garbageCollectApp',
      method: 'POST',
      path: '/app/:id/gc',
      scope: 'service.app',
      summary: "Run the garbage collector in the app's process; answers its heap before and after",
      params: Id,
      output: z.object({ before: Heap, after: Heap }),
      handler: ({ params }) => service.runtime.gc(params.id),
    }),
    defineOperation({
      id: 'getAppLocales',
      method: 'GET',
      path: '/app/:id/locale',
      scope: 'service.app.readonly',
      summary: "The app's locales/<language>.json files, keyed by language",
      params: Id,
      output: z.record(z.string(), z.unknown()),
      handler: ({ params }) => service.runtime.locales(params.id),
    }),
    defineOperation({
      id: 'getAppSettings',
      method: 'GET',
      path: '/app/:id/setting',
      scope: 'service.app.control',
      summary: "The app's settings values, keyed by name",
      params: Id,
      output: z.record(z.string(), z.unknown()),
      handler: ({ params }) => service.runtime.settings.all(params.id),
    }),
    defineOperation({
      id: 'getAppSetting',
      method: 'GET',
      path: '/app/:id/setting/:name',
      scope: 'service.app.control',
      summary: 'One settings value (404 when unset)',
      params: IdName,
      // z.json() is recursive, which the OpenAPI generator cannot walk: described instead.
      output: z.unknown().describe('the setting: any JSON value (null when set to null), at most 64 KiB as JSON'),
      handler: ({ params }) => service.getSetting(params.id, params.name),
    }),
    defineOperation({
      id: 'setAppSetting',
      method: 'PUT',
      path: '/app/:id/setting/:name',
      scope: 'service.app.control',
      summary: 'Set one settings value (any JSON up to 64 KiB); the app hears it through hub.settings.on("set")',
      params: IdName,
      body: z.object({ value: z.unknown().refine((v) => v !== undefined, { error: 'value is required' }) }),
      // z.json() is recursive, which the OpenAPI generator cannot walk: described instead.
      output: z.unknown().describe('the setting: any JSON value (null when set to null), at most 64 KiB as JSON'),
      handler: ({ params, body }) => service.runtime.settings.set(params.id, params.name, body.value),
    }),
    defineOperation({
      id: 'unsetAppSetting',
      method: 'DELETE',
      path: '/app/:id/setting/:name',
      scope: 'service.app.control',
      summary: 'Remove one settings value; the app hears it through hub.settings.on("unset")',
      params: IdName,
      status: 204,
      handler: ({ params }) => service.runtime.settings.unset(params.id, params.name, { mustExist: true }),
    }),
    defineOperation({
      id: 'getAppStd',
      method: 'POST',
      path: '/app/:id/crashlog',
      scope: 'service.app.readonly',
      summary: 'Tails of stdout/stderr and the crash fields; `message` is recorded with the crash report',
      params: Id,
      body: z.object({ message: z.string({ error: 'message must be a string' }).max(4096).optional() }),
      output: CrashLog,
      handler: ({ params, body }) => service.runtime.crashLog(params.id, body.message),
    }),
    defineOperation({
      id: 'getAppStore',
      method: 'GET',
      path: '/store/',
      scope: 'service.app.readonly',
      extension: true,
      summary: "The app store's catalogue: each app with its channels' versions, the permissions each asks for (with what they mean on hearth, and whether it uses the network), and what of it is installed",
      output: StoreCatalogue,
      handler: () => service.catalogue(),
    }),
    defineOperation({
      id: 'installFromAppStore',
      method: 'POST',
      path: '/store/',
      scope: 'service.app',
      summary:
        'Install or upgrade an app from the app store catalogue and start it; an older version than the installed one only when `version` names it (a downgrade is never a side effect)',
      body: z.object({
        id: z.string({ error: 'id is required: the app id in the store' }).min(1).max(128),
        channel: z.string().min(1).max(32).optional(),
        version: z.string().min(1).max(64).optional(),
      }),
      output: AppView,
      handler: ({ body }) => service.install(body.id, body.channel, body.version),
    }),
  ];
}
