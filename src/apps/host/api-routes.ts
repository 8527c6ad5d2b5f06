/**
 * Which function of an app's api.js answers a request: app.json `api` maps names to `{method,
 * path}` (`/things/:id`), and each widget's `api` does the same for `widgets/<id>/api.js`, served
 * under `/widgets/<id>`. Paths are matched segment by segment (no pattern built from app input),
 * in the order app.json declares them; a path that matches with another method is a 405.
 */
import { nullRecord } from '../../core/null-prototype.js';
import type { ApiRoute, AppManifest, HttpMethod } from '../manifest/manifest.js';

export interface RouteMatch {
  /** The widget whose api.js serves it; null for the app's own. */
  widgetId: string | null;
  /** The name of the function in api.js. */
  route: string;
  params: Record<string, string>;
  public: boolean;
}

export type RouteResult = { match: RouteMatch } | { allowed: HttpMethod[] } | { unknown: true } | { malformed: true };

/** Path segments, decoded; null when one is not valid percent-encoding. */
function segmentsOf(path: string): string[] | null {
  const out: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    try {
      out.push(decodeURIComponent(raw));
    } catch {
      return null;
    }
  }
  return out;
}

function matchIn(routes: Record<string, ApiRoute>, widgetId: string | null, method: HttpMethod, segments: string[]): RouteResult {
  const allowed = new Set<HttpMethod>();
  for (const [name, route] of Object.entries(routes)) {
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== segments.length) continue;
    const params = nullRecord<string>();
    let fits = true;
    for (const [i, p] of pattern.entries()) {
      const seg = segments[i]!;
      if (p.startsWith(':')) params[p.slice(1)] = seg;
      else if (p !== seg) {
        fits = false;
        break;
      }
    }
    if (!fits) continue;
    if (route.methods.includes(method)) return { match: { widgetId, route: name, params, public: route.public } };
    for (const m of route.methods) allowed.add(m);
  }
  return allowed.size > 0 ? { allowed: [...allowed] } : { unknown: true };
}

/**
 * The route of `manifest` for `method` on `path` (the part after `/api/app/<appId>`).
 *
 * @example matchRoute(m, 'GET', '/widgets/clock/time') // { match: { widgetId: 'clock', route: 'getTime', ... } }
 */
export function matchRoute(manifest: AppManifest, method: HttpMethod, path: string): RouteResult {
  const segments = segmentsOf(path);
  if (!segments) return { malformed: true };
  const [first, widgetId] = segments;
  if (first === 'widgets' && widgetId !== undefined && Object.hasOwn(manifest.widgets, widgetId)) {
    const widget = matchIn(manifest.widgets[widgetId]!.api, widgetId, method, segments.slice(2));
    // Widget routes are never public: only a dashboard (with a token) calls them.
    if ('match' in widget) return { match: { ...widget.match, public: false } };
    if (!('unknown' in widget)) return widget;
  }
  return matchIn(manifest.api, null, method, segments);
}
