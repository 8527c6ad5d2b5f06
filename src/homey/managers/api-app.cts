/**
 * `this.homey.api.getApiApp(appId)`: another app's Web API. hearth lets apps call no other app, so
 * every other app is one that is not installed, as Homey answers for an app that is not: the
 * object exists (apps make it in onInit and ask later), `getInstalled()` resolves false, and a
 * call rejects with a sentence. Its `install` event never comes.
 */
import { EventEmitter } from 'node:events';
import { notAvailable } from '../errors.cjs';

const WHY = 'hearth lets apps call no other app';

export class UnreachableApp extends EventEmitter {
  readonly type = 'app';

  constructor(
    readonly id: string,
    private readonly forget: () => void,
  ) {
    super();
  }

  /** Forgets the object (hasApiApp answers false until getApiApp makes it again). */
  unregister(): void {
    this.forget();
  }

  async getInstalled(): Promise<boolean> {
    return false;
  }

  getVersion(): Promise<string> {
    return Promise.reject(notAvailable(`api.getApiApp('${this.id}').getVersion`, WHY));
  }

  private call(method: string): Promise<never> {
    return Promise.reject(notAvailable(`api.getApiApp('${this.id}').${method}`, WHY));
  }

  get(_uri: string): Promise<never> {
    return this.call('get');
  }

  post(_uri: string, _body: unknown): Promise<never> {
    return this.call('post');
  }

  put(_uri: string, _body: unknown): Promise<never> {
    return this.call('put');
  }

  delete(_uri: string): Promise<never> {
    return this.call('delete');
  }
}
