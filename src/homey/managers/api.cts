/**
 * `this.homey.api`: `realtime(event, data)` reaches the app's widgets and settings page (their
 * `Homey.on(event, fn)`); `get/post/put/delete` reach the hub's Web API (with the permission
 * `homey:manager:api`, read-only, through the hub: src/apps/host/hub-api.ts). Other apps are not offered.
 */
import { type HomeyContext, hasPermission } from '../context.cjs';
import { HomeyError, needsPermission, notAvailable } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';

export const API_PERMISSION = 'homey:manager:api';

export class ManagerApi extends Manager {
  static ID = 'api';

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  /**
   * One request to the hub's Web API, relative to /api (`/manager/i18n/state`). The hub makes it
   * on the app's behalf with read-only scopes; an error answer rejects with its sentence and
   * `statusCode`.
   */
  private async request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', uri: string, body?: unknown): Promise<unknown> {
    if (!hasPermission(this.ctx, API_PERMISSION)) throw needsPermission(`api.${method.toLowerCase()}`, API_PERMISSION);
    const path = String(uri).startsWith('/') ? String(uri) : `/${String(uri)}`;
    const res = (await this.ctx.transport.call('api.request', { method, path, ...(body !== undefined ? { body } : {}) })) as { status: number; body: unknown };
    if (res.status >= 400) {
      const answer = res.body as { error_description?: unknown } | null;
      const err = new HomeyError(typeof answer?.error_description === 'string' ? answer.error_description : `the hub answered ${res.status}`, 'invalid_args');
      throw Object.assign(err, { statusCode: res.status });
    }
    return res.body;
  }

  get(uri: string): Promise<any> {
    return this.request('GET', uri);
  }

  post(uri: string, body: unknown): Promise<any> {
    return this.request('POST', uri, body);
  }

  put(uri: string, body: unknown): Promise<any> {
    return this.request('PUT', uri, body);
  }

  delete(uri: string): Promise<any> {
    return this.request('DELETE', uri);
  }

  /** Sends `data` (JSON) as event `event` to the app's open widgets and settings page. */
  async realtime(event: string, data: unknown): Promise<void> {
    if (typeof event !== 'string' || event === '') throw new HomeyError('realtime needs an event name', 'invalid_args');
    await this.ctx.transport.call('api.realtime', { event, data: data === undefined ? null : data });
  }

  getApi(uri: string): never {
    throw notAvailable(`api.getApi('${uri}')`, 'hearth lets apps listen to no other endpoint');
  }

  hasApi(_uri: unknown): boolean {
    return false;
  }

  getApiApp(appId: string): never {
    throw notAvailable(`api.getApiApp('${appId}')`, 'hearth lets apps call no other app');
  }

  hasApiApp(_appId: unknown): boolean {
    return false;
  }

  unregisterApi(_api: unknown): void {}

  getOwnerApiToken(): Promise<string> {
    if (!hasPermission(this.ctx, API_PERMISSION)) return Promise.reject(needsPermission('api.getOwnerApiToken', API_PERMISSION));
    return Promise.reject(notAvailable('api.getOwnerApiToken', "hearth never gives an app the owner's token"));
  }

  getLocalUrl(): Promise<string> {
    if (!hasPermission(this.ctx, API_PERMISSION)) return Promise.reject(needsPermission('api.getLocalUrl', API_PERMISSION));
    return Promise.reject(notAvailable('api.getLocalUrl', "apps reach the hub's Web API through this.homey.api.get/post/put/delete, not over the network"));
  }
}
