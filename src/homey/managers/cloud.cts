/**
 * `this.homey.cloud`: the hub's id (homey-api's createAppAPI asks for it) and OAuth2 sign-in
 * without Athom's cloud. On Homey, createOAuth2Callback's URL goes through Athom's servers, which
 * hand the provider's `code` back to the app. hearth has no such server: the callback's `url` is
 * the app's authorization URL itself; the person signs in there, the provider sends the browser
 * to the redirect address the app registered (Athom's callback page), and the person pastes that
 * address into hearth's login_oauth2 view (or a script posts it to the pairing session): the hub
 * hands its `code` to the callback here, which emits it as Homey's does. Webhooks need a public
 * address and stay unavailable.
 */
import type { HomeyContext } from '../context.cjs';
import { HomeyError, notAvailable } from '../errors.cjs';
import { Manager, SimpleClass } from '../simple-class.cjs';

export class CloudOAuth2Callback extends SimpleClass {
  constructor(
    readonly id: string,
    readonly url: string,
  ) {
    super();
  }
}

const WHY = 'hearth has no Athom cloud account';

export class ManagerCloud extends Manager {
  static ID = 'cloud';
  private readonly callbacks = new Map<string, CloudOAuth2Callback>();

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  async getHomeyId(): Promise<string> {
    return this.ctx.state.hubId;
  }

  async createOAuth2Callback(apiUrl: string): Promise<CloudOAuth2Callback> {
    if (typeof apiUrl !== 'string' || !/^https?:\/\//i.test(apiUrl))
      throw new HomeyError('createOAuth2Callback takes the http(s) URL of the sign-in page', 'invalid_args');
    const { id } = (await this.ctx.transport.call('oauth2.callback', { url: apiUrl })) as { id: string };
    const callback = new CloudOAuth2Callback(id, apiUrl);
    this.callbacks.set(id, callback);
    // After the caller has had the callback back and attached its listeners, as Homey's does.
    setTimeout(() => callback.emit('url', apiUrl), 0);
    return callback;
  }

  async createWebhook(_id: string, _secret: string, _data: object): Promise<never> {
    throw notAvailable('ManagerCloud.createWebhook', WHY);
  }

  async unregisterWebhook(_webhook: unknown): Promise<never> {
    throw notAvailable('ManagerCloud.unregisterWebhook', WHY);
  }

  /** Where devices on the LAN reach the hub, `192.168.1.5:8720`, as Homey's is `192.168.1.5:80`. */
  async getLocalAddress(): Promise<string> {
    const { address } = (await this.ctx.transport.call('cloud.localAddress', {})) as { address: string };
    return address;
  }

  /** The hub delivers the code (or the provider's refusal) a person pasted. */
  handle(args: { id: string; code: string | null; error: string | null }): null {
    const callback = this.callbacks.get(args.id);
    if (!callback) throw new HomeyError(`no OAuth2 callback '${args.id}' in this app`, 'not_found');
    callback.emit('code', args.code ?? new Error(args.error ?? 'the sign-in failed'));
    return null;
  }
}
