/**
 * dashboards: dashboards of widget instances, the app widgets they are made of (from installed
 * apps' manifests), a widget store per instance, and autocomplete answered by the owning app.
 * The widgets are read from the apps runtime once it has read the installed apps; app changes
 * arrive as app.* events on the bus.
 */

import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ChoosableDevice } from '../../home/device-choice.js';
import type { AppsPort } from '../apps/port.js';
import { appEventOf } from '../bus.js';
import type { ManagerContext } from '../context.js';
import { AppWidgetCatalog } from './app-widgets.js';
import { dashboardsContract } from './contract.js';
import { dashboardsOperations } from './operations.js';
import { DashboardsService } from './service.js';

export class DashboardsManager implements Manager {
  readonly name = dashboardsContract.name;
  readonly contract = dashboardsContract;
  readonly operations: readonly Operation[];
  readonly service: DashboardsService;
  private readonly catalog: AppWidgetCatalog;
  private off: Array<() => void> = [];

  constructor(
    private readonly ctx: ManagerContext,
    /** The home's devices, for the devices a widget is given. */
    devices: ((id: string) => ChoosableDevice | null) | null,
    /** App widgets are read from the runtime's manifests; autocomplete goes through it. */
    private readonly apps: AppsPort<'list' | 'manifest' | 'calls' | 'onLoaded'>,
  ) {
    this.catalog = new AppWidgetCatalog(apps, () => ctx.options.get<string>('i18n', 'language') ?? 'en');
    this.service = new DashboardsService(ctx.store, ctx.bus, this.catalog, devices);
    this.operations = dashboardsOperations(this.service, apps.calls);
  }

  async start(): Promise<void> {
    this.service.start();
    const { bus, options } = this.ctx;
    this.off.push(
      // The apps present at start-up are known: remember their widgets without announcing them.
      this.apps.onLoaded(() => {
        this.catalog.seed();
        this.service.invalidate();
      }),
      // Installs, upgrades and uninstalls reach us as app events; most app.update events are
      // state changes that leave the widgets as they were, and refresh() finds no change.
      bus.on('apps', (e) => {
        const app = appEventOf(e);
        if (app) this.service.appWidgetsChanged(this.catalog.refresh([app.id]));
      }),
      // Names follow the hub's language.
      options.onChange('i18n', (name) => {
        if (name === 'language') this.service.appWidgetsChanged(this.catalog.refresh());
      }),
    );
  }

  async stop(): Promise<void> {
    for (const f of this.off) f();
    this.off = [];
  }
}
