/**
 * The operation table entry: the one place an API operation is declared. The HTTP layer mounts
 * these (auth, scope, validation, handler, serialisation), the OpenAPI document is generated from
 * them, and a test holds them against the Web API's specification (test/fixtures/api.json).
 */
import type { z } from 'zod';
import type { Scope } from './scopes.js';
import type { TokenInfo } from './tokens.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

type Schema = z.ZodType;
type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

/** What a handler learns about the caller besides its input. */
export interface RequestContext {
  /** The authenticated token; null only on operations with `auth: 'none'`. */
  readonly token: TokenInfo | null;
  readonly remoteAddress: string;
  /** Aborted when the client goes away, so long work (say, autocomplete) can stop waiting. */
  readonly signal: AbortSignal;
}

/**
 * A non-JSON answer (e.g. a WAV file, or a backup archive streamed from disk). Handlers return it
 * instead of a JSON-able value; `headers` travel with it (e.g. Content-Disposition).
 */
export class RawResult {
  constructor(
    readonly contentType: string,
    readonly body: Uint8Array | ReadableStream<Uint8Array>,
    readonly status = 200,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/**
 * An operation that takes a file as its body (a backup archive) instead of JSON: the body is
 * handed to the handler as a stream, bounded by `maxBytes` while it streams (never buffered),
 * and refused with 415 unless its Content-Type is one of `types`.
 */
export interface UploadSpec {
  readonly types: readonly string[];
  readonly maxBytes: number;
}

export interface OperationSpec<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined> {
  /** The seed's operationId (or a new one for an extension). */
  readonly id: string;
  readonly method: HttpMethod;
  /** Path below the manager prefix, Hono syntax: '/dashboard/:id'. A trailing slash is optional. */
  readonly path: string;
  /** Scope needed; null means any valid token (the seed lists no scope). */
  readonly scope: Scope | null;
  /** 'none' only for probes (ping) and documents (openapi). */
  readonly auth?: 'token' | 'none';
  /** Not in the seed: an operation this hub adds (token API, voice catalogue, ...). */
  readonly extension?: boolean;
  readonly summary: string;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /**
   * For bodies that are one root object (createDashboard's `dashboard`): the wrapper key that
   * is also accepted, `{"dashboard": {...}}`.
   */
  readonly bodyRoot?: string;
  /** A file body instead of JSON (see UploadSpec); the handler gets it as `upload`. */
  readonly upload?: UploadSpec;
  /** The answer's schema: in the OpenAPI document, and checked at run time with --check-answers on. */
  readonly output?: Schema;
  /** The content type of a non-JSON answer (a RawResult), documented as binary instead of `output`. */
  readonly produces?: string;
  /** 200 by default; 204 answers without a body whatever the handler returns. */
  readonly status?: 200 | 201 | 202 | 204;
  handler(
    input: { params: Infer<P>; query: Infer<Q>; body: Infer<B>; upload?: ReadableStream<Uint8Array> },
    ctx: RequestContext,
  ): unknown;
}

/** An operation with its input types erased, as tables hold them. */
export type Operation = OperationSpec<Schema | undefined, Schema | undefined, Schema | undefined>;

/**
 * Declares one operation with its handler's input typed from its schemas.
 *
 * @example
 * defineOperation({ id: 'getDashboard', method: 'GET', path: '/dashboard/:id',
 *   scope: 'service.dashboard.readonly', summary: 'One dashboard',
 *   params: z.object({ id: z.string() }), handler: ({ params }) => service.get(params.id) })
 */
export function defineOperation<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(spec: OperationSpec<P, Q, B>): Operation {
  return spec as unknown as Operation;
}

/**
 * The `GET /state` every manager but apps and speech-output has: a small object a dashboard can
 * show at a glance. Its scope is service.system.readonly unless the seed says otherwise.
 */
export function defineStateOperation<O extends Schema>(spec: {
  readonly summary: string;
  readonly output: O;
  readonly scope?: Scope;
  handler(): z.output<O> | Promise<z.output<O>>;
}): Operation {
  return defineOperation({
    id: 'getState',
    method: 'GET',
    path: '/state',
    scope: spec.scope ?? 'service.system.readonly',
    summary: spec.summary,
    output: spec.output,
    handler: () => spec.handler(),
  });
}
