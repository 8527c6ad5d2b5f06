/**
 * Devices: the devices the home's apps paired, their capabilities and values (service.ts), the
 * SDK calls their apps make (sdk.ts, served on the runtime's router while it runs); app.*
 * events say when an app starts, stops or goes.
 */

import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { AppsPort } from '../apps/port.js';
import { appEventOf } from '../bus.js';
import type { ManagerContext } from '../context.js';
import type { InsightsService } from '../insights/service.js';
import { reachOf } from '../zones/reach.js';
import type { ZonesService } from '../zones/service.js';
import { devicesContract } from './contract.js';
import { DeviceLogs } from './device-logs.js';
import { devicesOperations } from './operations.js';
import { serveDevices } from './sdk.js';
import { DevicesService } from './service.js';

export class DevicesManager implements Manager {
  readonly name = devicesContract.name;
  readonly contract = devicesContract;
  readonly operations: readonly Operation[];
  readonly service: DevicesService;
  private off: Array<() => void> = [];
  /** Whether each app ran when its devices were last published. */
  private readonly running = new Map<string, boolean>();

  constructor(
    private readonly ctx: ManagerContext,
    zones: ZonesService,
    insights: InsightsService | null,
    private readonly apps: AppsPort<'manifest' | 'has' | 'supervisor' | 'calls'>,
  ) {
    const logs = insights ? new DeviceLogs(insights, ctx.log) : null;
    const service = (this.service = new DevicesService(
      ctx.store,
      ctx.bus,
      zones,
      ctx.log,
      {
        manifest: (appId) => apps.manifest(appId),
        down: (appId) => {
          if (!apps.has(appId)) return `its app '${appId}' is not installed`;
          return apps.supervisor(appId).state.ready ? null : `its app '${appId}' is not running`;
        },
        call: (appId, method, args, timeoutMs) => apps.calls.device(appId, method, args, timeoutMs),
      },
      logs,
    ));
    this.operations = devicesOperations(service, reachOf(zones));
  }

  async start(): Promise<void> {
    this.service.start();
    this.off.push(
      ...serveDevices(this.apps.router, this.service),
      // An app that starts, stops or crashes makes its devices available or not; an uninstalled
      // app takes its devices with it.
      this.ctx.bus.on('apps', (e) => {
        const app = appEventOf(e);
        if (!app) return;
        const appId = app.id;
        if (app.deleted) {
          this.running.delete(appId);
          void this.service
            .removeApp(appId)
            .catch((err: unknown) => this.ctx.log.error({ err, app: appId }, 'could not remove the devices of an uninstalled app'));
          return;
        }
        const running = app.running;
        // An app not seen yet was not running (the hub starting, or an app just installed): its
        // devices were shown so, and its first 'starting' changes nothing.
        if ((this.running.get(appId) ?? false) === running) return;
        this.running.set(appId, running);
        this.service.appChanged(appId, running ? `its app '${appId}' is not running` : null);
      }),
    );
  }

  async stop(): Promise<void> {
    for (const f of this.off) f();
    this.off = [];
    await this.service.stop();
  }
}
