/**
 * Debian's mosquitto on a free port of 127.0.0.1 for one test file: started, stopped and started
 * again on the same port (a broker that goes away and comes back), killed at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './hub.js';
import { poll } from './poll.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = new Socket();
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.connect(port, '127.0.0.1');
  });

export interface Broker {
  readonly url: string;
  /** Stops it (nothing retained survives: persistence is off) and waits until the port is closed. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

export async function startMosquitto(): Promise<Broker> {
  const dir = await tempDir('hearth-mosquitto-');
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  await writeFile(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
    await poll(() => accepts(port), Boolean, 'mosquitto to listen');
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise((resolve) => {
      c.once('exit', resolve);
      c.kill('SIGKILL');
    });
    await poll(async () => !(await accepts(port)), Boolean, 'mosquitto to stop');
  };
  await start();
  return { url: `mqtt://127.0.0.1:${port}`, start, stop };
}
