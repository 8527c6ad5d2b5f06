/**
 * The hub's event bus: managers publish `<resource>.<create|update|delete>` events on their own
 * namespace; the WebSocket layer (and anyone else) subscribes. Listeners are registered per owner
 * and removed with the function `subscribe` returns.
 */
import type { ManagerName } from './managers.js';

export type EventAction = 'create' | 'update' | 'delete';
export type EventName = `${string}.${EventAction}`;

/** `{newValues, oldValues, changedKeys}` of an update event (see core/diff.ts). */
export interface UpdateInfo {
  newValues: Record<string, unknown>;
  oldValues: Record<string, unknown>;
  changedKeys: string[];
}

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
