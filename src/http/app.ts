/**
 * The HTTP application: every manager's operation table mounted under /api/manager/<name>, the
 * event namespaces, the apps' Web APIs and pages (through the apps manager's gateway), the
 * OpenAPI document, and the JSON error mapping. Nothing here knows any particular manager.
 */

import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Context, Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { UnsupportedPathError } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { AppGateway } from '../apps/host/gateway.js';
import { hasDotSegment } from '../apps/wire/segments.cjs';
import { HearthError } from '../core/errors.js';
import type { EventReach } from '../core/event-reach.js';
import { contractEvents, type EventBus, type EventContract } from '../core/events.js';
import type { Manager } from '../core/managers.js';
import { VERSION } from '../version.js';
import { mountAppApi } from './app-api.js';
import type { Authenticator } from './auth.js';
import { EventSockets, type UpgradeEnv } from './event-sockets.js';
import { mountHomeyAssets } from './homey-assets.js';
import { invalidInput } from './input.js';
import { type MountedOperation, mountOperation, pathPattern } from './mount.js';
import { ALREADY_SENT, answer, requestOf } from './node-adapter.js';
import { buildOpenApiDocument } from './openapi.js';
import { HomeyRealtime, REALTIME_PATH } from './realtime/homey-realtime.js';
import { mountStatic } from './static.js';

export interface HttpAppOptions {
  readonly managers: readonly Manager[];
  readonly auth: Authenticator;
  readonly bus: EventBus;
  readonly log: Logger;
  readonly bodyLimit: number;
  /** Managers whose start failed, with the reason: their operations answer 503. */
  readonly failed: ReadonlyMap<string, string>;
  /** The apps' way in: their Web APIs, realtime channels and pages (the apps manager's). */
  readonly gateway?: AppGateway;
  /** --check-answers: every answer is parsed against its output schema (mount.ts). */
  readonly checkAnswers?: boolean;
  /** Which events a token held to some rooms hears (both protocols); absent: all its scopes let it. */
  readonly reach?: EventReach;
}

export interface HttpApp {
  readonly app: Hono;
  readonly sockets: EventSockets;
  /** Homey's realtime protocol (socket.io) for Homey's clients, loaded when first used. */
  readonly realtime: HomeyRealtime;
  /** The request handler to serve: the app's, refusing paths with dot segments first. */
  readonly fetch: Hono['fetch'];
  /** The server's `upgrade` listener: Homey's realtime, or the event and app WebSockets. */
  readonly upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}

