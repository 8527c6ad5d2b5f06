/**
 * The hub side of the SDK: routes each call an app makes (`hub.insights.createLog`, ...) to the
 * handler another manager registered for it. The router owns the checks every call needs —
 * known method, manifest permission, argument schema, result schema — so handlers only do
 * their own work and receive typed, validated arguments plus the calling app.
 *
 * @example
 * router.handle('speech.say', async (app, { text }) => { await speech.say(text); return null; });
 */
import { HearthError } from '../../core/errors.js';
import { describeIssues } from '../../core/zod-issues.js';
import type { Permission } from '../manifest/permissions.js';
import { HUB_CALLS, type HubCallArgs, type HubCallMethod, type HubCallResult } from '../wire/protocol.js';
import { RpcError } from '../wire/wire.js';
import { HAND_CHECKED } from './wire-checks.js';

/** The app making a call, as handlers see it. */
export interface CallerApp {
  readonly id: string;
  /** `homey:app:<id>`: the owner uri of what the app creates (insights logs, widget stores). */
  readonly uri: string;
  readonly version: string;
  readonly permissions: readonly Permission[];
}

export type CallHandler<M extends HubCallMethod> = (app: CallerApp, args: HubCallArgs<M>) => HubCallResult<M> | Promise<HubCallResult<M>>;

/** Which manager serves what, for the "not available" sentence. */
const SERVED_BY: Record<string, string> = {
  insights: 'insights',
  speech: 'speech-output',
  audio: 'speech-output',
  settings: 'apps',
  api: 'apps',
  notifications: 'apps',
  device: 'devices',
  pair: 'drivers',
  drivers: 'devices',
};

export class SdkRouter {
  private readonly handlers = new Map<HubCallMethod, (app: CallerApp, args: unknown) => unknown>();

  /** Registers the handler of one call kind; returns a function that removes it (for stop()). */
  handle<M extends HubCallMethod>(method: M, handler: CallHandler<M>): () => void {
    if (this.handlers.has(method)) throw new Error(`a handler for '${method}' is registered already`);
    const erased = handler as (app: CallerApp, args: unknown) => unknown;
    this.handlers.set(method, erased);
    return () => {
      if (this.handlers.get(method) === erased) this.handlers.delete(method);
    };
  }

  has(method: HubCallMethod): boolean {
    return this.handlers.has(method);
  }

  /**
   * Runs one call from `app`. Rejects with an RpcError whose code says why: permission_denied,
   * not_available, invalid_args, invalid_result, or the HearthError code a handler threw.
   */
  async dispatch(app: CallerApp, method: string, args: unknown): Promise<unknown> {
    if (!Object.hasOwn(HUB_CALLS, method)) throw new RpcError('not_available', `'${method}' is not an SDK call`);
    const m = method as HubCallMethod;
    const def = HUB_CALLS[m];
    if (def.permission && !app.permissions.includes(def.permission)) {
      throw new RpcError('permission_denied', `${m} needs the permission '${def.permission}'; add it to "permissions" in the app.json of ${app.id}`);
    }
    const hand = HAND_CHECKED[m];
    const data = hand?.(args) ?? this.checkedArgs(m, def.args, args);
    const handler = this.handlers.get(m);
    if (!handler) {
      const manager = SERVED_BY[m.split('.')[0] ?? ''] ?? 'its';
      throw new RpcError('not_available', `${m} is not available on this hub: the ${manager} manager does not serve it`);
    }
    let result: unknown;
    try {
      result = await handler(app, data);
    } catch (err) {
      if (err instanceof HearthError || err instanceof RpcError) throw new RpcError(err.code, err.message);
      throw err;
    }
    // A hand-checked call answers null, which its schema (z.null()) takes: no parse for it.
    if (hand && (result === undefined || result === null)) return null;
    const checked = def.result.safeParse(result === undefined ? null : result);
    if (!checked.success) {
      throw new RpcError('invalid_result', `the hub answered ${m} with a malformed result: ${describeIssues(checked.error, m)}`);
    }
    return checked.data;
  }

  /** `args` as the method's schema parses them, or an invalid_args RpcError saying what does not fit. */
  private checkedArgs(m: HubCallMethod, schema: (typeof HUB_CALLS)[HubCallMethod]['args'], args: unknown): unknown {
    const parsed = schema.safeParse(args);
    if (!parsed.success) throw new RpcError('invalid_args', describeIssues(parsed.error, m));
    return parsed.data;
  }
}
