/**
 * `/homey.js`: Homey's settings-page API (`HomeySettings` of homey-apps-sdk-v3-types) for an
 * app's settings page, which the hub puts first into the page (the page usually loads it itself
 * too; the second copy does nothing). Callback style as Homey's: `cb(err, result)`; without a
 * callback a call returns a promise instead. Every call is a message to the web app page that
 * hosts the settings page, which uses the app's settings operations and its Web API.
 */
import type HomeySettings from 'homey-apps-sdk-v3-types/lib/HomeySettings';
import { startPage } from './app-page/boot.js';
import type { HostChannel } from './app-page/channel.js';
import { translate } from './app-page/i18n.js';
import type { PageCall } from './page-protocol.js';

type Callback = (err: Error | null, result?: unknown) => void;

/** Calls `cb(err, result)` when the page gave one, else hands back the promise. */
function answer(promise: Promise<unknown>, cb: unknown): Promise<unknown> | undefined {
  if (typeof cb !== 'function') return promise;
  promise.then(
    (result) => (cb as Callback)(null, result),
    (err: unknown) => (cb as Callback)(err instanceof Error ? err : new Error(String(err))),
  );
  return undefined;
}

/** `Homey.api(method, uri, [body,] cb)`: the body is optional for GET and DELETE. */
function api(channel: HostChannel, method: unknown, uri: unknown, bodyOrCb?: unknown, cb?: unknown): Promise<unknown> | undefined {
  const callback = typeof bodyOrCb === 'function' ? bodyOrCb : cb;
  const body = typeof bodyOrCb === 'function' ? undefined : bodyOrCb;
  const call = { op: 'api', method, path: uri, ...(body === undefined || body === null ? {} : { body }) } as PageCall;
  return answer(channel.call(call), callback);
}

startPage('settings', ({ strings, channel }): HomeySettings => {
  const open = (url: string): Promise<void> => channel.call({ op: 'open', url }).then(() => undefined);
  const homey = {
    __: (key: object | string, tags?: object) => translate(strings, key, tags),
    api: (method: unknown, uri: unknown, bodyOrCb?: unknown, cb?: unknown) => api(channel, method, uri, bodyOrCb, cb),
    // A promise (Homey's declaration) and the callback when one is given.
    alert: (message: string, _icon?: unknown, cb?: unknown): Promise<void> => {
      const shown = channel.call({ op: 'alert', message: String(message) }).then(() => undefined);
      if (typeof cb === 'function')
        shown.then(
          () => (cb as Callback)(null),
          (err: Error) => (cb as Callback)(err),
        );
      return shown;
    },
    confirm: (message: string, _icon: string | null, cb: unknown) => answer(channel.call({ op: 'confirm', message: String(message) }), cb),
    get: (keyOrCb: unknown, cb?: unknown) =>
      typeof keyOrCb === 'function'
        ? answer(channel.call({ op: 'settings.get' }), keyOrCb)
        : answer(channel.call({ op: 'settings.get', key: String(keyOrCb) }), cb),
    set: (key: string, value: unknown, cb?: unknown) => answer(channel.call({ op: 'settings.set', key: String(key), value }), cb),
    unset: (key: string, cb?: unknown) => answer(channel.call({ op: 'settings.unset', key: String(key) }), cb),
    on: (event: string, callback: unknown) => channel.on(String(event), callback as (...args: unknown[]) => void),
    openURL: open,
    popup: open,
    ready: () => channel.notify({ notice: 'ready' }),
  };
  return homey;
});
