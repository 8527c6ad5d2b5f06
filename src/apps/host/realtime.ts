/**
 * What apps send their pages: `this.homey.api.realtime(event, data)` and the app's settings
 * changes (`settings.set` / `settings.unset` with the key). The HTTP layer's `/api/app/<appId>`
 * WebSocket subscribes here; widgets and settings pages hear it through `Homey.on(event, fn)`.
 */
import type { Actor } from '../../core/actor.js';
export interface RealtimeEvent {
  appId: string;
  event: string;
  data: unknown;
  /** For a setting's change: who made it (a person, a token, the app itself), sent after the key. */
  by?: Actor;
}

export type RealtimeListener = (e: RealtimeEvent) => void;

export class RealtimeHub {
  private readonly listeners = new Set<RealtimeListener>();

  /** Listens to every app's events; returns the function that stops it. */
  subscribe(listener: RealtimeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(e: RealtimeEvent): void {
    for (const l of this.listeners) l(e);
  }
}
