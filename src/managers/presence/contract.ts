/**
 * The presence contract (Homey's presence manager): whether each person of the home is home or
 * away, asleep or awake. Set by the person (`…Me`), by someone with the right, by an app through
 * the Web API, or by a flow; heard as `user.update` on the users channel, kept in insights (a log
 * per person) and run through the presence flow cards.
 */
import { z } from 'zod';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';
import { UserView } from '../users/contract.js';

const Id = lazy(() => z.object({ id: z.string().min(1).max(64) }));
const Opts = lazy(() =>
  z.strictObject({ forceFlowTrigger: z.boolean().optional().describe("run the flows on a change even when the value is the one it had (Homey's option)") }),
);
const Value = lazy(() => z.strictObject({ value: z.boolean({ error: 'value is true or false' }), opts: Opts().optional() }));

export const presenceContract = defineContract({
  name: 'presence',
  eventScope: null,
  operations: {
    getState: stateOperation({
      summary: 'The ids of the people at home and of those asleep',
      scope: 'service.presence.readonly',
      output: () => z.object({ present: z.array(z.string()), asleep: z.array(z.string()) }),
    }),
    // The caller's own first: `/me/...` before `/:id/...`.
    setPresentMe: op({ method: 'PUT', path: '/me/present', scope: 'service.presence.self', summary: 'Say you are home (true) or away' }, () => ({
      body: Value(),
      output: UserView(),
    })),
    setAsleepMe: op({ method: 'PUT', path: '/me/asleep', scope: 'service.presence.self', summary: 'Say you are asleep (true) or awake' }, () => ({
      body: Value(),
      output: UserView(),
    })),
    setPresent: op({ method: 'PUT', path: '/:id/present', scope: 'service.presence', summary: 'Say a person is home (true) or away' }, () => ({
      params: Id(),
      body: Value(),
      output: UserView(),
    })),
    getPresent: op({ method: 'GET', path: '/:id/present', scope: 'service.presence.readonly', summary: 'Whether a person is home' }, () => ({
      params: Id(),
      output: z.boolean(),
    })),
    setAsleep: op({ method: 'PUT', path: '/:id/asleep', scope: 'service.presence', summary: 'Say a person is asleep (true) or awake' }, () => ({
      params: Id(),
      body: Value(),
      output: UserView(),
    })),
    getAsleep: op({ method: 'GET', path: '/:id/asleep', scope: 'service.presence.readonly', summary: 'Whether a person is asleep' }, () => ({
      params: Id(),
      output: z.boolean(),
    })),
  },
});
