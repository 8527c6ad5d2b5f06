/**
 * The insights database schema. Points are stored compactly (integer log row, integer ms,
 * real value, no rowid) and every rollup level has the same shape, keyed by (log, bucket index).
 */
import { LEVELS } from './levels.js';

/** 2: owners in Homey's form (`homey:app:<id>`, was `hearth:app:<id>`; see MIGRATE_FROM). */
export const SCHEMA_VERSION = 2;

/** The steps from each older version to the next, run in one transaction at open. */
export const MIGRATE_FROM: Readonly<Record<number, string>> = {
  1: `UPDATE logs SET uri = 'homey:' || substr(uri, 8) WHERE uri LIKE 'hearth:app:%' OR uri LIKE 'hearth:manager:%';
      UPDATE logs SET owner_uri = 'homey:' || substr(owner_uri, 8) WHERE owner_uri LIKE 'hearth:app:%' OR owner_uri LIKE 'hearth:manager:%';`,
};

const rollupTable = (table: string): string => `
CREATE TABLE IF NOT EXISTS ${table} (
  log INTEGER NOT NULL,
  b   INTEGER NOT NULL, -- bucket index: floor(t / width)
  n   INTEGER NOT NULL, -- points in the bucket
  s   REAL NOT NULL,    -- their sum (mean = s / n; for booleans, the share of true)
  mn  REAL NOT NULL,
  mx  REAL NOT NULL,
  lv  REAL NOT NULL,    -- the value of the latest point ...
  lt  INTEGER NOT NULL, -- ... and its time (ms), so out-of-order writes keep the right one
  PRIMARY KEY (log, b)
) WITHOUT ROWID;`;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS logs (
  row          INTEGER PRIMARY KEY,
  uri          TEXT NOT NULL,
  id           TEXT NOT NULL,
  title        TEXT NOT NULL,
  type         TEXT NOT NULL CHECK (type IN ('number', 'boolean')),
  units        TEXT,
  decimals     INTEGER,
  title_true   TEXT,
  title_false  TEXT,
  last_value   REAL,
  last_updated INTEGER,
  owner_uri    TEXT NOT NULL,
  UNIQUE (uri, id)
);
CREATE TABLE IF NOT EXISTS raw (
  log INTEGER NOT NULL,
  t   INTEGER NOT NULL, -- ms since the epoch
  v   REAL NOT NULL,    -- booleans as 0/1
  PRIMARY KEY (log, t)
) WITHOUT ROWID;
${LEVELS.map((l) => rollupTable(l.table)).join('\n')}
-- Up to where each level has been pruned (ms): a bucket may be rebuilt from the level below
-- only if that level still holds all of it.
CREATE TABLE IF NOT EXISTS pruned (
  level  TEXT PRIMARY KEY,
  cutoff INTEGER NOT NULL
) WITHOUT ROWID;
`;