export function createHttpApp(options: HttpAppOptions): HttpApp {
  const { managers, auth, bus, log } = options;
  const app = new Hono({ strict: false });
  const sockets = new EventSockets(bus, log.child({ module: 'events' }), options.reach);

  if (log.isLevelEnabled('debug')) {
    app.use('*', async (c, next) => {
      const start = performance.now();
      await next();
      log.debug({ method: c.req.method, path: c.req.path, status: c.res.status, ms: performance.now() - start }, 'request');
    });
  }

  const mounted: MountedOperation[] = managers.flatMap((m) =>
    m.operations.map((op) => ({ manager: m.name, fullPath: `/api/manager/${m.name}${op.path}`, op })),
  );
  const answerMismatch = options.checkAnswers
    ? (op: { id: string }, problem: string) => log.error({ operation: op.id, problem }, 'an answer does not match its schema')
    : undefined;
  // Hono's RegExpRouter matches a request with one regular expression; one route it cannot hold
  // (a static segment beside a parameter: /flow/flow/test by /flow/flow/:id/trigger) made Hono
  // route every request with its TrieRouter, which splits and walks the path: a twentieth of an
  // option GET. Those few operations are mounted on a second app, asked only when no route of
  // the first one matched (none of theirs is shadowed by, or shadows, another route: those
  // routes' own tests hold, test/managers/flow and test/managers/flowtoken).
  const fallback = new Hono({ strict: false });
  const probe = new RegExpRouter<null>();
  let fallbackRoutes = 0;
  for (const m of mounted) {
    const path = m.fullPath.replace(/(.)\/$/, '$1');
    let target: Hono = app;
    try {
      probe.add(m.op.method, path, null);
    } catch (err) {
      if (!(err instanceof UnsupportedPathError)) throw err;
      target = fallback;
      fallbackRoutes++;
    }
    mountOperation(target, m, { auth, bodyLimit: options.bodyLimit, failed: options.failed, ...(answerMismatch ? { answerMismatch } : {}) });
  }
  fallback.notFound(() => FALLBACK_MISS);
  sockets.mount(app, managers, auth);
  // The apps' own Web APIs and realtime channels at /api/app/<appId>, their pages under /app/.
  const { gateway } = options;
  if (gateway) {
    mountAppApi(app, gateway, { auth, bodyLimit: options.bodyLimit });
    sockets.mountApps(app, gateway, auth);
  }

  const fetch = refuseDotSegments(app.fetch);
  const realtime = new HomeyRealtime({
    bus,
    auth,
    managers,
    log: log.child({ module: 'realtime' }),
    fetch,
    ...(gateway ? { gateway } : {}),
    ...(options.reach ? { reach: options.reach } : {}),
  });
  // Engine.IO's long-polling requests, answered on the raw response (WebSocket is by upgrade).
  app.all(`${REALTIME_PATH}*`, async (c) => {
    const env = c.env as { incoming: IncomingMessage; outgoing: ServerResponse };
    await realtime.request(env.incoming, env.outgoing);
    return ALREADY_SENT;
  });

  let openApi: Promise<object> | undefined;
  app.get('/api/openapi.json', async () =>
    answer(JSON.stringify(await (openApi ??= buildOpenApiDocument(mounted, VERSION, eventContracts(managers)))), {
      headers: { 'content-type': 'application/json', 'x-hearth-version': VERSION },
    }),
  );

  // The web app at /, app pages under /app/: after the API, so /api paths stay JSON.
  mountHomeyAssets(app);
  const webRoot = mountStatic(app, gateway);

  const patterns = mounted.map((m) => ({ re: pathPattern(m.fullPath), method: m.op.method }));
  app.notFound(async (c) => {
    if (fallbackRoutes > 0 && c.req.path.startsWith('/api/manager/')) {
      const res = await fallback.fetch(c.req.raw, c.env);
      if (res !== FALLBACK_MISS) return res;
    }
    const file = await webRoot(c);
    if (file) return file;
    const allowed = [...new Set(patterns.filter((p) => p.re.test(c.req.path)).map((p) => p.method))];
    if (allowed.length > 0) {
      return errorResponse(
        new HearthError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(' or ')}`, {
          Allow: allowed.join(', '),
        }),
      );
    }
    return errorResponse(new HearthError('not_found', `no such path: ${c.req.path}; the API is described at /api/openapi.json`));
  });

  const onError = (err: Error, c: Context): Response => {
    if (err instanceof HearthError) return errorResponse(err);
    if (err instanceof z.ZodError) return errorResponse(invalidInput(err, 'body field'));
    if (err instanceof HTTPException && err.status < 500) {
      return errorResponse(new HearthError(err.status === 413 ? 'payload_too_large' : 'invalid_parameter', err.message || 'bad request'));
    }
    log.error({ err, method: c.req.method, path: c.req.path }, 'request failed');
    return errorResponse(new HearthError('internal_error', 'the hub failed to handle this request; the details are in its log'));
  };
  app.onError(onError);
  fallback.onError(onError);

  return { app, sockets, realtime, fetch, upgrade: upgradeListener(fetch, sockets, realtime) };
}

/**
 * One listener for the server's upgrades: socket.io's, or the WebSocket routes' (the event
 * namespaces, the apps' channels). The upgrade goes through the routes as a GET: one that
 * accepts it (authenticated, with the scope) gets the socket once ws has completed the
 * handshake; any other answer is written as the HTTP answer it is, and the connection closed.
 */
function upgradeListener(fetch: Hono['fetch'], sockets: EventSockets, realtime: HomeyRealtime): HttpApp['upgrade'] {
  return (req, socket, head) => {
    if (HomeyRealtime.handles(req.url)) return realtime.upgrade(req, socket, head);
    socket.on('error', () => socket.destroy());
    let open: ((ws: WebSocket) => void) | undefined;
    const env: UpgradeEnv = { incoming: req, outgoing: undefined, accept: (fn) => (open = fn) };
    Promise.resolve(fetch(requestOf(req) as unknown as Request, env))
      .then(async (res) => {
        if (open) {
          const opened = open;
          sockets.wss.handleUpgrade(req, socket, head, (ws) => opened(ws));
          return;
        }
        const body = await res.text();
        const type = res.headers.get('content-type');
        socket.end(
          `HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}\r\nConnection: close\r\n${type ? `Content-Type: ${type}\r\n` : ''}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      })
      .catch(() => socket.destroy());
  };
}

/** Each namespace's event contract, option.update included where the manager has options. */
function eventContracts(managers: readonly Manager[]): Record<string, EventContract> {
  const out: Record<string, EventContract> = {};
  for (const m of managers) {
    if (m.contract.eventScope) out[m.name] = contractEvents(m.contract);
  }
  return out;
}

/**
 * The hub's request handler: a path with a dot segment (`..`, `%2e%2e`, a backslash) is refused
 * (404) as it arrived, before anything resolves it. Resolved, `/api/manager/apps/app/<id>/setting/..`
 * was `/api/manager/apps/app/<id>/`, another operation than the one the client named (issue 22,
 * finding 10): a client that means that operation names it. The cheap test runs on every
 * request; the full one only on paths that could hold a dot segment.
 */
function refuseDotSegments(fetch: Hono['fetch']): Hono['fetch'] {
  return (req, env, ctx) => {
    const raw = (env as { incoming?: { url?: string } } | undefined)?.incoming?.url;
    if (raw !== undefined && (raw.includes('/.') || raw.includes('\\') || raw.includes('%2')) && hasDotSegment(raw)) {
      // No resource is named so (a 404 like any path out of a folder): the client names it itself.
      return errorResponse(new HearthError('not_found', `no such path: a path with a dot segment ('.' or '..', also as %2e) or a backslash names no resource`));
    }
    return fetch(req, env, ctx);
  };
}

/** What the fallback app (see createHttpApp) answers when none of its routes matched either. */
const FALLBACK_MISS = answer(null, { status: 404 });

/**
 * Built directly, like every answer (see respond() in mount.ts): c.json() and then setting
 * headers would build a web Response and its Headers for every refusal, and a flood of bad
 * tokens is exactly when the hub must stay cheap.
 */
function errorResponse(err: HearthError): Response {
  return answer(JSON.stringify(err.toBody()), {
    status: err.status,
    headers: { ...err.headers, 'content-type': 'application/json', 'x-hearth-version': VERSION },
  });
}
