/**
 * `/homey-widget.js`: Homey's widget API (`HomeyWidget` of homey-apps-sdk-v3-types) for app
 * widget pages, which the hub puts first into every widget page. The page's `onHomeyReady(Homey)`
 * is called once the page has loaded. The placed widget's id and settings and the dashboard's
 * theme come in the URL hash; `Homey.api` and the rest are messages to the dashboard page, which
 * calls the widget's Web API with the signed-in token (the widget never sees the token).
 */
import type HomeyWidget from 'homey-apps-sdk-v3-types/lib/HomeyWidget';
import { startPage } from './app-page/boot.js';
import { translate } from './app-page/i18n.js';
import type { ApiMethod, Height } from './page-protocol.js';

startPage(
  'widget',
  // Homey's docs give widgets getDeviceIds(); homey-apps-sdk-v3-types does not declare it yet.
  ({ strings, context, channel }): HomeyWidget & { getDeviceIds(): string[] } => {
    const settings = context.settings ?? {};
    // Before the first paint, so a transparent widget never flashes a background.
    if (context.transparent) document.documentElement.dataset.homeyTransparent = '';
    return {
      __: (key, tags) => translate(strings, key, tags),
      api: (method: ApiMethod, uri: string, body?: object) => channel.call({ op: 'api', method, path: uri, ...(body === undefined ? {} : { body }) }),
      getSettings: () => settings,
      getDeviceIds: () => [...(context.devices ?? [])],
      getWidgetInstanceId: () => context.id ?? '',
      // There is no touch motor to drive in a browser.
      hapticFeedback: () => undefined,
      on: (event, callback) => channel.on(event, callback as (...args: unknown[]) => void),
      popup: async (url) => {
        await channel.call({ op: 'open', url });
      },
      ready: (args) => channel.notify(args?.height === undefined ? { notice: 'ready' } : { notice: 'ready', height: args.height }),
      setHeight: async (height: Height | null) => channel.notify({ notice: 'height', height }),
    };
  },
  () => {
    // Homey gives a widget's body the default padding class unless the page chose one itself.
    const body = document.body;
    if (body && ![...body.classList].some((c) => c.startsWith('homey-widget'))) body.classList.add('homey-widget');
  },
);
