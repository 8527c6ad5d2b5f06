/**
 * PairSession: what a driver's onPair (and onRepair) talks to the pairing views through. The
 * views' events reach the handlers the driver set (`setHandler`); what the driver sends the views
 * (`emit`, `showView`, `nextView`, `prevView`, `done`) goes to the hub, which hands it to the
 * pairing client (the web app, or a script through the Web API). Its members are Homey's only:
 * what the hub needs is kept beside it.
 */
import type { HomeyContext } from './context.cjs';
import { HomeyError } from './errors.cjs';

type Handler = (data: any) => unknown;
type ToView = 'emit' | 'showView' | 'nextView' | 'prevView' | 'done';

const internals = new WeakMap<PairSession, { ctx: HomeyContext; id: string; handlers: Map<string, Handler> }>();

function toView(session: PairSession, kind: ToView, event?: string, data?: unknown): Promise<unknown> {
  const { ctx, id } = internals.get(session)!;
  return ctx.transport.call('pair.toView', { session: id, kind, ...(event !== undefined ? { event } : {}), data: data ?? null });
}

export class PairSession {
  constructor(ctx: HomeyContext, id: string) {
    internals.set(this, { ctx, id, handlers: new Map() });
  }

  /** Sets the handler of a view's event; its answer is what the view's emit resolves to. */
  setHandler(event: string, handler: Handler): this {
    if (typeof handler !== 'function') throw new HomeyError('setHandler takes an event name and a function', 'invalid_args');
    internals.get(this)!.handlers.set(event, handler);
    return this;
  }

  /** Sends an event to the pairing view. */
  emit(event: string, data?: unknown): Promise<unknown> {
    return toView(this, 'emit', event, data);
  }

  showView(viewId: string): Promise<void> {
    return toView(this, 'showView', viewId).then(() => undefined);
  }

  nextView(): Promise<void> {
    return toView(this, 'nextView').then(() => undefined);
  }

  prevView(): Promise<void> {
    return toView(this, 'prevView').then(() => undefined);
  }

  done(): Promise<void> {
    return toView(this, 'done').then(() => undefined);
  }
}

/** Runs the handler of a view's event (the hub's `pair.emit`); `optional` events without one answer null. */
export async function receive(session: PairSession, event: string, data: unknown, optional = false): Promise<unknown> {
  const handler = internals.get(session)!.handlers.get(event);
  if (!handler) {
    if (optional) return null;
    throw new HomeyError(`the driver set no handler for the pairing event '${event}'`, 'not_found');
  }
  return handler(data);
}
