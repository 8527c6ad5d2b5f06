/**
 * Drivers: the installed apps' drivers (drivers.ts) and pairing sessions (sessions.ts), which add
 * devices through the devices manager.
 */

import type { SdkRouter } from '../../apps/host/router.js';
import type { AppRuntime } from '../../apps/host/runtime.js';
import type { Manager } from '../../core/managers.js';
import { implement, type Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import type { DevicesService } from '../devices/service.js';
import { driversContract } from './contract.js';
import { DriverCatalog } from './drivers.js';
import { PairSessions } from './sessions.js';

export class DriversManager implements Manager {
  readonly name = driversContract.name;
  readonly contract = driversContract;
  readonly operations: readonly Operation[];
  readonly catalog = new DriverCatalog();
  readonly sessions: PairSessions;
  private off: Array<() => void> = [];

  constructor(
    private readonly ctx: ManagerContext,
    devices: DevicesService,
  ) {
    const sessions = (this.sessions = new PairSessions(this.catalog, devices, ctx.bus));
    const language = () => ctx.options.get<string>('i18n', 'language') ?? 'en';
    this.operations = implement(driversContract.operations, {
      getState: () => ({ drivers: Object.keys(this.catalog.list()).length, pairSessions: sessions.count }),
      getDrivers: () => this.catalog.list(language()),
      getDriver: ({ params }) => this.catalog.get(params.id, language()).view,
      createPairSession: ({ body }) => sessions.create(body),
      getPairSession: ({ params }) => sessions.get(params.id),
      deletePairSession: async ({ params }) => {
        await sessions.end(params.id);
      },
      emitPairingHeartbeat: ({ params }) => {
        sessions.get(params.id);
        return null;
      },
      emitPairingEvent: ({ params, body }) => sessions.emit(params.id, body.event, body.data),
      createPairSessionDevice: ({ params, body }) => sessions.addDevice(params.id, body),
    });
  }

  serveSdk(router: SdkRouter): void {
    this.off.push(router.handle('pair.toView', (app, { session, kind, event, data }) => this.sessions.toView(app.id, session, { kind, event, data })));
  }

  attachApps(runtime: AppRuntime): void {
    this.catalog.attach(runtime);
  }

  async start(): Promise<void> {
    this.off.push(
      this.ctx.bus.subscribe((e) => {
        if (e.manager !== 'apps' || !e.event.startsWith('app.')) return;
        const app = e.args[0] as { id?: unknown; state?: unknown } | undefined;
        if (typeof app?.id === 'string' && (e.event === 'app.delete' || app.state !== 'running')) this.sessions.appStopped(app.id);
      }),
    );
  }

  async stop(): Promise<void> {
    for (const f of this.off) f();
    this.off = [];
    this.sessions.stop();
  }
}
