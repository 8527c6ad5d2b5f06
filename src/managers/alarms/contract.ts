/**
 * The alarms contract (Homey's alarms manager): a wake-up alarm is a name, a time of day in the
 * hub's zone, the days it repeats (none: once), and whether it is on. When it goes off, the flow
 * trigger "An alarm goes off" runs.
 */
import { z } from 'zod';
import { defineContract, lazy, op } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';

import { DAYS } from './days.js';

export { DAYS };
export const MAX_ALARMS = 100;

const Repetition = lazy(() => z.strictObject(Object.fromEntries(DAYS.map((d) => [d, z.boolean()])) as Record<(typeof DAYS)[number], z.ZodBoolean>));
const Time = lazy(() => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'a time is HH:MM, 00:00 to 23:59' }));

export const AlarmView = lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    time: z.string().describe("HH:MM in the hub's time zone"),
    enabled: z.boolean(),
    repetition: Repetition().describe('the days it goes off; none: once, then it turns itself off'),
    nextOccurrence: z.iso.datetime().nullable().describe('when it goes off next (null: off)'),
  }),
);
export type AlarmView = z.infer<ReturnType<typeof AlarmView>>;
export type Repetition = z.infer<ReturnType<typeof Repetition>>;

const Id = lazy(() => z.object({ id: z.string().min(1).max(64) }));
const Name = lazy(() => z.string().trim().min(1, { error: 'an alarm needs a name' }).max(60));

export const alarmsContract = defineContract({
  name: 'alarms',
  eventScope: 'service.alarm.readonly',
  events: lazy(() => resourceEvents('alarm', AlarmView())),
  operations: {
    getAlarms: op({ method: 'GET', path: '/alarm', scope: 'service.alarm.readonly', summary: 'Every alarm by id' }, () => ({
      output: z.record(z.string(), AlarmView()),
    })),
    getAlarm: op({ method: 'GET', path: '/alarm/:id', scope: 'service.alarm.readonly', summary: 'One alarm' }, () => ({ params: Id(), output: AlarmView() })),
    createAlarm: op({ method: 'POST', path: '/alarm', scope: 'service.alarm', summary: 'Make an alarm', status: 201, bodyRoot: 'alarm' }, () => ({
      body: z.strictObject({ name: Name(), time: Time(), enabled: z.boolean().default(true), repetition: Repetition().optional() }),
      output: AlarmView(),
    })),
    updateAlarm: op({ method: 'PUT', path: '/alarm/:id', scope: 'service.alarm', summary: 'Change an alarm', bodyRoot: 'alarm' }, () => ({
      params: Id(),
      body: z.strictObject({ name: Name().optional(), time: Time().optional(), enabled: z.boolean().optional(), repetition: Repetition().optional() }),
      output: AlarmView(),
    })),
    deleteAlarm: op({ method: 'DELETE', path: '/alarm/:id', scope: 'service.alarm', summary: 'Delete an alarm', status: 204 }, () => ({ params: Id() })),
  },
});
