/**
 * Widget stores follow the widget instances on dashboards: one store per instance (same id),
 * owned by the instance's app. Called inside the store update that changed the dashboards, so
 * dashboards and stores reach the disk in one write.
 */
import { appIdOf, appUri } from './app-widgets.js';
import type { DashboardsSection, WidgetStore } from './views.js';

export interface StoreChanges {
  created: WidgetStore[];
  deleted: WidgetStore[];
}

/**
 * Creates the stores of new instances and removes those of instances gone from every
 * dashboard. An instance moved to another app's widget gets a fresh store: one app's state
 * never reaches another app.
 */
export function syncStores(draft: DashboardsSection): StoreChanges {
  const wanted = new Map<string, string>();
  for (const d of Object.values(draft.dashboards)) {
    for (const c of d.columns) for (const w of c.widgets) wanted.set(w.id, appUri(appIdOf(w.appWidgetId)));
  }
  const changes: StoreChanges = { created: [], deleted: [] };
  for (const [id, store] of Object.entries(draft.widgetStores)) {
    if (wanted.get(id) === store.ownerUri) continue;
    delete draft.widgetStores[id];
    changes.deleted.push(store);
  }
  for (const [id, ownerUri] of wanted) {
    if (draft.widgetStores[id]) continue;
    const store: WidgetStore = { id, ownerUri, state: {} };
    draft.widgetStores[id] = store;
    changes.created.push({ ...store, state: {} });
  }
  return changes;
}
