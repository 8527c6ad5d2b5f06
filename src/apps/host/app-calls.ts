/**
 * The hub's calls into a running app on behalf of a person or a page: garbage collection, a
 * widget setting's autocomplete, a route of the app's Web API. Each maps the app's failure to
 * the hub's errors (rethrowAppError): 409 not running, 404 no listener, 504 timeout, 502 threw.
 */
import { HearthError } from '../../core/errors.js';
import type { DEVICE_APP_CALLS } from '../wire/device-calls.js';
import type { FLOW_APP_CALLS } from '../wire/flow-calls.js';
import type { ApiAnswer, ApiCall, AppCallArgs, AppCallResult } from '../wire/protocol.js';
import { rethrowAppError } from './errors.js';
import type { AppSupervisor } from './supervisor.js';

type Memory = { heapUsed: number; heapTotal: number; rss: number };

export class AppCalls {
  /** `supervisor` throws not found for an app that is not installed. */
  constructor(private readonly supervisor: (id: string) => AppSupervisor) {}

  /** Runs gc in the app; 409 when it is not running. */
  async gc(id: string): Promise<{ before: Memory; after: Memory }> {
    return this.supervisor(id).call('gc', {}).catch(rethrowAppError);
  }

  /** Asks the app's autocomplete listener (dashboards' getAppWidgetAutocomplete). */
  async autocomplete(
    id: string,
    call: { widgetId: string; settingId: string; query: string; settings: Record<string, unknown> },
    timeoutMs = 5_000,
  ): Promise<Array<{ name: string; [field: string]: unknown }>> {
    return this.supervisor(id).call('autocomplete', call, timeoutMs).catch(rethrowAppError);
  }

  /** Runs one route of the app's (or a widget's) api.js in the app. */
  async callApi(id: string, call: ApiCall, timeoutMs = 30_000): Promise<ApiAnswer> {
    const supervisor = this.supervisor(id);
    if (!supervisor.state.ready) throw new HearthError('unavailable', `app '${id}' is not running; its Web API answers once it runs`);
    return supervisor.call('api', call, timeoutMs).catch(rethrowAppError);
  }

  /**
   * Calls an app's drivers or devices (a capability's listener, a pairing's handler). A device
   * whose app is not running cannot be reached: 503 with a sentence saying so.
   */
  async device<M extends keyof typeof DEVICE_APP_CALLS>(id: string, method: M, args: AppCallArgs<M>, timeoutMs: number): Promise<AppCallResult<M>> {
    const supervisor = this.supervisor(id);
    if (!supervisor.state.ready) throw new HearthError('unavailable', `app '${id}' is not running, so its devices cannot be reached`);
    return supervisor.call(method, args, timeoutMs).catch(rethrowAppError);
  }

  /** Calls an app's flow cards (a trigger's filter, a condition, an action, an autocomplete). */
  async flow<M extends keyof typeof FLOW_APP_CALLS>(id: string, method: M, args: AppCallArgs<M>, timeoutMs: number): Promise<AppCallResult<M>> {
    const supervisor = this.supervisor(id);
    if (!supervisor.state.ready) throw new HearthError('unavailable', `app '${id}' is not running, so its flow cards cannot run`);
    return supervisor.call(method, args, timeoutMs).catch(rethrowAppError);
  }
}
