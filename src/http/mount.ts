/**
 * The one generic mount: every operation of every manager's table becomes a Hono route that
 * runs, in this fixed order, authentication (401/429), scope (403), input validation (400/413/415),
 * the handler, and serialisation. A caller without the scope never learns whether its input was
 * valid.
 */
import type { Context, Hono } from 'hono';
import { HearthError } from '../core/errors.js';
import { RawResult, type Operation, type RequestContext } from '../core/operation.js';
import { grants } from '../core/scopes.js';
import type { Authenticator } from './auth.js';
import { remoteAddress } from './auth.js';
import { parseInput } from './input.js';

export interface MountOptions {
  readonly auth: Authenticator;
  readonly bodyLimit: number;
}

/** A mounted operation's full path, for 405 detection and the OpenAPI document. */
export interface MountedOperation {
  readonly manager: string;
  readonly fullPath: string;
  readonly op: Operation;
}

export function mountOperation(app: Hono, mounted: MountedOperation, options: MountOptions): void {
  const { op, fullPath } = mounted;
  // With `strict: false` Hono matches '/voice' and '/voice/' to a route registered as '/voice',
  // but a route registered as '/voice/' matches neither: register without the slash.
  app.on(op.method, fullPath.replace(/(.)\/$/, '$1'), async (c) => {
    const token = op.auth === 'none' ? null : options.auth.authenticate(c, false);
    if (token && op.scope && !grants(token.scopes, op.scope)) {
      throw new HearthError('missing_scope', `this operation needs the scope '${op.scope}', which the token does not hold`);
    }
    const input = await parseInput(c, op, options.bodyLimit);
    const ctx: RequestContext = {
      token,
      get remoteAddress() {
        return remoteAddress(c);
      },
      // Lazy: touching c.req.raw makes @hono/node-server build a full Request, which is most of
      // the cost of a small GET.
      get signal() {
        return c.req.raw.signal;
      },
    };
    const result = await op.handler(input as never, ctx);
    return respond(c, op, result);
  });
}

function respond(c: Context, op: Operation, result: unknown): Response {
  if (result instanceof RawResult) {
    return c.body(result.body as Uint8Array<ArrayBuffer>, result.status as 200, { 'Content-Type': result.contentType });
  }
  const status = op.status ?? 200;
  if (status === 204) return c.body(null, 204);
  // null is a real answer (a setting whose value is null); only "nothing" becomes {}.
  return c.json((result === undefined ? {} : result) as object, status);
}

/** Hono path `/a/:id/b` -> a RegExp matching it with or without a trailing slash. */
export function pathPattern(path: string): RegExp {
  const body = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')))
    .join('/')
    .replace(/\/$/, '');
  return new RegExp(`^${body}/?$`);
}
