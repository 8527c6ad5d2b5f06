/**
 * The dashboards contract: dashboards, app widgets, widget stores, autocomplete and state (13
 * operations), and the events of dashboards, widget stores and app widgets.
 */
import { z } from 'zod';
import { defineContract, lazy, op } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';
import { safeRecord } from '../../core/null-prototype.js';
import { AppWidgetView, AutocompleteResult, CreateDashboardBody, DashboardView, StateView, UpdateDashboardBody, WidgetStore } from './views.js';

const Id = lazy(() => z.object({ id: z.string().min(1).max(200) }));
const JsonObject = lazy(() => safeRecord(z.string(), z.unknown()));

export const dashboardsContract = defineContract({
  name: 'dashboards',
  eventScope: 'service.dashboard.readonly',
  events: lazy(() => ({
    ...resourceEvents('dashboard', DashboardView()),
    ...resourceEvents('widgetstore', WidgetStore()),
    ...resourceEvents('appwidget', AppWidgetView()),
  })),
  operations: {
    getDashboards: op(
      {
        method: 'GET',
        path: '/dashboard',
        scope: 'service.dashboard.readonly',
        summary: 'Every dashboard, keyed by id',
      },
      () => ({
        output: z.record(z.string(), DashboardView()),
      }),
    ),
    getDashboard: op(
      {
        method: 'GET',
        path: '/dashboard/:id',
        scope: 'service.dashboard.readonly',
        summary: 'One dashboard',
      },
      () => ({
        params: Id(),
        output: DashboardView(),
      }),
    ),
    createDashboard: op(
      {
        method: 'POST',
        path: '/dashboard',
        scope: 'service.dashboard',
        summary: 'Create a dashboard `{name, columns: [{widgets: [{appWidgetId, settings?, height?}]}]}`; missing ids are filled in',
        bodyRoot: 'dashboard',
        status: 201,
      },
      () => ({
        body: CreateDashboardBody(),
        output: DashboardView(),
      }),
    ),
    updateDashboard: op(
      {
        method: 'PUT',
        path: '/dashboard/:id',
        scope: 'service.dashboard',
        summary: 'Change the name and/or the columns of a dashboard (fields left out stay)',
        bodyRoot: 'dashboard',
      },
      () => ({
        params: Id(),
        body: UpdateDashboardBody(),
        output: DashboardView(),
      }),
    ),
    deleteDashboard: op(
      {
        method: 'DELETE',
        path: '/dashboard/:id',
        scope: 'service.dashboard',
        summary: 'Delete a dashboard and the widget stores of its widgets',
        status: 204,
      },
      () => ({
        params: Id(),
      }),
    ),
    getAppWidgets: op(
      {
        method: 'GET',
        path: '/appwidget',
        scope: 'service.dashboard.readonly',
        summary: "Every widget of the installed apps, keyed by '<appId>:<widgetId>'",
      },
      () => ({
        output: z.record(z.string(), AppWidgetView()),
      }),
    ),
    getAppWidget: op(
      {
        method: 'GET',
        path: '/appwidget/:id',
        scope: 'service.dashboard.readonly',
        summary: 'One app widget',
      },
      () => ({
        params: Id(),
        output: AppWidgetView(),
      }),
    ),
    getAppWidgetAutocomplete: op(
      {
        method: 'GET',
        path: '/appwidget/:id/autocomplete',
        scope: 'service.dashboard.readonly',
        summary: "Choices for an autocomplete setting, answered by the widget's app (at most 100)",
      },
      () => ({
        params: Id(),
        query: z.object({
          settingId: z.string().min(1).max(64),
          query: z.string().max(1000),
          settings: z
            .string()
            .max(64 * 1024)
            .optional()
            .describe('JSON-encoded object: the widget settings chosen so far'),
        }),
        output: z.array(AutocompleteResult()),
      }),
    ),
    getWidgetStores: op(
      {
        method: 'GET',
        path: '/widgetstore',
        scope: 'service.dashboard.readonly',
        summary: 'Every widget store (one per widget on a dashboard), keyed by the widget id',
      },
      () => ({
        output: z.record(z.string(), WidgetStore()),
      }),
    ),
    getWidgetStore: op(
      {
        method: 'GET',
        path: '/widgetstore/:id',
        scope: 'service.dashboard.readonly',
        summary: 'One widget store',
      },
      () => ({
        params: Id(),
        output: WidgetStore(),
      }),
    ),
    getWidgetStoreState: op(
      {
        method: 'GET',
        path: '/widgetstore/:id/state',
        scope: 'service.dashboard.readonly',
        summary: 'The state object of a widget store',
      },
      () => ({
        params: Id(),
        output: JsonObject(),
      }),
    ),
    setWidgetStoreState: op(
      {
        method: 'POST',
        path: '/widgetstore/:id/state',
        scope: 'service.dashboard.readonly',
        summary: 'Merge `state` into the state of a widget store (replace it with `replace: true`); answers the new state',
      },
      () => ({
        params: Id(),
        body: z.strictObject({ state: JsonObject(), replace: z.boolean().optional() }),
        output: JsonObject(),
      }),
    ),
    getState: op(
      {
        method: 'GET',
        path: '/state',
        scope: 'service.system.readonly',
        summary: 'Counts of dashboards, widgets, widget stores and app widgets (and those whose app is not running)',
      },
      () => ({
        output: StateView(),
      }),
    ),
  },
});
