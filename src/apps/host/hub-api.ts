/**
 * An app's calls into the hub's own Web API (`this.homey.api.get/post/put/delete`, with the
 * permission `homey:manager:api`). They never leave the hub: an app in namespaces has no network
 * to reach the API with, and holds no token. The hub makes each request on the app's behalf
 * through its own HTTP layer with the app's own token (`app:<id>`, which it keeps to itself),
 * whose scopes (APP_WEB_API_SCOPES) are Homey's for an app: every check of a client's request applies.
 */
import { invalid, unavailable } from '../../core/errors.js';
import type { GrantedScope } from '../../core/scopes.js';
import { APP_TOKEN_NAME } from '../../core/tokens.js';
import type { HubServe } from './api-socket.js';
import type { SdkRouter } from './router.js';

/**
 * What an app with `homey:manager:api` may do through the Web API, as Homey's client gives an app
 * (energy managers, dashboards, HomeyScript): read the home (devices, zones, flows, variables,
 * insights, dashboards, apps, location, the hub's state, the people), control devices, start
 * flows, set variables and presence (a geofencing app says who came home: Homey's SDK has no
 * presence manager, its Web API has). Never tokens, backups, installing apps or the hub's settings (SYSTEM,
 * service.system, service.app), and no change to the home's shape (devices added or deleted,
 * zones, flows edited). The owner saw this sentence at install (manifest/permissions.ts).
 */
export const APP_WEB_API_SCOPES: GrantedScope[] = [
  'service.dashboard.readonly',
  'service.app.readonly',
  'service.insights.readonly',
  'service.geolocation.readonly',
  'service.system.readonly',
  'service.device.readonly',
  'service.device.control',
  'service.zone.readonly',
  'service.flow.readonly',
  'service.flow.start',
  'service.logic',
  'service.user.readonly',
  'service.presence',
];

/** The origin of in-process requests (never resolved: the request goes to the app's fetch). */
const ORIGIN = 'http://hearth.internal';

/** A request the hub makes of itself: the address (path and query) and what it carries. */
export interface LocalRequest {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

export interface HubApi {
  /**
   * Runs a request through the hub's HTTP application as any client's is run (the HTTP layer
   * makes the request object: this module knows nothing of it).
   */
  fetch(url: string, init: LocalRequest): Response | Promise<Response>;
  /** The HTTP application as a server runs it, for the apps' own sockets (api-socket.ts). */
  serve: HubServe;
}

/**
 * Serves `api.request` through the hub's HTTP application, once the hub has one (`hubApi()` is
 * null while it starts: apps start before the HTTP layer); returns the unregister function.
 */
export function serveHubApi(router: SdkRouter, hubApi: () => HubApi | null): () => void {
  // Each app calls with a token of its own (the one its Homey client's socket has too), so what
  // an operation answers an app is about that app alone (managers/apps/operations.ts).
  const tokens = new Map<string, string>();
  return router.handle('api.request', async (app, { method, path, body }) => {
    const api = hubApi();
    if (!api) throw unavailable("the hub's Web API is not up yet; try again in a moment");
    const sendsBody = (method === 'POST' || method === 'PUT') && body !== undefined;
    // The path as the router will see it, resolved and normalised, is what is checked (the
    // protocol already refused dot segments; this holds whatever a URL parser does next).
    const url = new URL(`${ORIGIN}/api${path}`);
    if (!url.pathname.startsWith('/api/manager/')) throw invalid("an app may call the managers' API only: a path such as /manager/i18n/state");
    const send = (token: string) =>
      api.fetch(url.href, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(sendsBody ? { 'content-type': 'application/json' } : {}) },
        ...(sendsBody ? { body: JSON.stringify(body) } : {}),
      });
    const issue = () => {
      const made = api.serve.issueToken(`${APP_TOKEN_NAME}${app.id}`);
      tokens.set(app.id, made);
      return made;
    };
    let res = await send(tokens.get(app.id) ?? issue());
    // The app's tokens are dropped when it is removed; one installed again gets a new one.
    if (res.status === 401) res = await send(issue());
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  });
}
