/**
 * The dashboards operation table: the 13 operations of the contract (dashboards, app widgets,
 * widget stores, autocomplete, state).
 */
import { z } from 'zod';
import { notFound } from '../../core/errors.js';
import { defineOperation, type Operation } from '../../core/operation.js';
import { InFlight, autocomplete, type AutocompleteRuntime } from './autocomplete.js';
import {
  LIMITS,
  AppWidgetView,
  AutocompleteResult,
  CreateDashboardBody,
  DashboardView,
  StateView,
  UpdateDashboardBody,
  WidgetStore,
} from './schema.js';
import type { DashboardsService } from './service.js';
import { safeRecord } from '../../core/records.js';

const Id = z.object({ id: z.string().min(1).max(200) });
const JsonObject = safeRecord(z.string(), z.unknown());

export function dashboardsOperations(service: DashboardsService, runtime: () => AutocompleteRuntime | null): Operation[] {
  const { catalog } = service;
  const inFlight = new InFlight(LIMITS.autocompleteInFlight);
  return [
    defineOperation({
      id: 'getDashboards',
      method: 'GET',
      path: '/dashboard',
      scope: 'service.dashboard.readonly',
      summary: 'Every dashboard, keyed by id',
      output: z.record(z.string(), DashboardView),
      handler: () => service.list(),
    }),
    defineOperation({
      id: 'getDashboard',
      method: 'GET',
      path: '/dashboard/:id',
      scope: 'service.dashboard.readonly',
      summary: 'One dashboard',
      params: Id,
      output: DashboardView,
      handler: ({ params }) => service.get(params.id),
    }),
    defineOperation({
      id: 'createDashboard',
      method: 'POST',
      path: '/dashboard',
      scope: 'service.dashboard',
      summary: 'Create a dashboard `{name, columns: [{widgets: [{appWidgetId, settings?, height?}]}]}`; missing ids are filled in',
      body: CreateDashboardBody,
      bodyRoot: 'dashboard',
      status: 201,
      output: DashboardView,
      handler: ({ body }) => service.create(body),
    }),
    defineOperation({
      id: 'updateDashboard',
      method: 'PUT',
      path: '/dashboard/:id',
      scope: 'service.dashboard',
      summary: 'Change the name and/or the columns of a dashboard (fields left out stay)',
      params: Id,
      body: UpdateDashboardBody,
      bodyRoot: 'dashboard',
      output: DashboardView,
      handler: ({ params, body }) => service.update(params.id, body),
    }),
    defineOperation({
      id: 'deleteDashboard',
      method: 'DELETE',
      path: '/dashboard/:id',
      scope: 'service.dashboard',
      summary: 'Delete a dashboard and the widget stores of its widgets',
      params: Id,
      status: 204,
      handler: ({ params }) => service.remove(params.id),
    }),
    defineOperation({
      id: 'getAppWidgets',
      method: 'GET',
      path: '/appwidget',
      scope: 'service.dashboard.readonly',
      summary: "Every widget of the installed apps, keyed by '<appId>:<widgetId>'",
      output: z.record(z.string(), AppWidgetView),
      handler: () => catalog.list(),
    }),
    defineOperation({
      id: 'getAppWidget',
      method: 'GET',
      path: '/appwidget/:id',
      scope: 'service.dashboard.readonly',
      summary: 'One app widget',
      params: Id,
      output: AppWidgetView,
      handler: ({ params }) => {
        const w = catalog.get(params.id);
        if (!w) throw notFound(`app widget '${params.id}' does not exist; list them with GET /api/manager/dashboards/appwidget`);
        return w;
      },
    }),
    defineOperation({
      id: 'getAppWidgetAutocomplete',
      method: 'GET',
      path: '/appwidget/:id/autocomplete',
      scope: 'service.dashboard.readonly',
      summary: "Choices for an autocomplete setting, answered by the widget's app (at most 100)",
      params: Id,
      query: z.object({
        settingId: z.string().min(1).max(64),
        query: z.string().max(1000),
        settings: z.string().max(64 * 1024).optional().describe('JSON-encoded object: the widget settings chosen so far'),
      }),
      output: z.array(AutocompleteResult),
      handler: ({ params, query }, ctx) => autocomplete(catalog, runtime(), params.id, query, inFlight, ctx.signal),
    }),
    defineOperation({
      id: 'getWidgetStores',
      method: 'GET',
      path: '/widgetstore',
      scope: 'service.dashboard.readonly',
      summary: 'Every widget store (one per widget on a dashboard), keyed by the widget id',
      output: z.record(z.string(), WidgetStore),
      handler: () => service.listStores(),
    }),
    defineOperation({
      id: 'getWidgetStore',
      method: 'GET',
      path: '/widgetstore/:id',
      scope: 'service.dashboard.readonly',
      summary: 'One widget store',
      params: Id,
      output: WidgetStore,
      handler: ({ params }) => service.getStore(params.id),
    }),
    defineOperation({
      id: 'getWidgetStoreState',
      method: 'GET',
      path: '/widgetstore/:id/state',
      scope: 'service.dashboard.readonly',
      summary: 'The state object of a widget store',
      params: Id,
      output: JsonObject,
      handler: ({ params }) => service.getStore(params.id).state,
    }),
    defineOperation({
      id: 'setWidgetStoreState',
      method: 'POST',
      path: '/widgetstore/:id/state',
      scope: 'service.dashboard.readonly',
      summary: 'Merge `state` into the state of a widget store (replace it with `replace: true`); answers the new state',
      params: Id,
      body: z.strictObject({ state: JsonObject, replace: z.boolean().optional() }),
      output: JsonObject,
      handler: ({ params, body }) => service.setState(params.id, body.state, body.replace ?? false),
    }),
    defineOperation({
      id: 'getState',
      method: 'GET',
      path: '/state',
      scope: 'service.system.readonly',
      summary: 'Counts of dashboards, widgets, widget stores and app widgets (and those whose app is not running)',
      output: StateView,
      handler: () => service.state(),
    }),
  ];
}
