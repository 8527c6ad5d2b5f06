/**
 * An operation called over the realtime socket, as Homey's client does once it is connected
 * (`api {uri: 'homey:manager:<name>', operation: '<id>', args}`): made into the very HTTP request
 * the client would otherwise send, and run through the hub's request handler, so the token, the
 * scope, the input checks and the answer are exactly those of HTTP. The arguments are the
 * client's named parameters: path parameters by name; for GET and DELETE the rest is the query;
 * for POST and PUT the query's declared keys are the query and the rest is the body (a root body
 * such as createDashboard's `dashboard` is that argument itself). The client's own options travel
 * in `args` too (`$validate`, `$cache`, `$timeout`, `query`, ...): as Homey does, only what the
 * operation declares is taken.
 */
import { z } from 'zod';
import { HearthError } from '../../core/errors.js';
import { exceedsDepth, MAX_JSON_DEPTH } from '../../core/json-depth.js';
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import { localRequest } from '../node-adapter.js';

export interface ApiCall {
  readonly uri: string;
  readonly operation: string;
  readonly args: Record<string, unknown>;
}

const ApiCallSchema = z.object({
  uri: z.string().max(256),
  operation: z.string().max(128),
  args: z.record(z.string(), z.unknown()).optional(),
});

/** Homey's URI of a manager's namespace. */
export const managerUri = (name: string): string => `homey:manager:${name}`;

export class SocketApi {
  private readonly byUri = new Map<string, { name: string; ops: Map<string, Operation> }>();

  constructor(managers: readonly Manager[]) {
    for (const m of managers) this.byUri.set(managerUri(m.name), { name: m.name, ops: new Map(m.operations.map((op) => [op.id, op])) });
  }

  /** The call a client sent, checked; a HearthError says what is wrong with it. */
  parse(payload: unknown): ApiCall {
    const parsed = ApiCallSchema.safeParse(payload);
    if (!parsed.success) throw new HearthError('invalid_parameter', 'an api call is {uri, operation, args}: uri and operation are strings, args an object');
    // As a request body's (http/input.ts): past the bound, the request built from it would throw.
    if (exceedsDepth(parsed.data.args ?? {}, MAX_JSON_DEPTH + 1))
      throw new HearthError('invalid_parameter', `an api call's args nest at most ${MAX_JSON_DEPTH} levels deep`);
    return { uri: parsed.data.uri, operation: parsed.data.operation, args: parsed.data.args ?? {} };
  }

  /** The HTTP request `call` stands for, with `authorization` as its token. */
  request(call: ApiCall, base: string, authorization: string): Request {
    const manager = this.byUri.get(call.uri);
    if (!manager) throw new HearthError('not_found', `no manager has the URI '${call.uri}' on this hub`);
    const op = manager.ops.get(call.operation);
    if (!op) throw new HearthError('not_found', `the ${manager.name} manager has no operation '${call.operation}'`);
    if (op.upload) throw new HearthError('invalid_parameter', `${call.operation} takes a file: send it over HTTP`);
    const rest = declaredArgs(op, call.args);
    const path = op.path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
      const value = rest[name];
      delete rest[name];
      if (value === undefined) throw new HearthError('invalid_parameter', `${call.operation} needs the parameter '${name}'`);
      // A lone surrogate (\p{Cs} matches only unpaired ones in u-mode) cannot be a URL's text
      // (encodeURIComponent throws): no id has one.
      if (/\p{Cs}/u.test(String(value))) throw new HearthError('invalid_parameter', `${call.operation}: the parameter '${name}' is not well-formed text`);
      return encodeURIComponent(String(value));
    });
    const queryKeys = op.query instanceof z.ZodObject ? Object.keys(op.query.shape) : [];
    const sendsBody = op.method === 'POST' || op.method === 'PUT';
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(rest)) {
      if (v === undefined || (sendsBody && !queryKeys.includes(k))) continue;
      query.set(k, typeof v === 'string' ? v : JSON.stringify(v));
      delete rest[k];
    }
    const url = `${base}/api/manager/${manager.name}${path}${query.size > 0 ? `?${query}` : ''}`;
    const headers: Record<string, string> = { authorization };
    if (!sendsBody) return localRequest(url, { method: op.method, headers }) as unknown as Request;
    const body = op.bodyRoot !== undefined && rest[op.bodyRoot] !== undefined ? rest[op.bodyRoot] : rest;
    headers['content-type'] = 'application/json';
    return localRequest(url, { method: op.method, headers, body: JSON.stringify(body) }) as unknown as Request;
  }
}

/** Keys of an object schema, or null for a schema that is not one (its keys are not known). */
const keysOf = (schema: z.ZodType | undefined): string[] | null => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : null);

/**
 * The args the operation declares: its path parameters, query keys and body fields (or its root
 * body). A client's own options (`$`-prefixed, and `query` where the operation has no such
 * field) are dropped; where a body's fields are not known, everything else is kept for the
 * body's own check.
 */
function declaredArgs(op: Operation, args: Record<string, unknown>): Record<string, unknown> {
  const params = [...op.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);
  const query = op.query === undefined ? [] : keysOf(op.query);
  const body = (op.method === 'POST' || op.method === 'PUT') && op.body !== undefined ? keysOf(op.body) : [];
  const declared = new Set([...params, ...(query ?? []), ...(body ?? []), ...(op.bodyRoot ? [op.bodyRoot] : [])]);
  const unknown = query === null || body === null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (declared.has(k) || (unknown && !k.startsWith('$') && k !== 'query')) out[k] = v;
  }
  return out;
}
