/**
 * An operation as the hub mounts it: a contract's entry (core/contract.ts) with its id and its
 * handler. The HTTP layer mounts these (auth, scope, validation, handler, serialisation), the
 * OpenAPI document is generated from them, and a test holds them against the Web API's
 * specification (test/fixtures/api.json).
 */
import type { z } from 'zod';
import { extendOperation, type OperationContract } from './contract.js';
import type { TokenInfo } from './tokens.js';

export type { HttpMethod, UploadSpec } from './contract.js';

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
 * An answer serialised ahead of time (a cached list): JSON bytes that stand for a `T`, so the
 * handler that answers them is still held to its operation's output.
 */
export class JsonBytes<T> extends RawResult {
  declare private readonly answers?: T;
  constructor(bytes: Uint8Array, headers: Readonly<Record<string, string>> = {}) {
    super('application/json', bytes, 200, headers);
  }
}

type Parsed<O, K extends string> = O extends { readonly [k in K]: infer S extends z.ZodType } ? z.output<S> : undefined;

/** What a handler of operation `O` is given: its inputs as validated, and the upload stream if any. */
export interface HandlerInput<O> {
  params: Parsed<O, 'params'>;
  query: Parsed<O, 'query'>;
  body: Parsed<O, 'body'>;
  upload?: ReadableStream<Uint8Array>;
}

/** A value as it may be answered: serialising it neither needs nor mutates its arrays, so they may be readonly. */
export type Answerable<T> = T extends readonly (infer E)[]
  ? readonly Answerable<E>[]
  : T extends Date | Uint8Array
    ? T
    : T extends object
      ? { readonly [K in keyof T]: Answerable<T[K]> }
      : T;

/**
 * What a handler of operation `O` may answer: anything for a 204 (nothing is sent); what its
 * output schema accepts (serialised as given), and a file where it `produces` one.
 */
export type HandlerAnswer<O> = O extends { readonly status: 204 }
  ? unknown
  :
      | (O extends { readonly output: infer S extends z.ZodType } ? Answerable<z.input<S>> | JsonBytes<z.input<S>> : never)
      | (O extends { readonly produces: string } ? RawResult : never);

export type Handler<O> = (input: HandlerInput<O>, ctx: RequestContext) => HandlerAnswer<O> | Promise<HandlerAnswer<O>>;

/** One handler per operation of a table, each typed by its entry. */
export type Handlers<Ops> = { [K in keyof Ops]: Handler<Ops[K]> };

/** An operation with its types erased, as the HTTP layer holds them. */
export interface Operation extends OperationContract {
  readonly id: string;
  handler(input: { params: unknown; query: unknown; body: unknown; upload?: ReadableStream<Uint8Array> }, ctx: RequestContext): unknown;
}

/**
 * Binds handlers to a contract's operations (options' operations are bound by the option
 * service). The handlers object must have one handler per operation, typed by it.
 *
 * @example
 * implement(dashboardsContract.operations, { getDashboard: ({ params }) => service.get(params.id), ... })
 */
export function implement<const Ops extends Readonly<Record<string, OperationContract>>>(operations: Ops, handlers: Handlers<Ops>): Operation[] {
  return Object.entries(operations).map(([id, op]) => extendOperation(op, { id, handler: handlers[id as keyof Ops] as Operation['handler'] }));
}
