/**
 * The daemon: config -> hub.start() -> serve (telling systemd it is ready and alive, when it runs
 * under systemd); SIGTERM/SIGINT -> hub.stop() within a deadline.
 */
import type { Config } from './config.js';
import { createLogger } from './core/logger.js';
import { SystemdNotifier } from './core/sd-notify.js';
import { Hub } from './hub.js';

/** After a stop signal the process exits by this deadline even if something hangs. */
const STOP_DEADLINE_MS = 8_000;

export async function runDaemon(config: Config): Promise<void> {
  const log = await createLogger(config.logLevel);
  const hub = new Hub(config, log);
  const systemd = new SystemdNotifier(log);
  // Handlers go in before start: a signal during start-up waits for it, then stops cleanly.
  let starting: Promise<unknown> = Promise.resolve();
  let stopping = false;
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
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  starting = hub.start();
  try {
    await starting;
    systemd.ready();
  } catch (err) {
    log.fatal({ err }, 'the hub could not start');
    await hub.stop().catch(() => undefined);
    process.exit(1);
  }
}
