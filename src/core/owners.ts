/**
 * Who owns a resource (an insights log, a widget store, a notification), as Homey names owners:
 * `homey:app:<appId>` and `homey:manager:<name>`. Homey's clients split these URIs to find the
 * owner, so they are Homey's form exactly. (hearth wrote `hearth:` until its data was moved:
 * core/migrations.ts and the insights schema's version 2.)
 */
export const appOwnerUri = (appId: string): string => `homey:app:${appId}`;
export const managerOwnerUri = (name: string): string => `homey:manager:${name}`;
export const deviceOwnerUri = (deviceId: string): string => `homey:device:${deviceId}`;

/** The owner URI a resource written before the move carried, in Homey's form. */
export const homeyForm = (uri: string): string =>
  uri.startsWith('hearth:app:') || uri.startsWith('hearth:manager:') ? `homey:${uri.slice('hearth:'.length)}` : uri;
/** A person's (their presence logs): Homey's form for a user. */
export const userOwnerUri = (userId: string): string => `homey:user:${userId}`;
