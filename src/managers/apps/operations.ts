/**
 * The apps handlers: each operation of the contract (contract.ts) as a thin call into the apps
 * service.
 */
import { implement, type Operation } from '../../core/operation.js';
import { appsContract } from './contract.js';
import type { AppsService } from './service.js';

export function appsOperations(service: AppsService): Operation[] {
  return implement(appsContract.operations, {
    getAppsState: () => service.state(),
    getApps: async () => {
      await service.runtime.rescan();
      return service.runtime.list();
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
    setAppSetting: ({ params, body }) => service.setSetting(params.id, params.name, body.value),
    unsetAppSetting: ({ params }) => service.unsetSetting(params.id, params.name),
    getAppStd: ({ params, body }) => service.runtime.crashLog(params.id, body.message),
    getAppStore: () => service.catalogue(),
    installFromAppStore: ({ body }) => {
      const { id, ...opts } = body;
      return service.install(id, opts);
    },
  });
}
