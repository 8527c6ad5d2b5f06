/**
 * One placed widget: its app widget's page in a sandboxed iframe (scripts only, opaque origin,
 * so it never sees the signed-in token) of the manifest height, and the parent half of the
 * postMessage bridge. The page may only touch what belongs to it: its own widget store, its own
 * app widget's autocomplete, and GETs of its own app's insights logs. Everything else is refused.
 */
import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { api, describe, seg, subscribe } from './api.js';
import type { AppWidget } from './types.js';

export type { AppWidget } from './types.js';

/** A widget on a dashboard as the page edits it: `height: null` clears an override before saving. */
export interface PlacedWidget {
  id: string;
  appWidgetId: string;
  settings?: Record<string, unknown>;
  height?: number | string | null;
  missing?: boolean;
}

/** Requests a widget page may send: {hearth: 1, id, op, ...}. */
interface BridgeRequest {
  hearth: 1;
  id: number;
  op: 'store.get' | 'store.set' | 'autocomplete' | 'api';
  state?: unknown;
  replace?: unknown;
  settingId?: unknown;
  query?: unknown;
  settings?: unknown;
  method?: unknown;
  path?: unknown;
  body?: unknown;
}

const isRequest = (d: unknown): d is BridgeRequest =>
  typeof d === 'object' && d !== null && (d as { hearth?: unknown }).hearth === 1 && typeof (d as { id?: unknown }).id === 'number' && typeof (d as { op?: unknown }).op === 'string';

/** The API paths a widget of app `ownerUri` may GET through the bridge. */
export function bridgeAllows(method: string, path: string, w: PlacedWidget, ownerUri: string): boolean {
  if (method !== 'GET') return false;
  const p = path.split('?')[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(p);
  } catch {
    return false;
  }
  if (decoded.includes('..')) return false;
  return (
    decoded.startsWith(`/api/manager/insights/log/${ownerUri}:`) ||
    decoded.startsWith(`/api/manager/insights/log/${ownerUri}/`) ||
    p === `/api/manager/dashboards/widgetstore/${encodeURIComponent(w.id)}` ||
    p === `/api/manager/dashboards/widgetstore/${encodeURIComponent(w.id)}/state` ||
    p.startsWith(`/api/manager/dashboards/appwidget/${encodeURIComponent(w.appWidgetId)}/autocomplete`)
  );
}

async function answer(req: BridgeRequest, w: PlacedWidget, ownerUri: string): Promise<unknown> {
  const store = `/api/manager/dashboards/widgetstore/${seg(w.id)}/state`;
  switch (req.op) {
    case 'store.get':
      return api('GET', store);
    case 'store.set':
      if (typeof req.state !== 'object' || req.state === null) throw new Error('setStore needs an object');
      return api('POST', store, { state: req.state, replace: req.replace === true });
    case 'autocomplete': {
      const q = new URLSearchParams({ settingId: String(req.settingId ?? ''), query: String(req.query ?? '') });
      if (req.settings !== undefined) q.set('settings', JSON.stringify(req.settings));
      return api('GET', `/api/manager/dashboards/appwidget/${seg(w.appWidgetId)}/autocomplete?${q}`);
    }
    case 'api': {
      const method = String(req.method ?? 'GET').toUpperCase();
      const path = String(req.path ?? '');
      if (!path.startsWith('/api/') || !bridgeAllows(method, path, w, ownerUri)) {
        throw new Error(`a widget may not call ${method} ${path}`);
      }
      return api(method, path);
    }
    default:
      throw new Error(`unknown bridge operation ${String(req.op)}`);
  }
}

/** px for a number; a percentage is of the widget's width (as an aspect ratio). */
function sizeStyle(height: number | string | null | undefined): Record<string, string> {
  if (typeof height === 'number') return { height: `${height}px` };
  if (typeof height === 'string' && /^\d+%$/.test(height)) return { aspectRatio: `100 / ${parseInt(height, 10) || 50}` };
  return { height: '150px' };
}

export function WidgetFrame({ widget, appWidget }: { widget: PlacedWidget; appWidget: AppWidget | undefined }): JSX.Element {
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    if (!appWidget) return;
    const onMessage = (e: MessageEvent): void => {
      // Only the iframe's own window: its origin is opaque ("null"), so the source is what counts.
      if (!frame.current || e.source !== frame.current.contentWindow || !isRequest(e.data)) return;
      const req = e.data;
      const reply = (m: object): void => frame.current?.contentWindow?.postMessage({ hearth: 1, id: req.id, ...m }, '*');
      answer(req, widget, appWidget.ownerUri).then(
        (result) => reply({ ok: true, result }),
        (err: unknown) => reply({ ok: false, error: describe(err) }),
      );
    };
    window.addEventListener('message', onMessage);
    const off = subscribe('dashboards', (event, args) => {
      const s = args[0] as { id?: string; state?: unknown } | undefined;
      if (event === 'widgetstore.update' && s?.id === widget.id) {
        frame.current?.contentWindow?.postMessage({ hearth: 1, event: 'store', state: s.state }, '*');
      }
    });
    return () => {
      window.removeEventListener('message', onMessage);
      off();
    };
  }, [widget.id, widget.appWidgetId, appWidget?.ownerUri]);

  if (!appWidget || widget.missing) {
    return <div class="widget missing">This widget's app ({widget.appWidgetId.split(':')[0]}) is not installed.</div>;
  }
  const [appId, widgetId] = appWidget.id.split(':') as [string, string];
  // Settings travel in the hash: the page is cacheable and the bridge reads them synchronously.
  const hash = encodeURIComponent(JSON.stringify({ id: widget.id, settings: widget.settings ?? {} }));
  const src = `/app/${seg(appId)}/widgets/${seg(widgetId)}/#${hash}`;
  return (
    <iframe
      ref={frame}
      class={appWidget.transparent ? 'widget transparent' : 'widget'}
      title={appWidget.name}
      src={src}
      key={src}
      sandbox="allow-scripts"
      loading="lazy"
      style={sizeStyle(widget.height ?? appWidget.height)}
      data-testid={`widget-${widget.id}`}
    />
  );
}
