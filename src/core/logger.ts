/**
 * The root pino logger: JSON lines (journald under systemd), pretty on a TTY, secrets redacted.
 */
import { type Logger, pino } from 'pino';

/** Paths pino masks wherever they appear in a logged object. */
export const REDACT_PATHS = [
  'token',
  '*.token',
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'pinCode',
  '*.pinCode',
  'value.pinCode',
  'ownerToken',
];

export async function createLogger(level: string, pretty = process.stdout.isTTY): Promise<Logger> {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid } };
  if (pretty) {
    // Loaded only on a terminal: on the device stdout is journald and JSON is what it wants.
    const { default: pinoPretty } = await import('pino-pretty');
    return pino(options, pinoPretty({ colorize: true, sync: true }));
  }
  return pino(options);
}
