// Debian's mosquitto on a free port of 127.0.0.1, for the zigbee tests, bench and pictures: started,
// stopped (waiting until the port is closed) and started again on the same port, as a broker that
// goes away and comes back.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { freePort, until } from '../bench/lib.mjs';

const accepts = (url) =>
  mqtt
    .connectAsync(url, { reconnectPeriod: 0, connectTimeout: 1000 })
    .then((c) => c.endAsync().then(() => true))
    .catch(() => false);

/** Starts mosquitto with its config in `dir`: its URL, `stop()` and `start()` (again, same port). */
export async function startMosquitto(dir) {
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  // Without TCP_NODELAY mosquitto holds a small write back until the last is acknowledged: ~40 ms
  // at a p99 on both paths alike (measured), which is the broker's setting, not hearth's cost.
  await writeFile(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nset_tcp_nodelay true\n`);
  const url = `mqtt://127.0.0.1:${port}`;
  let child = null;
  const start = async () => {
    child = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
    await until(() => accepts(url), 'mosquitto to listen', { tries: 200, everyMs: 50 });
  };
  /** Kills it (nothing retained survives: persistence is off) and waits until nothing listens. */
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise((resolve) => {
      c.once('exit', resolve);
      c.kill('SIGKILL');
    });
    await until(async () => !(await accepts(url)), 'mosquitto to stop', { tries: 200, everyMs: 50 });
  };
  await start();
  return { url, start, stop };
}
