/**
 * The hub's event bus as managers hold it: typed by every manager's event contract, so a
 * publish must pass what its event's schemas say and a listener (`bus.on(manager, ...)`) reads
 * each event's arguments typed by its name, with no cast.
 */
import type { BusEvent, ContractEvents, EventBus } from '../core/events.js';
import type { Contracts } from './contracts.js';

/** A manager without events has an empty map rather than `unknown`. */
type Known<T> = unknown extends T ? Record<never, never> : T;

export type HubEventMaps = { readonly [M in keyof Contracts]: Known<ContractEvents<Contracts[M]>> };
export type HubBus = EventBus<HubEventMaps>;
/** One event of manager `M`, typed by its name. */
export type ManagerEvent<M extends keyof Contracts> = BusEvent<HubEventMaps, M>;

type AppEvent = Extract<ManagerEvent<'apps'>, { event: `app.${string}` }>;

/**
 * An apps event (app.create/update/delete) as the other managers read it: the app as the event
 * carries it, whether its record says it runs, and whether it went (deleted, or not running).
 * Null for the apps manager's other events.
 */
export function appEventOf(e: ManagerEvent<'apps'>): { id: string; view: AppEvent['args'][0]; running: boolean; gone: boolean; deleted: boolean } | null {
  if (e.event !== 'app.create' && e.event !== 'app.update' && e.event !== 'app.delete') return null;
  const [view] = e.args;
  const running = view.state === 'running';
  const deleted = e.event === 'app.delete';
  return { id: view.id, view, running, deleted, gone: deleted || !running };
}
