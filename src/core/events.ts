/**
 * The hub's event bus: managers publish `<resource>.<create|update|delete>` events on their own
 * namespace; the WebSocket layer subscribes to every event as it is, and a manager listens to
 * another's with `on(manager, listener)`, typed by that manager's event contract (the map of
 * contracts is the hub's, src/managers/bus.ts: core names no manager). Each listener is removed
 * with the function that registered it returns.
 */

import { z } from 'zod';
import type { EventContract, ManagerContract, ManagerName } from './contract.js';
import { lazy } from './contract.js';

export type EventAction = 'create' | 'update' | 'delete';
export type EventName = `${string}.${EventAction}`;

/** `{newValues, oldValues, changedKeys}` of an update event (see core/diff.ts). */
export interface UpdateInfo {
  newValues: Record<string, unknown>;
  oldValues: Record<string, unknown>;
  changedKeys: string[];
}

export const UpdateInfoSchema = lazy(() =>
  z.object({
    newValues: z.record(z.string(), z.unknown()),
    oldValues: z.record(z.string(), z.unknown()),
    changedKeys: z.array(z.string()),
  }),
);

export type { EventContract } from './contract.js';

/** A resource's three events, typed: create and delete carry it; update carries it and what changed. */
export type ResourceEvents<R extends string, S extends z.ZodType> = { readonly [K in `${R}.create` | `${R}.delete`]: readonly [S] } & {
  readonly [K in `${R}.update`]: readonly [S, ReturnType<typeof UpdateInfoSchema>];
};

/** A resource's three events: create and delete carry it; update carries it and what changed. */
export function resourceEvents<const R extends string, S extends z.ZodType>(resource: R, schema: S): ResourceEvents<R, S> {
  return { [`${resource}.create`]: [schema], [`${resource}.update`]: [schema, UpdateInfoSchema()], [`${resource}.delete`]: [schema] } as ResourceEvents<R, S>;
}

/** Every manager with options publishes this one (core/options.ts); a secret option only says whether it is set. */
export const OPTION_EVENTS = lazy(
  () =>
    ({
      'option.update': [z.union([z.strictObject({ name: z.string(), value: z.unknown() }), z.strictObject({ name: z.string(), set: z.boolean() })])],
    }) as const satisfies EventContract,
);

/** Every event a manager publishes: its contract's, and option.update when it has options. */
export type ContractEvents<C extends ManagerContract> = (C['events'] extends () => infer E ? E : unknown) &
  (C['options'] extends readonly [unknown, ...unknown[]] ? ReturnType<typeof OPTION_EVENTS> : unknown);

export function contractEvents(contract: ManagerContract): EventContract {
  return { ...contract.events?.(), ...(contract.options?.length ? OPTION_EVENTS() : {}) };
}

/** An event as the sockets forward it: untyped (`on` gives the typed form). */
export interface HubEvent {
  readonly manager: ManagerName;
  readonly event: EventName;
  readonly args: readonly unknown[];
}

export type EventListener = (event: HubEvent) => void;

/** What an event carries, from its contract: each argument's schema's output. */
export type EventArgs<T> = T extends readonly unknown[] ? { -readonly [I in keyof T]: T[I] extends z.ZodType ? z.output<T[I]> : never } : never;

/** Each manager's events (its contract's, and option.update): the bus is typed by such a map. */
export type EventMaps = { readonly [M in ManagerName]: EventContract };

/** One event of manager `M` in `Maps`: narrowing on `event` types `args`. */
export type BusEvent<Maps extends EventMaps, M extends keyof Maps> = {
  [E in keyof Maps[M] & string]: { readonly manager: M; readonly event: E; readonly args: EventArgs<Maps[M][E]> };
}[keyof Maps[M] & string];

export class EventBus<Maps extends EventMaps = EventMaps> {
  private readonly all = new Set<EventListener>();
  /** Listeners of one manager's events: a publish reaches only its own (no filter in each). */
  private readonly byManager = new Map<ManagerName, Set<EventListener>>();

  /** Delivers synchronously; a throwing listener is isolated from the others and the publisher. */
  publish<M extends keyof Maps & ManagerName, E extends keyof Maps[M] & EventName>(manager: M, event: E, ...args: EventArgs<Maps[M][E]>): void {
    const e: HubEvent = { manager, event, args };
    this.deliver(this.all, e);
    const own = this.byManager.get(manager);
    if (own) this.deliver(own, e);
  }

  /** Every event, untyped, as the sockets forward them. */
  subscribe(listener: EventListener): () => void {
    this.all.add(listener);
    return () => this.all.delete(listener);
  }

  /** Manager `manager`'s events, typed by its contract. */
  on<M extends keyof Maps & ManagerName>(manager: M, listener: (event: BusEvent<Maps, M>) => void): () => void {
    let set = this.byManager.get(manager);
    if (!set) this.byManager.set(manager, (set = new Set()));
    // The one place an event meets its type: publish took exactly these arguments for this name.
    const held = listener as unknown as EventListener;
    set.add(held);
    const own = set;
    return () => own.delete(held);
  }

  /**
   * `e` typed as manager `manager`'s event when it is one (an every-event listener that also
   * reads one manager's events in its own order), else undefined.
   */
  own<M extends keyof Maps & ManagerName>(manager: M, e: HubEvent): BusEvent<Maps, M> | undefined {
    // As in `on`: publish took exactly these arguments for this manager's event of this name.
    return e.manager === manager ? (e as unknown as BusEvent<Maps, M>) : undefined;
  }

  /** Set by the hub to log listener failures. */
  onListenerError: ((err: unknown, event: HubEvent) => void) | undefined;

  private deliver(listeners: Set<EventListener>, e: HubEvent): void {
    for (const l of listeners) {
      try {
        l(e);
      } catch (err) {
        this.onListenerError?.(err, e);
      }
    }
  }
}
