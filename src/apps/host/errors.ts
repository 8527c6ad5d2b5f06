/** Turns a failed call into an app (gc, autocomplete) into the HTTP-facing error it means. */
import { HearthError } from '../../core/errors.js';
import { RpcError } from '../wire/wire.js';

/**
 * What an app refused, or failed at, with its own words (`said`) kept apart from the sentence
 * the hub answers with, so a manager can say it its own way ("'Lamp' refused the settings: ...").
 */
export class AppRefusal extends HearthError {
  constructor(readonly said: string) {
    super('bad_gateway', `the app failed: ${said}`);
    this.name = 'AppRefusal';
  }
}

/** An app-side failure as an HTTP-facing error. */
export function rethrowAppError(err: unknown): never {
  if (err instanceof RpcError) {
    if (err.code === 'not_running') throw new HearthError('conflict', `${err.message}; enable or restart it first`);
    if (err.code === 'timeout') throw new HearthError('timeout', err.message);
    if (err.code === 'not_found') throw new HearthError('not_found', err.message);
    throw new AppRefusal(err.message);
  }
  throw err;
}
