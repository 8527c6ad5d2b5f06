/**
 * The drivers contract: every installed app's drivers (Homey's ids `homey:app:<appId>:<driverId>`),
 * and pairing sessions as Homey's client drives them: create a session for a driver, emit the
 * views' events to the driver (its answer is the reply), add the devices it offers, end it.
 * What the driver sends the views (emit, showView, nextView, prevView, done) is kept on the
 * session (`toView`) and published as pairsession.update.
 */
import { z } from 'zod';
import { HandlerAnswer } from '../../apps/wire/device-calls.js';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';
import { DeviceView } from '../devices/views.js';

const PairViewSchema = lazy(() =>
  z.object({
    id: z.string(),
    template: z.string().nullable(),
    next: z.string().nullable(),
    prev: z.string().nullable(),
    /** The view's `options` in app.json (a system view's labels, `singular`, ...). */
    options: z.record(z.string(), z.unknown()),
  }),
);

export const DriverView = lazy(() =>
  z.object({
    id: z.string(),
    uri: z.string(),
    name: z.string(),
    ownerUri: z.string(),
    ownerId: z.string(),
    class: z.string(),
    capabilities: z.array(z.string()),
    /** The pairing views (Homey's `pair`); a driver without any pairs by listing devices. */
    pair: z.array(PairViewSchema()),
    repair: z.array(PairViewSchema()),
    /** Null when devices can be added; else why not (a radio hearth has not, the app not running). */
    unpairable: z.string().nullable(),
    deprecated: z.boolean(),
  }),
);
export type DriverView = z.infer<ReturnType<typeof DriverView>>;

export const ToViewMessage = lazy(() =>
  z.object({
    seq: z.number().int(),
    kind: z.enum(['emit', 'showView', 'nextView', 'prevView', 'done']),
    event: z.string().nullable(),
    data: z.unknown(),
  }),
);

export const PairSessionView = lazy(() =>
  z.object({
    id: z.string(),
    type: z.enum(['pair', 'repair']),
    driverId: z.string(),
    deviceId: z.string().nullable(),
    zoneId: z.string().nullable(),
    /** The view the driver last asked for (showView/nextView/prevView), or the first. */
    view: z.string().nullable(),
    /** What the driver sent the views, oldest first (the last 50). */
    toView: z.array(ToViewMessage()),
    done: z.boolean(),
    created: z.string(),
  }),
);
export type PairSessionView = z.infer<ReturnType<typeof PairSessionView>>;

const Id = lazy(() => z.object({ id: z.string().min(1).max(200) }));

export const driversContract = defineContract({
  name: 'drivers',
  eventScope: 'service.device.readonly',
  events: lazy(() => resourceEvents('pairsession', PairSessionView())),
  operations: {
    getState: stateOperation({
      summary: 'How many drivers and pairing sessions there are',
      output: () => z.object({ drivers: z.number().int(), pairSessions: z.number().int() }),
    }),
    getDrivers: op(
      {
        method: 'GET',
        path: '/driver',
        scope: 'service.device.readonly',
        summary: "Every installed app's drivers, by Homey's id homey:app:<appId>:<driverId>",
      },
      () => ({
        output: z.record(z.string(), DriverView()),
      }),
    ),
    getDriver: op({ method: 'GET', path: '/driver/:id', scope: 'service.device.readonly', summary: 'One driver' }, () => ({
      params: Id(),
      output: DriverView(),
    })),
    createPairSession: op(
      {
        method: 'POST',
        path: '/pairsession',
        scope: 'service.device',
        summary: 'Start pairing `{type: "pair"|"repair", driverId, deviceId?, zoneId?}`: the driver\'s onPair (or onRepair) runs',
        bodyRoot: 'pairsession',
        status: 201,
      },
      () => ({
        body: z.strictObject({
          type: z.enum(['pair', 'repair']).default('pair'),
          driverId: z.string().min(1).max(200),
          deviceId: z.string().min(1).max(64).optional(),
          zoneId: z.string().min(1).max(64).optional(),
        }),
        output: PairSessionView(),
      }),
    ),
    getPairSession: op({ method: 'GET', path: '/pairsession/:id', scope: 'service.device', summary: 'A pairing session' }, () => ({
      params: Id(),
      output: PairSessionView(),
    })),
    deletePairSession: op({ method: 'DELETE', path: '/pairsession/:id', scope: 'service.device', summary: 'End a pairing session', status: 204 }, () => ({
      params: Id(),
    })),
    emitPairingHeartbeat: op(
      {
        method: 'POST',
        path: '/pairsession/:id/heartbeat',
        scope: 'service.device',
        summary: 'Keep a pairing session open (it ends after 10 minutes without a call)',
      },
      () => ({
        params: Id(),
        output: z.null(),
      }),
    ),
    emitPairingEvent: op(
      {
        method: 'POST',
        path: '/pairsession/:id/emit',
        scope: 'service.device',
        summary: "Emit a view's event `{event, data?}` to the driver; the answer is its handler's",
      },
      () => ({
        params: Id(),
        body: z.strictObject({ event: z.string().min(1).max(128), data: z.unknown().optional() }),
        output: HandlerAnswer.describe("the driver's handler's answer, as JSON"),
      }),
    ),
    deliverPairOAuth2: op(
      {
        method: 'POST',
        path: '/pairsession/:id/oauth2',
        scope: 'service.device',
        summary:
          "hearth's own: the address the browser ended on after signing in at the provider `{url}` (a login_oauth2 view); its code goes to the driver's OAuth2 callback",
      },
      () => ({
        params: Id(),
        body: z.strictObject({ url: z.string().min(1).max(4096) }),
        output: z.null(),
      }),
    ),
    createPairSessionDevice: op(
      {
        method: 'POST',
        path: '/pairsession/:id/device',
        scope: 'service.device',
        summary: 'Add a device the driver offered `{name, data, store?, settings?, capabilities?, ...}`',
        bodyRoot: 'device',
        status: 201,
      },
      () => ({
        params: Id(),
        body: z.looseObject({ name: z.string(), data: z.record(z.string(), z.unknown()) }),
        output: DeviceView(),
      }),
    ),
  },
});
