/**
 * The hub's event bus: managers publish `<resource>.<create|update|delete>` events on their own
 * namespace; the WebSocket layer (and anyone else) subscribes. Listeners are registered per owner
 * and removed with the function `subscribe` returns.
 */
import { z } from 'zod';
import type { ManagerName } from './managers.js';

export type EventAction = 'create' | 'update' | 'delete';
export type EventName = `${string}.${EventAction}`;

/** `{newValues, oldValues, changedKeys}` of an update event (see core/diff.ts). */
export interface UpdateInfo {
  newValues: Record<string, unknown>;
  oldValues: Record<string, unknown>;
  changedKeys: string[];
}

export const UpdateInfoSchema = z.object({
  newValues: z.record(z.string(), z.unknown()),
  oldValues: z.record(z.string(), z.unknown()),
  changedKeys: z.array(z.string()),
});

/** What a manager publishes: each event's name with the schemas of its arguments, in order. */
export type EventContract = Readonly<Record<string, readonly z.ZodType[]>>;

/** A resource's three events: create and delete carry it; update carries it and what changed. */
export function resourceEvents(resource: string, schema: z.ZodType): EventContract {
  return { [`${resource}.create`]: [schema], [`${resource}.update`]: [schema, UpdateInfoSchema], [`${resource}.delete`]: [schema] };
}

/** Every manager with options publishes this one (core/options.ts); a secret option only says whether it is set. */
export const OPTION_EVENTS: EventContract = {
  'option.update': [z.union([z.strictObject({ name: z.string(), value: z.unknown() }), z.strictObject({ name: z.string(), set: z.boolean() })])],
};

export interface HubEvent {
  readonly manager: ManagerName;
  readonly event: EventName;
  readonly args: readonly unknown[];
}

export type EventListener = (event: HubEvent) => void;

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
