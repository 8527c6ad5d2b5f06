/**
 * The daemon: config -> hub.start() -> serve (telling systemd it is ready and alive, when it runs
 * under systemd); SIGTERM/SIGINT -> hub.stop() within a deadline. A hub may ask to be restarted
 * with work done while it is stopped (a restore from the web app): the daemon stops it, runs the
 * work, and starts a new hub on the same port in the same process, so no supervisor is needed.
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { settleHeapWhenIdle } from './core/heap-settle.js';
import { createLogger } from './core/logger.js';
import { SystemdNotifier } from './core/sd-notify.js';
import { StartupError } from './core/startup-error.js';
import { Hub, type RestartWork } from './hub.js';
import { loginCommand } from './login-link.js';

/** After a stop signal the process exits by this deadline even if something hangs. */
const STOP_DEADLINE_MS = 8_000;
/** How long a restart waits before stopping the hub, so the answer to the request that asked goes out. */
const RESTART_GRACE_MS = 300;

export async function runDaemon(config: Config): Promise<void> {
  // The process runs in the hub's zone, so Date's local fields are its wall clock (backup
  // schedules, src/core/cron.ts) without Intl and the ICU locale data it maps in. Apps and
  // tools the hub starts inherit it.
  process.env.TZ = config.zone;
  const log = await createLogger(config.logLevel);
  const systemd = new SystemdNotifier(log);
  // Handlers go in before start: a signal during start-up (or a restart) waits for it, then stops cleanly.
  let starting: Promise<unknown> = Promise.resolve();
  let stopping = false;
  let restarting = false;
  const makeHub = (cfg: Config): Hub => new Hub(cfg, log, { restart: (work) => restart(work) });
  let hub = makeHub(config);

  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    systemd.stopping();
    setTimeout(() => {
      log.error('stop deadline passed; exiting now');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    starting
      .catch(() => undefined)
      .then(() => hub.stop())
      .then(
        () => {
          log.info('stopped');
          process.exit(0);
        },
        (err: unknown) => {
          log.error({ err }, 'stop failed');
          process.exit(1);
        },
      );
  };

  /**
   * Stops the hub, runs `work` with the data dir free (it records its own outcome; an error here
   * is logged and the hub starts on whatever is there), and starts a new hub on the port the old
   * one had (with --port 0 a new port would strand every client).
   */
  const restart = (work: RestartWork): boolean => {
    if (stopping || restarting) return false;
    restarting = true;
    const port = hub.port ?? config.port;
    starting = (async () => {
      // The request that asked for this is still being answered: let its answer leave first.
      await new Promise((r) => setTimeout(r, RESTART_GRACE_MS));
      log.info('restarting the hub');
      await hub.stop();
      try {
        await work();
      } catch (err) {
        log.error({ err }, 'the work between stop and start failed; starting the hub on what is there');
      }
      hub = makeHub(Object.freeze({ ...config, port }));
      await hub.start();
      log.info('restarted');
    })().then(
      () => {
        restarting = false;
      },
      async (err: unknown) => {
        // Under systemd the unit restarts the process; a fresh start may succeed where this did not.
        startFailed(log, err, 'the hub could not start again after a restart');
        await hub.stop().catch(() => undefined);
        process.exit(1);
      },
    );
    return true;
  };

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  starting = hub.start();
  try {
    await starting;
    systemd.ready();
    // A hint: whatever goes wrong working it out (a package.json here that is not JSON) never stops the hub.
    signInCommand(config, hub.port ?? config.port).then(
      (command) => log.info({ command }, 'to sign a browser in, run this'),
      (err: unknown) => log.debug({ err }, 'could not work out the sign-in command'),
    );
    const mib = (bytes: number) => Math.round(bytes / 1024) / 1024;
    settleHeapWhenIdle({
      grew: (young) => log.debug({ youngMiB: mib(young) }, 'the young generation grew'),
      collected: (young) => log.debug({ youngMiB: mib(young) }, 'idle after a burst: one full collection, so V8 gives back its young generation'),
      shrunk: (young) => log.debug({ youngMiB: mib(young) }, 'the young generation is small again'),
      shrunkAlone: (young) => log.debug({ youngMiB: mib(young) }, 'the young generation is small again without a collection'),
    });
  } catch (err) {
    startFailed(log, err, 'the hub could not start');
    await hub.stop().catch(() => undefined);
    process.exit(1);
  }
}

/**
 * A start that failed for a reason the person starting it can act on (port in use, data dir in
 * use or not writable) is one sentence on stderr, whatever the terminal; its stack is for debug.
 * Anything else is a bug and keeps its stack in the log.
 */
function startFailed(log: Logger, err: unknown, what: string): void {
  if (err instanceof StartupError) {
    log.debug({ err }, what);
    process.stderr.write(`hearth: ${err.message}\n`);
  } else log.fatal({ err }, what);
}

/** The sign-in command for how this hub was started (login-link.ts). */
async function signInCommand(config: Config, port: number): Promise<string> {
  const cwd = process.cwd();
  const name = await readFile(join(cwd, 'package.json'), 'utf8').then(
    (t) => (JSON.parse(t) as { name?: unknown }).name,
    () => null,
  );
  // systemd sets INVOCATION_ID for the processes of a unit.
  const underService = process.env.INVOCATION_ID !== undefined && process.argv[1]?.startsWith('/opt/hearth/') === true;
  const onPath = (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, 'hearth')));
  return loginCommand(config, port, { cwd, inCheckout: name === 'hearth', underService, ...(onPath ? {} : { cli: process.argv[1] ?? 'dist/cli.js' }) });
}
