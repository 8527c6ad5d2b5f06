/**
 * The zones contract: the home as a tree of zones with one root (Homey's zones manager), each
 * device in one of them. The root cannot be deleted or moved; a zone with zones or devices in it
 * cannot be deleted (move or delete them first).
 */
import { z } from 'zod';
import { defineContract, defineOption, lazy, op, stateOperation } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';

export const ZONE_ICONS = [
  'home',
  'livingRoom',
  'kitchen',
  'bedroom',
  'bathroom',
  'garden',
  'garage',
  'office',
  'hallway',
  'attic',
  'basement',
  'other',
] as const;

export const ZoneView = lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    /** The zone it is in; null for the root. */
    parent: z.string().nullable(),
    icon: z.string(),
    active: z.boolean(),
    activeLastUpdated: z.string().nullable(),
  }),
);
export type ZoneView = z.infer<ReturnType<typeof ZoneView>>;

const Id = lazy(() => z.object({ id: z.string().min(1).max(64) }));
const Name = lazy(() => z.string().trim().min(1, 'a zone needs a name').max(100));
const Icon = lazy(() => z.string().min(1).max(64));

export const zonesContract = defineContract({
  name: 'zones',
  eventScope: 'service.zone.readonly',
  events: lazy(() => resourceEvents('zone', ZoneView())),
  options: [
    defineOption({
      name: 'roomOrder',
      schema: z.array(z.string().min(1).max(64)).max(1000),
      default: [],
      scopes: { get: 'service.zone.readonly', set: 'service.zone', unset: 'service.zone' },
      summary: 'the order a family sees its rooms in on the home (zone ids; a room not named follows, by name)',
    }),
  ],
  operations: {
    getState: stateOperation({ summary: 'How many zones there are, and the root', output: () => z.object({ zones: z.number().int(), root: z.string() }) }),
    getZones: op(
      {
        method: 'GET',
        path: '/zone',
        scope: 'service.zone.readonly',
        summary: 'Every zone by id (the root has parent null)',
      },
      () => ({
        output: z.record(z.string(), ZoneView()),
      }),
    ),
    getZone: op({ method: 'GET', path: '/zone/:id', scope: 'service.zone.readonly', summary: 'One zone' }, () => ({ params: Id(), output: ZoneView() })),
    createZone: op(
      {
        method: 'POST',
        path: '/zone',
        scope: 'service.zone',
        summary: 'Create a zone `{name, parent, icon?}` inside another',
        bodyRoot: 'zone',
        status: 201,
      },
      () => ({
        body: z.strictObject({ name: Name(), parent: z.string().min(1).max(64), icon: Icon().optional() }),
        output: ZoneView(),
      }),
    ),
    updateZone: op(
      {
        method: 'PUT',
        path: '/zone/:id',
        scope: 'service.zone',
        summary: 'Rename a zone, change its icon or move it into another zone (not into itself or a zone inside it)',
        bodyRoot: 'zone',
      },
      () => ({
        params: Id(),
        body: z.strictObject({ name: Name().optional(), parent: z.string().min(1).max(64).optional(), icon: Icon().optional() }),
        output: ZoneView(),
      }),
    ),
    deleteZone: op(
      {
        method: 'DELETE',
        path: '/zone/:id',
        scope: 'service.zone',
        summary: 'Delete an empty zone (not the root)',
        status: 204,
      },
      () => ({
        params: Id(),
      }),
    ),
  },
});
