/**
 * `this.homey.api`: `realtime(event, data)` reaches the app's widgets and settings page (their
 * `Homey.on(event, fn)`); `get/post/put/delete` reach the hub's Web API (with the permission
 * `homey:manager:api`, read-only, through the hub: src/apps/host/hub-api.ts). Other apps are not offered.
 */
import { type HomeyContext, hasPermission } from '../context.cjs';
import { HomeyError, needsPermission, notAvailable } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';
import { UnreachableApp } from './api-app.cjs';
import { proxyToSocket } from './api-proxy.cjs';

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

  /** Another app's Web API: on hearth never installed (api-app.cts). */
  getApiApp(appId: string): UnreachableApp {
    const id = String(appId);
    let app = this.apiApps.get(id);
    if (!app) {
      app = new UnreachableApp(id, () => this.apiApps.delete(id));
      this.apiApps.set(id, app);
    }
    return app;
  }

  /** Whether getApiApp made that app's object, as on Homey. */
  hasApiApp(appId: unknown): boolean {
    return this.apiApps.has(String(appId));
  }

  private readonly apiApps = new Map<string, UnreachableApp>();

  unregisterApi(api: unknown): void {
    if (api instanceof UnreachableApp) api.unregister();
  }

  /**
   * A token for the hub's Web API (Homey's client inside the app uses it: homey-api's
   * createAppAPI). Not the owner's: the app's own, with the read-only scopes of `get`.
   */
  async getOwnerApiToken(): Promise<string> {
    if (!hasPermission(this.ctx, API_PERMISSION)) throw needsPermission('api.getOwnerApiToken', API_PERMISSION);
    return (await this.connection()).token;
  }

  /** A URL of the hub's Web API that this app can reach, with or without the network. */
  async getLocalUrl(): Promise<string> {
    if (!hasPermission(this.ctx, API_PERMISSION)) throw needsPermission('api.getLocalUrl', API_PERMISSION);
    this.url ??= this.connection().then(({ socket }) => proxyToSocket(socket).then((p) => p.url));
    // A failed start is not kept: the next ask tries again.
    return this.url.catch((err: unknown) => {
      this.url = undefined;
      throw err;
    });
  }

  private url: Promise<string> | undefined;
  private link: Promise<{ token: string; socket: string }> | undefined;

  private connection(): Promise<{ token: string; socket: string }> {
    this.link ??= this.ctx.transport.call('api.connection', {}).then((r) => r as { token: string; socket: string });
    return this.link.catch((err: unknown) => {
      this.link = undefined;
      throw err;
    });
  }
}
