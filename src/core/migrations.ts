/**
 * Numbered migrations of db.json. MIGRATIONS[v] turns a version-v document into version v+1.
 * Version 0 is "no file yet / no version": nothing to change. Add a step, bump SCHEMA_VERSION.
 */
import { homeyForm } from './owners.js';

/** The data file's document as the migrations see it (the store's StoreDocument has this shape): its sections by name. */
interface Document {
  schemaVersion: number;
  [section: string]: unknown;
}

export const SCHEMA_VERSION = 2;

export const MIGRATIONS: Readonly<Record<number, (doc: Document) => Document>> = {
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
