/**
 * The child half of the widget bridge, injected by the hub as the first script of every widget
 * page (served at /widget-bridge.js). It defines window.hearth before the page's own scripts run:
 *   hearth.widgetId, hearth.settings          the placed widget's instance id and settings
 *   hearth.getStore() / hearth.setStore(state, {replace})   the widget's own widget store
 *   hearth.autocomplete(settingId, query, settings?)        its app's autocomplete answers
 *   hearth.api('GET', path)                   read its own app's insights logs
 *   hearth.on('store', fn)                    live store updates
 * Every call is a postMessage to the dashboard page, which checks it and calls the API with the
 * signed-in token; the widget never sees the token (its iframe has an opaque origin).
 */

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

(() => {
  let context: { id?: unknown; settings?: unknown } = {};
  try {
    context = JSON.parse(decodeURIComponent(location.hash.slice(1)) || '{}') as typeof context;
  } catch {
    /* opened without a dashboard: no settings */
  }
  const pending = new Map<number, Pending>();
  const listeners: Record<string, Array<(v: unknown) => void>> = {};
  let next = 1;
  const inFrame = window.parent !== window;

  window.addEventListener('message', (e: MessageEvent) => {
    if (e.source !== window.parent) return;
    const m = e.data as { hearth?: unknown; id?: unknown; ok?: unknown; result?: unknown; error?: unknown; event?: unknown; state?: unknown };
    if (!m || m.hearth !== 1) return;
    if (typeof m.id === 'number') {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(typeof m.error === 'string' ? m.error : 'the hub refused the call'));
    } else if (typeof m.event === 'string') {
      for (const f of listeners[m.event] ?? []) f(m.state);
    }
  });

  function call(op: string, fields: Record<string, unknown> = {}): Promise<unknown> {
    if (!inFrame) return Promise.reject(new Error('this widget page is not on a dashboard'));
    const id = next++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      window.parent.postMessage({ hearth: 1, id, op, ...fields }, '*');
    });
  }

  const settings = typeof context.settings === 'object' && context.settings !== null ? context.settings : {};
  (window as unknown as { hearth: unknown }).hearth = Object.freeze({
    widgetId: typeof context.id === 'string' ? context.id : null,
    settings,
    getStore: () => call('store.get'),
    setStore: (state: object, options?: { replace?: boolean }) => call('store.set', { state, replace: options?.replace === true }),
    autocomplete: (settingId: string, query: string, current?: object) => call('autocomplete', { settingId, query, settings: current }),
    api: (method: string, path: string, body?: unknown) => call('api', { method, path, body }),
    on: (event: string, f: (v: unknown) => void) => {
      (listeners[event] ??= []).push(f);
    },
  });
})();
