/**
 * The apps' own Web APIs, at `/api/app/<appId><path>` (the path Homey's Web API client uses for
 * `App.call`): app.json `api` routes run the app's api.js, `/widgets/<widgetId><path>` routes a
 * widget's. Authentication as every other route (a route app.json marks `public` needs none;
 * widget routes never are), then the scope: `service.app.control` for an app's routes,
 * `service.dashboard.readonly` for a widget's (whoever may view a dashboard may use its
 * widgets). The handler runs in the app's process; every error is JSON. The same path opened as
 * a WebSocket carries the app's realtime events (event-sockets.ts).
 */
import type { Context, Hono } from 'hono';
import { matchRoute } from '../apps/host/api-routes.js';
import type { AppGateway } from '../apps/host/gateway.js';
import { APP_ID, HTTP_METHODS, type HttpMethod } from '../apps/manifest/manifest.js';
import type { ApiAnswer } from '../apps/wire/protocol.js';
import { ERROR_STATUS, type ErrorCode, HearthError } from '../core/errors.js';
import { nullRecord } from '../core/null-prototype.js';
import { grants, type Scope } from '../core/scopes.js';
import { APP_TOKEN_REFUSED, isAppToken } from '../core/tokens.js';
import { VERSION } from '../version.js';
import type { Authenticator } from './auth.js';
import { readBody, readJsonBody } from './input.js';
import { answer } from './node-adapter.js';

export const APP_API_PREFIX = '/api/app';
/** Header a dashboard sends with a widget's call: the placed widget's id (Homey.getWidgetInstanceId). */
export const WIDGET_INSTANCE_HEADER = 'x-hearth-widget-instance';
const INSTANCE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export const APP_ROUTE_SCOPE: Scope = 'service.app.control';
export const WIDGET_ROUTE_SCOPE: Scope = 'service.dashboard.readonly';

/** The error code the hub answers with for an app's own 4xx status. */
function codeOf(status: number): ErrorCode {
  const known = (Object.entries(ERROR_STATUS) as Array<[ErrorCode, number]>).find(([code, s]) => s === status && code !== 'invalid_json');
  return known?.[0] ?? 'invalid_parameter';
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return answer(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-hearth-version': VERSION, ...headers } });
}

/** An app's error answer as the hub's JSON error: its 4xx as it is, any 5xx as 502 (the app failed). */
function errorAnswer(appId: string, answer: Extract<ApiAnswer, { ok: false }>): Response {
  const err =
    answer.status < 500
      ? new HearthError(codeOf(answer.status), `app '${appId}': ${answer.message}`)
      : new HearthError('bad_gateway', `app '${appId}' failed to answer: ${answer.message}`);
  return json(answer.status < 500 ? answer.status : err.status, { ...err.toBody(), statusCode: answer.status < 500 ? answer.status : err.status });
}

function queryOf(url: URL): Record<string, string> {
  const out = nullRecord<string>();
  for (const [k, v] of url.searchParams) if (!Object.hasOwn(out, k)) out[k] = v;
  return out;
}

export interface AppApiOptions {
  readonly auth: Authenticator;
  readonly bodyLimit: number;
}

/** The handler of every `/api/app/<appId>...` request that is not a WebSocket upgrade. */
export function appApiHandler(gateway: AppGateway, options: AppApiOptions): (c: Context) => Promise<Response> {
  return async (c) => {
    const appId = c.req.param('appId') ?? '';
    const url = new URL(c.req.url);
    const method = c.req.method.toUpperCase() as HttpMethod;
    if (!APP_ID.test(appId) || !gateway.installed(appId)) throw new HearthError('not_found', `app '${appId}' is not installed`);
    if (!HTTP_METHODS.includes(method)) {
      throw new HearthError('method_not_allowed', `${method} is not an app API method; use GET, POST, PUT or DELETE`, { Allow: HTTP_METHODS.join(', ') });
    }
    const manifest = gateway.manifest(appId);
    if (!manifest) throw new HearthError('unavailable', `app '${appId}' cannot run: its folder is unusable (see its crash log)`);
    const path = url.pathname.slice(`${APP_API_PREFIX}/${appId}`.length) || '/';
    const found = matchRoute(manifest, method, path);
    if ('malformed' in found) throw new HearthError('invalid_parameter', `the path ${path} is not valid percent-encoding`);
    if ('unknown' in found) throw new HearthError('not_found', `app '${appId}' has no API route for ${method} ${path}`);
    if ('allowed' in found) {
      throw new HearthError('method_not_allowed', `${method} is not allowed on ${path} of app '${appId}'; use ${found.allowed.join(' or ')}`, {
        Allow: found.allowed.join(', '),
      });
    }
    const route = found.match;
    if (!route.public) {
      const token = options.auth.authenticate(c, false);
      if (isAppToken(token)) throw new HearthError('missing_scope', APP_TOKEN_REFUSED);
      const scope = route.widgetId === null ? APP_ROUTE_SCOPE : WIDGET_ROUTE_SCOPE;
      if (!grants(token.scopes, scope)) throw new HearthError('missing_scope', `this app API route needs the scope '${scope}', which the token does not hold`);
    }
    // Homey sends an empty body for GET and DELETE: one sent anyway is read (bounded) and dropped.
    let body: unknown = {};
    if (method === 'POST' || method === 'PUT') body = await readJsonBody(c, options.bodyLimit);
    else await readBody(c, options.bodyLimit);
    const instance = c.req.header(WIDGET_INSTANCE_HEADER);
    const answer = await gateway.callApi(appId, {
      widgetId: route.widgetId,
      route: route.route,
      params: route.params,
      query: queryOf(url),
      body,
      ...(route.widgetId !== null && instance !== undefined && INSTANCE_ID.test(instance) ? { widgetInstanceId: instance } : {}),
    });
    return answer.ok ? json(200, answer.body ?? null) : errorAnswer(appId, answer);
  };
}

/** Mounts the apps' Web APIs; `upgrade` (when given) takes GETs that ask for a WebSocket. */
export function mountAppApi(app: Hono, gateway: AppGateway, options: AppApiOptions): void {
  const handler = appApiHandler(gateway, options);
  for (const path of [`${APP_API_PREFIX}/:appId`, `${APP_API_PREFIX}/:appId/*`]) {
    app.on(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'], path, async (c, next) => {
      if (c.req.header('upgrade')?.toLowerCase() === 'websocket') return next();
      return handler(c);
    });
  }
}
