/**
 * The errors hearth's SDK throws, each a sentence an app author can act on, with a `code` a
 * program can test: `not_available` (hearth has no such thing), `permission_denied` (app.json
 * lacks the permission), `invalid_args` (what the call was given is wrong).
 */

export class HomeyError extends Error {
  constructor(
    message: string,
    readonly code: 'not_available' | 'permission_denied' | 'invalid_args' | 'not_found',
  ) {
    super(message);
    this.name = 'HomeyError';
  }
}

/** `what` (e.g. `ManagerZwave.getNode`) does not exist on hearth, and `why` says so in words. */
export const notAvailable = (what: string, why: string): HomeyError => new HomeyError(`${what} is not available: ${why}`, 'not_available');

export const needsPermission = (what: string, permission: string): HomeyError =>
  new HomeyError(`${what} needs the permission '${permission}'; add it to "permissions" in app.json`, 'permission_denied');

/** An error as a line of the app's log: its stack, or what was thrown. */
export const describeError = (err: unknown): string => (err instanceof Error ? (err.stack ?? err.message) : String(err));
