/**
 * A populated hub data dir and apps dir on disk (real SQLite file, real folders), and helpers to
 * compare trees, for the backup tests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import Database from 'better-sqlite3';

export interface Fixture {
  root: string;
  dataDir: string;
  appsDir: string;
  outDir: string;
  insightsDb: string;
  /** The store document as the hub would snapshot it. */
  snapshot: string;
}

export const STORE_DOC = {
  schemaVersion: 1,
  dashboards: { d1: { id: 'd1', name: 'Living room', columns: [{ widgets: ['w1'] }] } },
  options: { backup: { automaticBackupsEnabled: false }, i18n: { language: 'nl', units: 'metric' } },
  tokens: { t1: { id: 't1', name: 'owner', hash: 'a'.repeat(64), scopes: ['*'] } },
  apps: { 'com.example.lights': { settings: { brightness: 80, names: ['hall', 'kitchen'] } } },
};

/** Where the apps folder's `node_modules/homey` points (the built SDK). */
export const SDK_DIR = resolve(import.meta.dirname, '../../dist/homey');

/** A Homey app.json as an app ships it, with fields hearth only keeps. */
const homeyManifest = (id: string, version: string) => ({
  id,
  version,
  sdk: 3,
  compatibility: '>=12.3.0',
  name: { en: id },
  category: ['tools'],
  permissions: [],
  author: { name: 'Someone' },
});

export async function makeFixture(opts: { insightRows?: number; bigFileMb?: number } = {}): Promise<Fixture> {
  const root = await mkdtemp(join(tmpdir(), 'hearth-backup-test-'));
  const dataDir = join(root, 'data');
  const appsDir = join(root, 'apps');
  const outDir = join(dataDir, 'backups');
  await mkdir(join(dataDir, 'apps', 'com.example.lights', 'cache'), { recursive: true });
  await mkdir(join(appsDir, 'com.example.lights', 'locales'), { recursive: true });
  await mkdir(join(appsDir, 'com.example.weather', 'lib', 'empty'), { recursive: true });

  const snapshot = JSON.stringify(STORE_DOC);
  await writeFile(join(dataDir, 'db.json'), snapshot);
  await writeFile(join(dataDir, 'owner-token'), 'secret-owner-token\n', { mode: 0o600 });
  await mkdir(join(dataDir, 'store'));
  await writeFile(join(dataDir, 'store', 'index.json'), '{"apps":{}}');

  const insightsDb = join(dataDir, 'insights.db');
  const db = new Database(insightsDb);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE entries (log TEXT NOT NULL, t INTEGER NOT NULL, v REAL NOT NULL)');
  const insert = db.prepare('INSERT INTO entries (log, t, v) VALUES (?, ?, ?)');
  const rows = opts.insightRows ?? 2000;
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`homey:app:com.example.lights:power${i % 5}`, 1_700_000_000_000 + i * 60_000, Math.sin(i) * 100);
  })();
  db.close(); // leaves the WAL checkpointed; the online-backup path is exercised either way

  await writeFile(join(dataDir, 'apps', 'com.example.lights', 'state.json'), '{"on":true}');
  await writeFile(join(dataDir, 'apps', 'com.example.lights', 'cache', 'blob.bin'), Buffer.alloc(70_000, 7));
  await writeFile(join(appsDir, 'com.example.lights', 'app.json'), JSON.stringify(homeyManifest('com.example.lights', '1.0.0')));
  await writeFile(
    join(appsDir, 'com.example.lights', 'app.js'),
    "const Homey = require('homey');\nmodule.exports = class Lights extends Homey.App { async onInit() {} };\n",
  );
  await writeFile(join(appsDir, 'com.example.lights', 'locales', 'en.json'), '{"hello":"Hello"}');
  await writeFile(join(appsDir, 'com.example.weather', 'app.json'), JSON.stringify(homeyManifest('com.example.weather', '2.1.0')));
  await writeFile(join(appsDir, 'com.example.weather', 'lib', 'run.sh'), '#!/bin/sh\necho hi\n');
  await chmod(join(appsDir, 'com.example.weather', 'lib', 'run.sh'), 0o755);
  // Links are never archived (restore would refuse them): this one must be skipped, not followed.
  await symlink('/etc/passwd', join(appsDir, 'com.example.weather', 'lib', 'passwd-link'));
  // The SDK link the runtime keeps in every apps folder (remade at each start, so never archived).
  await mkdir(join(appsDir, 'node_modules'));
  await symlink(SDK_DIR, join(appsDir, 'node_modules', 'homey'), 'dir');
  if (opts.bigFileMb) {
    // Random bytes: gzip cannot shrink them, so writing the archive takes a while.
    await writeFile(join(dataDir, 'apps', 'com.example.lights', 'big.bin'), randomBytes(opts.bigFileMb * 1024 * 1024));
  }
  return { root, dataDir, appsDir, outDir, insightsDb, snapshot };
}

/** rel path -> 'dir' | sha256 of content, for every dir and regular file under `dir`. */
export async function treeDigest(dir: string, skip: (rel: string) => boolean = () => false): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      const rel = relative(dir, path).split(sep).join('/');
      if (skip(rel)) continue;
      if (e.isDirectory()) {
        out[rel] = 'dir';
        await walk(path);
      } else if (e.isFile()) {
        out[rel] = createHash('sha256')
          .update(await readFile(path))
          .digest('hex');
      } else {
        out[rel] = 'other';
      }
    }
  };
  await walk(dir);
  return out;
}

export function insightRows(file: string): unknown[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT log, t, v FROM entries ORDER BY rowid').all();
  } finally {
    db.close();
  }
}
