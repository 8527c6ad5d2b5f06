// The baseline for HTTP figures: a bare Hono hello-world on @hono/node-server, nothing else
// (on $PORT when given: the footprint bench times its spawn to the first 200).
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/hello', (c) => c.json({ value: 'en' }));
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0) }, (info) => {
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: info.port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
