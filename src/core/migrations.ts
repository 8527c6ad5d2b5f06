/**
 * Numbered migrations of db.json. MIGRATIONS[v] turns a version-v document into version v+1.
 * Version 0 is "no file yet / no version": nothing to change. Add a step, bump SCHEMA_VERSION.
 */
import type { StoreDocument } from './store.js';

export const SCHEMA_VERSION = 1;

export const MIGRATIONS: Readonly<Record<number, (doc: StoreDocument) => StoreDocument>> = {
  0: (doc) => doc,
};
