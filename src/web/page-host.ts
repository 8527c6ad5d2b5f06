/**
 * The host half of the page protocol (page-protocol.ts), shared by widgets on a dashboard
 * (widget-host.tsx) and settings pages (pages/app-settings-page.tsx): hears only its own
 * iframe's window (the page's origin is opaque, so the source window is what identifies it),
 * answers the page's calls through the handler it is given, forwards the app's realtime channel
 * once the page listens, and tells the page when the theme changes.
 */
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, describe, subscribeApp } from './api.js';
import { type ApiMethod, type Height, type HostMessage, type PageCall, PROTOCOL, parsePageMessage } from './page-protocol.js';
import { currentTheme, watchTheme } from './theme.js';

export interface PageHost {
  /** Answers one call of the page; throws (with a sentence for the page) to refuse it. */
  answer(call: PageCall): Promise<unknown>;
  /** The page called `Homey.ready()`, perhaps with the height it wants. */
  onReady(height: Height | undefined): void;
  /** The page asked for another height (null: back to its manifest's). */
  onHeight(height: Height | null): void;
}

/** A page that never calls Homey.ready() is shown this long after it loaded. */
export const READY_FALLBACK_MS = 10_000;

/**
 * Homey hides a page until it calls `Homey.ready()`; a page that never does still shows
 * READY_FALLBACK_MS after it loaded. A new `page` (another URL) starts hidden again.
 */
export function useShownWhenReady(page: string): { shown: boolean; ready: () => void; loaded: () => void } {
  const [state, setState] = useState({ page, shown: false, loaded: false });
  const current = state.page === page ? state : { page, shown: false, loaded: false };
  useEffect(() => {
    if (!current.loaded || current.shown) return;
    const timer = window.setTimeout(() => setState((s) => (s.page === page ? { ...s, shown: true } : s)), READY_FALLBACK_MS);
    return () => window.clearTimeout(timer);
  }, [page, current.loaded, current.shown]);
  return {
    shown: current.shown,
    ready: () => setState((s) => ({ ...(s.page === page ? s : { page, loaded: true }), shown: true })),
    loaded: () => setState((s) => ({ ...(s.page === page ? s : { page, shown: false }), loaded: true })),
  };
}

/** A host message without its protocol field (Omit applied to each member of the union). */
type Outgoing = HostMessage extends infer M ? (M extends unknown ? Omit<M, 'protocol'> : never) : never;

/**
 * Keeps the page in `frame` served while it is mounted; `appId` is the app whose page it is.
 * Returns what the frame's `load` handler must call: the theme in the page's URL is the one of
 * when the frame was made, so a (re)loaded page is told the current one.
 */
export function useHostedPage(frame: RefObject<HTMLIFrameElement | null>, appId: string, host: PageHost): () => void {
  // The handlers of the latest render, so the listener need not be replaced on every render.
  const latest = useRef(host);
  latest.current = host;
  useEffect(() => {
    let offRealtime: (() => void) | null = null;
    const post = (m: Outgoing): void => frame.current?.contentWindow?.postMessage({ protocol: PROTOCOL, ...m }, '*');
    const onMessage = (e: MessageEvent): void => {
      const win = frame.current?.contentWindow;
      if (!win || e.source !== win) return;
      const m = parsePageMessage(e.data);
      if (!m) return;
      if ('call' in m) {
        // Through a promise, so a handler that throws at once still answers the page.
        Promise.resolve(m.call)
          .then((call) => latest.current.answer(call))
          .then(
            (result) => post({ id: m.id, ok: true, result: result ?? null }),
            (err: unknown) => post({ id: m.id, ok: false, error: describe(err), ...(err instanceof ApiError && err.status ? { status: err.status } : {}) }),
          );
        return;
      }
      switch (m.notice) {
        case 'ready':
          latest.current.onReady(m.height);
          break;
        case 'height':
          latest.current.onHeight(m.height);
          break;
        case 'listen':
          offRealtime ??= subscribeApp(appId, (event, args) => post({ event, args }));
          break;
      }
    };
    window.addEventListener('message', onMessage);
    const offTheme = watchTheme((theme) => post({ theme }));
    return () => {
      window.removeEventListener('message', onMessage);
      offTheme();
      offRealtime?.();
    };
  }, [appId]);
  return () => frame.current?.contentWindow?.postMessage({ protocol: PROTOCOL, theme: currentTheme() }, '*');
}

/**
 * `prefix + path` as the browser will request it, refused when it would leave `prefix` (`..`,
 * `%2e%2e`, a backslash): a page's path must not reach the hub's other operations with the
 * signed-in token.
 *
 * @example below('/api/app/com.x', '/readings?full=1') // '/api/app/com.x/readings?full=1'
 */
export function below(prefix: string, path: string): string {
  if (!path.startsWith('/')) throw new Error(`the path must start with '/', e.g. '/${path}'`);
  const url = new URL(prefix + path, location.origin);
  if (url.origin !== location.origin || !(url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) {
    throw new Error(`${path} leads outside the app's Web API`);
  }
  return url.pathname + url.search;
}

/** Calls an app's (or a widget's) Web API below `prefix`; an app's own 401 never signs the person out. */
export async function callAppApi(prefix: string, method: ApiMethod, path: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const send = method === 'POST' || method === 'PUT' ? (body ?? {}) : undefined;
  return api(method, below(prefix, path), send, { headers, signOutOn401: false });
}

/** Opens a page's link in a new tab: http(s) only, relative to the page. */
export function openUrl(url: string, base: string): void {
  let target: URL;
  try {
    target = new URL(url, base);
  } catch {
    throw new Error(`'${url}' is not a URL`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`only http and https links open; not ${target.protocol}`);
  window.open(target.href, '_blank', 'noopener,noreferrer');
}
