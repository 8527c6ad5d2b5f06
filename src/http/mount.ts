/**
 * The one generic mount: every operation of every manager's table becomes a Hono route that
 * runs, in this fixed order, authentication (401/429), scope (403), input validation (400/413/415),
 * the handler, and serialisation. A caller without the scope never learns whether its input was
 * valid.
 */
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { HearthError } from '../core/errors.js';
import { type Operation, RawResult, type RequestContext } from '../core/operation.js';
import { literal } from '../core/regexp.js';
import { grants } from '../core/scopes.js';
import type { TokenInfo } from '../core/tokens.js';
import { describeIssues } from '../core/zod-issues.js';
import { VERSION } from '../version.js';
import type { Authenticator } from './auth.js';
import { remoteAddress } from './auth.js';
import { type ParsedInput, parseInput, parseUrlInput, readsBody } from './input.js';
import { answer } from './node-adapter.js';

export interface MountOptions {
  readonly auth: Authenticator;
  readonly bodyLimit: number;
  /** Managers whose start failed, with the reason: their operations answer 503. */
  readonly failed: ReadonlyMap<string, string>;
  /** Called with an answer that does not match its operation's output schema (--check-answers on). */
  readonly answerMismatch?: (op: Operation, problem: string) => void;
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
  // Not an async function: a GET with a synchronous handler answers without a promise or a
  // microtask, which is a tenth of the hub's own cost of a small GET.
  app.on(op.method, fullPath.replace(/(.)\/$/, '$1'), (c: Context): Response | Promise<Response> => {
    const token = op.auth === 'none' ? null : options.auth.authenticate(c, false);
    if (token && op.scope && !grants(token.scopes, op.scope)) {
      throw new HearthError('missing_scope', `this operation needs the scope '${op.scope}', which the token does not hold`);
    }
    const failure = options.failed.get(mounted.manager);
    if (failure !== undefined) throw new HearthError('unavailable', `the ${mounted.manager} manager failed to start: ${failure}`);
    if (readsBody(op)) return parseInput(c, op, options.bodyLimit).then((input) => call(op, input, new CallContext(c, token), reply));
    return call(op, parseUrlInput(c, op), new CallContext(c, token), reply);
  });
  // Chosen once per route: with the check off, an answer goes straight to respond().
  const mismatch = options.answerMismatch;
  const reply = mismatch && op.output ? (value: unknown) => respond(op, checkedAnswer(op, value, mismatch)) : (value: unknown) => respond(op, value);
}

function call(op: Operation, input: ParsedInput, ctx: CallContext, reply: (value: unknown) => Response): Response | Promise<Response> {
  const result: unknown = op.handler(input as never, ctx);
  return result instanceof Promise ? result.then(reply) : reply(result);
}

/**
 * The answer as the client will read it (its JSON), parsed against the operation's output
 * schema: a mismatch is reported and answered as a 500 naming the operation and the fields, so
 * a test (or someone debugging) cannot miss it.
 */
function checkedAnswer(op: Operation, value: unknown, mismatch: (op: Operation, problem: string) => void): unknown {
  if (value instanceof RawResult || (op.status ?? 200) === 204) return value;
  const wire: unknown = value === undefined ? {} : JSON.parse(JSON.stringify(value));
  const parsed = (op.output as z.ZodType).safeParse(wire);
  if (parsed.success) return value;
  const problem = describeIssues(parsed.error, 'answer');
  mismatch(op, problem);
  throw new HearthError('internal_error', `the answer of ${op.id} does not match its schema: ${problem}`);
}

/**
 * The handler's view of the request, as a class rather than an object literal with getters: a
 * literal's getters are closures over the route's context, and V8 then allocated that context
 * straight into the old generation, where it kept every request's objects alive past young
 * collections; the hub spent a fifth of its time in GC and served 40% fewer requests
 * (docs/performance.md).
 */
class CallContext implements RequestContext {
  constructor(
    private readonly c: Context,
    readonly token: TokenInfo | null,
  ) {}

  get remoteAddress(): string {
    return remoteAddress(this.c);
  }

  /** Made when first read (node-adapter.ts): most handlers never ask. */
  get signal(): AbortSignal {
    return this.c.req.raw.signal;
  }
}

/**
 * Builds the answer directly with a plain header object: Hono's c.json() turns two or more
 * headers into an undici Headers object, which costs more than the rest of a small GET.
 */
function respond(op: Operation, result: unknown): Response {
  if (result instanceof RawResult) {
    return answer(result.body, {
      status: result.status,
      headers: { ...result.headers, 'content-type': result.contentType, 'x-hearth-version': VERSION },
    });
  }
  const status = op.status ?? 200;
  if (status === 204) return answer(null, { status, headers: { 'x-hearth-version': VERSION } });
  // null is a real answer (a setting whose value is null); only "nothing" becomes {}.
  return answer(JSON.stringify(result === undefined ? {} : result), {
    status,
    headers: { 'content-type': 'application/json', 'x-hearth-version': VERSION },
    lowerCase: true,
  });
}

/** Hono path `/a/:id/b` -> a RegExp matching it with or without a trailing slash. */
export function pathPattern(path: string): RegExp {
  const body = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : literal(seg)))
    .join('/')
    .replace(/\/$/, '');
  return new RegExp(`^${body}/?$`);
}
