/**
 * The insights calls of the app SDK (`this.homey.insights.createLog`, `log.createEntry`,
 * `getLogs`, `getLog`, `deleteLog`), served for the apps runtime's call router. The router has already checked the
 * permission and the argument schema; an app only ever reaches logs it owns (its own uri).
 */
import type { SdkRouter } from '../../apps/host/router.js';
import type { InsightsService, Log } from './service.js';

/** Registers the handlers; returns a function that removes them (for stop()). */
/** A log as the app's SDK names it: by its own id (the app's `InsightsLog` id), not the hub-wide one. */
const forApp = (log: Log): Log => ({ ...log, id: log.ownerId });

export function serveSdk(router: SdkRouter, insights: InsightsService): () => void {
  const off = [
    router.handle('insights.createLog', (app, { id, options }) => forApp(insights.createLog(app.uri, id, options))),
    router.handle('insights.createEntry', (app, { id, value, date }) => {
      insights.createEntry(`${app.uri}:${id}`, value, date);
      return null;
    }),
    router.handle('insights.getLogs', (app) => insights.getLogsOf(app.uri).map(forApp)),
    router.handle('insights.getLog', (app, { id }) => forApp(insights.getLog(`${app.uri}:${id}`))),
    router.handle('insights.deleteLog', (app, { id }) => {
      insights.deleteLog(`${app.uri}:${id}`);
      return null;
    }),
  ];
  return () => {
    for (const f of off) f();
  };
}
