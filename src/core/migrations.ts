/**
 * Numbered migrations of db.json. MIGRATIONS[v] turns a version-v document into version v+1.
 * Version 0 is "no file yet / no version": nothing to change. Add a step, bump SCHEMA_VERSION.
 */
import { homeyForm } from './owners.js';
import type { StoreDocument } from './store.js';

export const SCHEMA_VERSION = 2;

export const MIGRATIONS: Readonly<Record<number, (doc: StoreDocument) => StoreDocument>> = {
  0: (doc) => doc,
  // Owners in Homey's form: widget stores' `ownerUri` was `hearth:app:<id>` (core/owners.ts).
  1: (doc) => {
    const stores = (doc.dashboards as { widgetStores?: Record<string, { ownerUri?: unknown }> } | undefined)?.widgetStores;
    for (const store of Object.values(stores ?? {})) {
      if (typeof store?.ownerUri === 'string') store.ownerUri = homeyForm(store.ownerUri);
    }
    return doc;
  },
};
