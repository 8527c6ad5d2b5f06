/**
 * `this.homey.api`: `realtime(event, data)` reaches the app's widgets and settings page (their
 * `Homey.on(event, fn)`). Calls into the hub's Web API and into other apps are not offered.
 */
import { hasPermission, type HomeyContext } from '../context.cjs';
import { HomeyError, needsPermission, notAvailable } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';

export const API_PERMISSION = 'homey:manager:api';
const WEB_API = "hearth does not pass the hub's Web API into apps yet";

export class ManagerApi extends Manager {
  static ID = 'api';

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  private webApi(what: string): Promise<never> {
    if (!hasPermission(this.ctx, API_PERMISSION)) return Promise.reject(needsPermission(`api.${what}`, API_PERMISSION));
    return Promise.reject(notAvailable(`api.${what}`, WEB_API));
  }

  get(_uri: string): Promise<any> {
    return this.webApi('get');
  }

  post(_uri: string, _body: unknown): Promise<any> {
    return this.webApi('post');
  }

  put(_uri: string, _body: unknown): Promise<any> {
    return this.webApi('put');
  }

  delete(_uri: string): Promise<any> {
    return this.webApi('delete');
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
    return this.webApi('getLocalUrl') as Promise<never>;
  }
}
