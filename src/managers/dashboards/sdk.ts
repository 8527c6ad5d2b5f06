/**
 * The dashboards calls of the app SDK (`hub.dashboards.getWidgetStoreState/setWidgetStoreState`),
 * served for the apps runtime's call router. An app reaches only the widget stores of its own
 * widgets (ownerUri `hearth:app:<id>`); autocomplete goes the other way (hub -> app).
 */
import type { SdkRouter } from '../../apps/router.js';
import type { DashboardsService } from './service.js';

/** Registers the two handlers; returns a function that removes them (for stop()). */
export function serveSdk(router: SdkRouter, service: DashboardsService): () => void {
  const off = [
    router.handle('dashboards.getWidgetStoreState', (app, { id }) => service.getStore(id, app.uri).state),
    router.handle('dashboards.setWidgetStoreState', (app, { id, state, replace }) => service.setState(id, state, replace ?? false, app.uri)),
  ];
  return () => off.forEach((f) => f());
}
