/**
 * The moods contract (Homey's moods manager): a mood is a name, a zone and the values its devices
 * should take (a lamp on at 40 % in warm white, the blinds half down); applied by a tap, by the Web
 * API (`setMood`) or by a flow ("Set a mood"). Made from how a room is now (no `devices` sent), or
 * with the values given.
 */
import { z } from 'zod';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';

/** Moods a home keeps, and devices one mood sets. */
export const MAX_MOODS = 200;
export const MAX_MOOD_DEVICES = 100;

const StateValue = lazy(() => z.union([z.string().max(200), z.boolean(), z.number()]));
const DeviceState = lazy(() =>
  z.strictObject({
    state: z.record(z.string().min(1).max(130), StateValue()).refine((s) => Object.keys(s).length <= 20, { error: 'at most 20 values a device' }),
  }),
);

export const MoodView = lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    preset: z.string().nullable(),
    zone: z.string().describe('the zone it belongs to'),
    devices: z.record(z.string(), z.object({ state: z.record(z.string(), StateValue()) })).describe('each device and the values it takes'),
  }),
);
export type MoodView = z.infer<ReturnType<typeof MoodView>>;

export const MoodResult = lazy(() =>
  z.object({
    mood: z.string(),
    followed: z.array(z.string()).describe('the devices that took every value'),
    failed: z.array(z.object({ id: z.string(), name: z.string(), reason: z.string() })).describe('the devices that did not follow, and why'),
  }),
);
export type MoodResult = z.infer<ReturnType<typeof MoodResult>>;

const Id = lazy(() => z.object({ id: z.string().min(1).max(64) }));
const Name = lazy(() => z.string().trim().min(1, { error: 'a mood needs a name' }).max(60));
const Devices = lazy(() =>
  z
    .record(z.string().min(1).max(64), DeviceState())
    .refine((d) => Object.keys(d).length <= MAX_MOOD_DEVICES, { error: `a mood sets at most ${MAX_MOOD_DEVICES} devices` }),
);

export const moodsContract = defineContract({
  name: 'moods',
  eventScope: 'service.mood.readonly',
  events: lazy(() => resourceEvents('mood', MoodView())),
  operations: {
    getState: stateOperation({
      summary: 'How many moods the home has',
      scope: 'service.mood.readonly',
      output: () => z.object({ moods: z.number().int() }),
    }),
    getMoods: op({ method: 'GET', path: '/mood', scope: 'service.mood.readonly', summary: 'Every mood by id' }, () => ({
      output: z.record(z.string(), MoodView()),
    })),
    getMood: op({ method: 'GET', path: '/mood/:id', scope: 'service.mood.readonly', summary: 'One mood' }, () => ({ params: Id(), output: MoodView() })),
    createMood: op(
      {
        method: 'POST',
        path: '/mood',
        scope: 'service.mood',
        summary: "Make a mood of a zone: with the devices' values given, or (no `devices`) how the zone's devices are now",
        status: 201,
        bodyRoot: 'mood',
      },
      () => ({
        body: z.strictObject({
          name: Name(),
          zone: z.string().min(1).max(64),
          devices: Devices().optional(),
          preset: z.string().max(60).nullable().optional(),
        }),
        output: MoodView(),
      }),
    ),
    updateMood: op(
      { method: 'PUT', path: '/mood/:id', scope: 'service.mood', summary: 'Rename a mood or change the values it sets', bodyRoot: 'mood' },
      () => ({
        params: Id(),
        body: z.strictObject({ name: Name().optional(), devices: Devices().optional(), preset: z.string().max(60).nullable().optional() }),
        output: MoodView(),
      }),
    ),
    setMood: op(
      {
        method: 'POST',
        path: '/mood/:id/set',
        scope: 'service.mood.set',
        summary: 'Apply a mood: each device takes its values through its app, all at once; the answer names the devices that did not follow',
      },
      () => ({ params: Id(), output: MoodResult() }),
    ),
    deleteMood: op({ method: 'DELETE', path: '/mood/:id', scope: 'service.mood', summary: 'Delete a mood', status: 204 }, () => ({ params: Id() })),
  },
});
