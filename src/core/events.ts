/**
 * The hub's event bus: managers publish `<resource>.<create|update|delete>` events on their own
 * namespace; the WebSocket layer (and anyone else) subscribes. Listeners are registered per owner
 * and removed with the function `subscribe` returns.
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

export interface HubEvent {
  readonly manager: ManagerName;
  readonly event: EventName;
  readonly args: readonly unknown[];
}

export type EventListener = (event: HubEvent) => void;

/**
 * An apps event (app.create/update/delete) as the other managers read it: the app's id, whether
 * its record says it runs, and whether it went (deleted, or not running). Null for any other event.
 */
export function appEventOf(e: HubEvent): { id: string; running: boolean; gone: boolean; deleted: boolean } | null {
  if (e.manager !== 'apps' || !e.event.startsWith('app.')) return null;
  const app = e.args[0] as { id?: unknown; state?: unknown } | undefined;
  if (typeof app?.id !== 'string') return null;
  const running = app.state === 'running';
  const deleted = e.event === 'app.delete';
  return { id: app.id, running, deleted, gone: deleted || !running };
}

export class EventBus {
  private readonly listeners = new Set<EventListener>();

  /** Delivers synchronously; a throwing listener is isolated from the others and the publisher. */
  publish(manager: ManagerName, event: EventName, ...args: unknown[]): void {
    const e: HubEvent = { manager, event, args };
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        this.onListenerError?.(err, e);
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Set by the hub to log listener failures. */
  onListenerError: ((err: unknown, event: HubEvent) => void) | undefined;
}
