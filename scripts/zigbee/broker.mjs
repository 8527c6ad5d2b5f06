// Debian's mosquitto on a free port of 127.0.0.1, for the zigbee bench and the pictures
// (the tests have test/helpers/mosquitto.ts, which can also stop and start it again).
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { freePort, until } from '../bench/lib.mjs';

/** Starts mosquitto with its config in `dir`; answers its URL and how to stop it. */
export async function startMosquitto(dir) {
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  // Without TCP_NODELAY mosquitto holds a small write back until the last is acknowledged: ~40 ms
  // at a p99 on both paths alike (measured), which is the broker's setting, not hearth's cost.
  await writeFile(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nset_tcp_nodelay true\n`);
  const child = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  const url = `mqtt://127.0.0.1:${port}`;
  await until(
    async () =>
      mqtt
        .connectAsync(url, { reconnectPeriod: 0 })
        .then((c) => c.endAsync().then(() => true))
        .catch(() => false),
    'mosquitto to listen',
    { tries: 200, everyMs: 50 },
  );
  return { url, stop: () => child.kill('SIGKILL') };
}
