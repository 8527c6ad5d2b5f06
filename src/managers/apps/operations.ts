/**
 * The apps handlers: each operation of the contract (contract.ts) as a thin call into the apps
 * service. An app's own token (its Homey client, `this.homey.api`) sees its own app only: the
 * list holds it alone, and every other app's id answers as an app that is not installed (its
 * output may hold keys and passwords the app logged).
 */
import { HearthError } from '../../core/errors.js';
import { nullRecord } from '../../core/null-prototype.js';
import { implement, type Operation } from '../../core/operation.js';
import { grants } from '../../core/scopes.js';
import { appOfToken } from '../../core/tokens.js';
import { appsContract } from './contract.js';
import type { AppsService } from './service.js';

export function appsOperations(service: AppsService): Operation[] {
  const operations = implement(appsContract.operations, {
    getAppsState: () => service.state(),
    getApps: async (_input, ctx) => {
      await service.runtime.rescan();
      const all = service.runtime.list();
      const own = appOfToken(ctx.token);
      if (own === null) return all;
      const mine = nullRecord<(typeof all)[string]>();
      if (Object.hasOwn(all, own)) mine[own] = all[own]!;
      return mine;
    },
    getApp: ({ params }) => service.runtime.get(params.id),
    updateApp: ({ params, body }) => service.update(params.id, body),
    uninstallApp: ({ params, query }) => service.uninstall(params.id, query.purgeSettings ?? false),
    enableApp: ({ params }) => service.runtime.decisions.setEnabled(params.id, true),
    disableApp: ({ params }) => service.runtime.decisions.setEnabled(params.id, false),
    restartApp: ({ params }) => service.runtime.decisions.restart(params.id),
    garbageCollectApp: ({ params }) => service.runtime.calls.gc(params.id),
    getAppLocales: ({ params }) => service.runtime.locales(params.id),
    getAppSettings: ({ params }) => service.settings(params.id),
    getAppSetting: ({ params }) => service.getSetting(params.id, params.name),
    // Who changed it is heard with the key on the app's channel (its settings page, its widgets).
    setAppSetting: ({ params, body }, ctx) => service.setSetting(params.id, params.name, body.value, ctx.token?.actor ?? null),
    unsetAppSetting: ({ params }, ctx) => service.unsetSetting(params.id, params.name, ctx.token?.actor ?? null),
    getAppStd: ({ params, body }, ctx) => {
      // Reading is the read scope's; recording a message with the crash report is a write.
      if (body.message !== undefined && !(ctx.token && grants(ctx.token.scopes, 'service.app.control')))
        throw new HearthError(
          'missing_scope',
          "recording a message with an app's crash report needs the scope 'service.app.control'; without a message the log is only read",
        );
      return service.runtime.crashLog(params.id, body.message);
    },
    getAppLog: ({ params, query }) => service.runtime.followLog(params.id, { stdout: query.stdout ?? 0, stderr: query.stderr ?? 0 }),
    uploadApp: ({ upload }) => service.uploads.stage(upload as ReadableStream<Uint8Array>),
    getAppSourceUpdate: ({ params }) => {
      const { source } = service.runtime.get(params.id);
      if (!source) throw new HearthError('conflict', `app '${params.id}' was not fetched from a repository, so it has no releases to follow`);
      return service.sourceUpdates.check(params.id, source);
    },
    getAppFromRepository: ({ body }) => service.uploads.fromRepository(body.repo, service.repos),
    getUploadedApp: ({ params }) => service.uploads.get(params.upload),
    installUploadedApp: ({ params, body }) => service.uploads.install(params.upload, body.network === undefined ? {} : { network: body.network }),
    discardUploadedApp: async ({ params }) => {
      await service.uploads.discard(params.upload);
      return null;
    },
    getAppStore: () => service.catalogue(),
    installFromAppStore: ({ body }) => {
      const { id, ...opts } = body;
      return service.install(id, opts);
    },
  });
  return operations.map((op) => ({ ...op, handler: ownAppOnly(op.handler) }));
}

/** An app's token names its own app only; another app's id answers as one not installed. */
function ownAppOnly(handler: Operation['handler']): Operation['handler'] {
  return (input, ctx) => {
    const own = appOfToken(ctx.token);
    const id = (input.params as { id?: unknown } | undefined)?.id;
    if (own !== null && typeof id === 'string' && id !== own) throw new HearthError('not_found', `app '${id}' is not installed`);
    return handler(input, ctx);
  };
}
