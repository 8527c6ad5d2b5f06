/**
 * Drivers: the installed apps' drivers (drivers.ts), pairing sessions (sessions.ts), which add
 * devices through the devices manager, and the mDNS-SD discovery their drivers ask for
 * (discovery.ts).
 */

import type { DiscoveryStrategy } from '../../apps/manifest/drivers.js';
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { AppsPort } from '../apps/port.js';
import { appEventOf } from '../bus.js';
import type { ManagerContext } from '../context.js';
import type { DevicesService } from '../devices/service.js';
import { driversContract } from './contract.js';
import { Discovery } from './discovery.js';
import { DriverCatalog } from './drivers.js';
import { OAuth2Callbacks } from './oauth2.js';
import { driversOperations } from './operations.js';
import { PairSessions } from './sessions.js';

export class DriversManager implements Manager {
  readonly name = driversContract.name;
  readonly contract = driversContract;
  readonly operations: readonly Operation[];
  readonly catalog: DriverCatalog;
  readonly sessions: PairSessions;
  readonly discovery: Discovery;
  private readonly oauth2 = new OAuth2Callbacks();
  private off: Array<() => void> = [];

  constructor(
    private readonly ctx: ManagerContext,
    devices: DevicesService,
    private readonly apps: AppsPort<'list' | 'manifest' | 'calls'>,
  ) {
    this.catalog = new DriverCatalog(apps);
    const sessions = (this.sessions = new PairSessions(this.catalog, devices, ctx.bus));
    this.discovery = new Discovery(
      {
        watched: () => this.watched(),
        send: (appId, strategy, result) => this.catalog.call(appId, 'discovery.result', { strategy, result }, 10_000),
      },
      ctx.log,
    );
    this.operations = driversOperations({
      catalog: this.catalog,
      sessions,
      oauth2: this.oauth2,
      language: () => ctx.options.get<string>('i18n', 'language') ?? 'en',
    });
  }

  /** The discovery strategies a driver uses, of every app that runs with the network. */
  private watched(): Array<{ appId: string; strategyId: string; strategy: DiscoveryStrategy }> {
    const rt = this.apps;
    return Object.values(rt.list()).flatMap((app) => {
      const manifest = rt.manifest(app.id);
      if (!manifest || app.state !== 'running' || !app.network) return [];
      const used = new Set(manifest.drivers.map((d) => d.discovery).filter((d): d is string => typeof d === 'string'));
      return Object.entries(manifest.discovery)
        .filter(([id]) => used.has(id))
        .map(([strategyId, strategy]) => ({ appId: app.id, strategyId, strategy }));
    });
  }

  async start(): Promise<void> {
    const { router } = this.apps;
    this.off.push(
      router.handle('pair.toView', (app, { session, kind, event, data }) => this.sessions.toView(app.id, session, { kind, event, data })),
      router.handle('discovery.results', (app) => this.discovery.results(app.id)),
      router.handle('oauth2.callback', (app) => this.oauth2.create(app.id)),
      this.ctx.bus.on('apps', (e) => {
        const app = appEventOf(e);
        if (app?.gone) {
          this.sessions.appStopped(app.id);
          this.oauth2.forget(app.id);
        }
        if (app?.running) this.discovery.refresh();
      }),
    );
  }

  async stop(): Promise<void> {
    for (const f of this.off) f();
    this.off = [];
    this.sessions.stop();
    this.discovery.stop();
  }
}
