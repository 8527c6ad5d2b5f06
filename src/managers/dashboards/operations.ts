/**
 * The dashboards handlers: each operation of the contract (contract.ts) as a call into the
 * service, the app widget catalogue or the owning app (autocomplete).
 */
import { notFound } from '../../core/errors.js';
import { implement, type Operation } from '../../core/operation.js';
import { type AutocompleteRuntime, autocomplete, InFlight } from './autocomplete.js';
import { dashboardsContract } from './contract.js';
import type { DashboardsService } from './service.js';
import { LIMITS } from './views.js';

export function dashboardsOperations(service: DashboardsService, runtime: AutocompleteRuntime): Operation[] {
  const { catalog } = service;
  const inFlight = new InFlight(LIMITS.autocompleteInFlight);
  return implement(dashboardsContract.operations, {
    getDashboards: () => service.list(),
    getDashboard: ({ params }) => service.get(params.id),
    createDashboard: ({ body }) => service.create(body),
    updateDashboard: ({ params, body }) => service.update(params.id, body),
    deleteDashboard: ({ params }) => service.remove(params.id),
    getAppWidgets: () => catalog.list(),
    getAppWidget: ({ params }) => {
      const w = catalog.get(params.id);
      if (!w) throw notFound(`app widget '${params.id}' does not exist; list them with GET /api/manager/dashboards/appwidget`);
      return w;
    },
    getAppWidgetAutocomplete: ({ params, query }, ctx) => autocomplete(catalog, runtime, params.id, query, inFlight, ctx.signal),
    getWidgetStores: () => service.listStores(),
    getWidgetStore: ({ params }) => service.getStore(params.id),
    getWidgetStoreState: ({ params }) => service.getStore(params.id).state,
    setWidgetStoreState: ({ params, body }) => service.setState(params.id, body.state, body.replace ?? false),
    getState: () => service.state(),
  });
}
