/**
 * `/homey-pair.js`: Homey's API for an app's own pairing views (`drivers/<id>/pair/<view>.html`),
 * which the hub puts first into those pages. `Homey.emit` reaches the driver's session handler
 * (its answer resolves the promise), `Homey.on` hears what the driver's session emits, and the
 * view moves the pairing on (`showView`, `nextView`, `prevView`, `done`) or adds a device
 * (`createDevice`). Every call is a message to the web app page that hosts the pairing, which
 * holds the session; the view never sees a token.
 */
import { startPage } from './app-page/boot.js';
import { translate } from './app-page/i18n.js';

startPage('pair', ({ strings, channel }) => {
  const move = (kind: 'showView' | 'nextView' | 'prevView' | 'done', view?: string): Promise<void> =>
    channel.call({ op: 'pair.view', kind, ...(view === undefined ? {} : { view }) }).then(() => undefined);
  const viewStore = new Map<string, Record<string, unknown>>();
  return {
    __: (key: string | object, tags?: object) => translate(strings, key, tags),
    emit: (event: string, data?: unknown) => channel.call({ op: 'pair.emit', event: String(event), ...(data === undefined ? {} : { data }) }),
    on: (event: string, callback: (...args: unknown[]) => void) => channel.on(String(event), callback),
    showView: (viewId: string) => move('showView', String(viewId)),
    nextView: () => move('nextView'),
    prevView: () => move('prevView'),
    done: () => move('done'),
    createDevice: (device: object) => channel.call({ op: 'pair.createDevice', device }),
    getOptions: (viewId?: string) => channel.call({ op: 'pair.options', ...(viewId === undefined ? {} : { view: String(viewId) }) }),
    getZone: () => channel.call({ op: 'pair.zone' }),
    setTitle: (title: string) => channel.call({ op: 'pair.title', title: String(title) }).then(() => undefined),
    setSubtitle: (title: string) => channel.call({ op: 'pair.title', title: String(title) }).then(() => undefined),
    setNavigationClose: () => undefined,
    showLoadingOverlay: () => channel.call({ op: 'pair.loading', shown: true }).then(() => undefined),
    hideLoadingOverlay: () => channel.call({ op: 'pair.loading', shown: false }).then(() => undefined),
    getViewStoreValue: async (viewId: string, key: string) => viewStore.get(viewId)?.[key],
    setViewStoreValue: async (viewId: string, key: string, value: unknown) => {
      viewStore.set(viewId, { ...(viewStore.get(viewId) ?? {}), [key]: value });
    },
    alert: (message: string) => channel.call({ op: 'alert', message: String(message) }).then(() => undefined),
    confirm: (message: string) => channel.call({ op: 'confirm', message: String(message) }),
    popup: (url: string) => channel.call({ op: 'open', url: String(url) }).then(() => undefined),
  };
});
