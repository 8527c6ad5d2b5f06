// A second RSS baseline: the libraries the design mandates, loaded and idle, with none of the
// hub's code: a Hono server with WebSockets, a zod schema, a pino logger, a lowdb file, an open
// SQLite database, a cron schedule and a time-zone formatter. The hub's idle RSS minus this is
// what the hub's own code costs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createNodeWebSocket } from '@hono/node-ws';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { JSONFilePreset } from 'lowdb/node';
import cron from 'node-cron';
import { pino } from 'pino';
import { z } from 'zod';

const dir = mkdtempSync(join(tmpdir(), 'hearth-bare-stack-'));
const log = pino({ level: 'info' });
const db = await JSONFilePreset(join(dir, 'db.json'), { value: 'en' });
const sqlite = new Database(join(dir, 'insights.db'));
sqlite.exec('CREATE TABLE IF NOT EXISTS entries (t INTEGER, v REAL)');
const schema = z.object({ value: z.string() });
const zone = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', hour: 'numeric' });
cron.schedule('0 3 * * *', () => log.info('tick'));

const app = new Hono();
const ws = createNodeWebSocket({ app });
app.get('/hello', (c) => c.json(schema.parse(db.data)));
app.get('/ws', ws.upgradeWebSocket(() => ({})));
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  zone.format(new Date());
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: info.port })}\n`);
});
ws.injectWebSocket(server);
process.on('SIGTERM', () =>
  server.close(() => {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }),
);
