// Backup bench: time and archive size of a hearth backup (dist/backup) of a data dir holding
// ~50 MB of insights-like SQLite data, next to `tar czf` of the same folders in the same run.
// Our backup does more than tar (SQLite online copy, sha256 of every file, fsync, a full
// read-back verification), so the target is a ratio: <= 1.5x the bare tar time.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';

const run = promisify(execFile);
const ROUNDS = 3;
const TARGET_MB = 50;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A hub-like data dir: db.json, insights.db (~50 MB of log entries), an app with userdata. */
async function makeDataDir(root, log) {
  const dataDir = join(root, 'data');
  const appsDir = join(root, 'apps');
  await mkdir(join(dataDir, 'apps', 'com.example.meter'), { recursive: true });
  await mkdir(join(appsDir, 'com.example.meter'), { recursive: true });
  await writeFile(join(dataDir, 'db.json'), JSON.stringify({ schemaVersion: 1, options: { i18n: { language: 'en' } } }));
  await writeFile(join(dataDir, 'apps', 'com.example.meter', 'state.json'), JSON.stringify({ total: 12345 }));
  await writeFile(join(appsDir, 'com.example.meter', 'app.json'), '{"id":"com.example.meter","version":"1.0.0","sdk":3,"name":{"en":"Meter"}}');
  await writeFile(
    join(appsDir, 'com.example.meter', 'app.js'),
    "const Homey = require('homey');\nmodule.exports = class Meter extends Homey.App { async onInit() {} };\n".repeat(50),
  );

  const file = join(dataDir, 'insights.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE entries (log INTEGER NOT NULL, t INTEGER NOT NULL, v REAL NOT NULL, PRIMARY KEY (log, t)) WITHOUT ROWID;
           CREATE TABLE logs (id INTEGER PRIMARY KEY, uri TEXT NOT NULL, name TEXT NOT NULL, units TEXT)`);
  const logs = 40;
  const insertLog = db.prepare('INSERT INTO logs (id, uri, name, units) VALUES (?, ?, ?, ?)');
  for (let i = 0; i < logs; i++) insertLog.run(i, `homey:app:com.example.meter`, `power${i}`, 'W');
  const insert = db.prepare('INSERT INTO entries (log, t, v) VALUES (?, ?, ?)');
  const t0 = Date.parse('2025-01-01T00:00:00Z');
  // Meter-like values: a daily curve plus noise, rounded like a real sensor, one per minute.
  let row = 0;
  while ((await stat(file).catch(() => ({ size: 0 }))).size + (await stat(`${file}-wal`).catch(() => ({ size: 0 }))).size < TARGET_MB * 1024 * 1024) {
    db.transaction(() => {
      for (let k = 0; k < 100_000; k++, row++) {
        const l = row % logs;
        const minute = Math.floor(row / logs);
        const v = Math.round((500 + 300 * Math.sin((minute / 1440) * 2 * Math.PI + l) + Math.random() * 40) * 10) / 10;
        insert.run(l, t0 + minute * 60_000, v);
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  }
  db.close();
  log(`data dir: ${row} entries, insights.db ${((await stat(file)).size / 1048576).toFixed(1)} MB`);
  return { dataDir, appsDir };
}

export default async function bench({ root, log }) {
  const { createBackup } = await import(join(root, 'dist', 'backup', 'index.js'));
  const work = await mkdtemp(join(tmpdir(), 'hearth-bench-backup-'));
  try {
    const { dataDir, appsDir } = await makeDataDir(work, log);
    const snapshot = JSON.stringify({ schemaVersion: 1, options: { i18n: { language: 'en' } } });
    const tarTimes = [];
    const ourTimes = [];
    let tarSize = 0;
    let ourSize = 0;
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate, so drift on the shared machine hits both alike.
      const tarOut = join(work, `bare-${i}.tar.gz`);
      let start = performance.now();
      await run('tar', ['czf', tarOut, '-C', work, 'data', 'apps']);
      tarTimes.push(performance.now() - start);
      tarSize = (await stat(tarOut)).size;
      await rm(tarOut);

      const outDir = join(work, `out-${i}`);
      start = performance.now();
      const result = await createBackup({
        dataDir,
        appsDir,
        outDir,
        storeSnapshot: snapshot,
        insightsDb: join(dataDir, 'insights.db'),
        hubVersion: 'bench',
      });
      ourTimes.push(performance.now() - start);
      ourSize = result.size;
      await rm(outDir, { recursive: true });
      log(`round ${i + 1}: tar czf ${tarTimes[i].toFixed(0)} ms, hearth backup ${ourTimes[i].toFixed(0)} ms`);
    }
    const tarMs = median(tarTimes);
    const ourMs = median(ourTimes);
    return [
      {
        name: `backup of a data dir with ${TARGET_MB} MB of insights (create + verify)`,
        value: ourMs,
        unit: 'ms',
        baseline: 'tar czf of the same folders',
        baselineValue: tarMs,
        ratio: ourMs / tarMs,
        target: '<= 1.5',
      },
      {
        name: 'backup archive size',
        value: ourSize / 1048576,
        unit: 'MB',
        baseline: 'tar czf of the same folders',
        baselineValue: tarSize / 1048576,
        ratio: ourSize / tarSize,
      },
    ];
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
