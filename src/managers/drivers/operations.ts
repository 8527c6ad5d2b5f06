/**
 * The drivers handlers: the installed apps' drivers (named in the hub's language), and pairing:
 * a session per pairing, its views' events, the devices it adds, and the address a person pastes
 * after signing in (OAuth2).
 */
import { implement, type Operation } from '../../core/operation.js';
import { driversContract } from './contract.js';
import type { DriverCatalog } from './drivers.js';
import type { OAuth2Callbacks } from './oauth2.js';
import type { PairSessions } from './sessions.js';

export interface DriversSide {
  readonly catalog: DriverCatalog;
  readonly sessions: PairSessions;
  readonly oauth2: OAuth2Callbacks;
  language(): string;
}

export function driversOperations({ catalog, sessions, oauth2, language }: DriversSide): Operation[] {
  return implement(driversContract.operations, {
    getState: () => ({ drivers: Object.keys(catalog.list()).length, pairSessions: sessions.count }),
    getDrivers: () => catalog.list(language()),
    getDriver: ({ params }) => catalog.get(params.id, language()).view,
    createPairSession: ({ body }) => sessions.create(body),
    getPairSession: ({ params }) => sessions.get(params.id),
    deletePairSession: async ({ params }) => {
      await sessions.end(params.id);
    },
    emitPairingHeartbeat: ({ params }) => {
      sessions.get(params.id);
      return null;
    },
    emitPairingEvent: ({ params, body }) => sessions.emit(params.id, body.event, body.data),
    createPairSessionDevice: ({ params, body }) => sessions.addDevice(params.id, body),
    deliverPairOAuth2: async ({ params, body }) => {
      const appId = sessions.appOf(params.id);
      await catalog.call(appId, 'oauth2.code', oauth2.read(appId, body.url), 10_000);
      return null;
    },
  });
}
