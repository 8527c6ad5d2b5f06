/**
 * hearth's own bridge between Node's HTTP server and Hono, in place of @hono/node-server: the
 * request Hono reads is a view of Node's IncomingMessage (its method, URL, headers, and a body
 * stream made when read), and the answers the hub builds are `Answer`s written straight to the
 * ServerResponse. Neither touches the web `Request`, `Response` or `Headers` classes: in Node 20
 * they are undici's, loaded on first use, and loading them (as @hono/node-server does at import,
 * with http2 and tls beside them) cost every hub some 2 MiB of memory it kept for good
 * (docs/performance.md). A web `Response` from elsewhere (one of Hono's own helpers) is still
 * written, through its public API.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

export type AnswerBody = string | Uint8Array | ReadableStream<Uint8Array> | Readable | null;

/** Header names are lower case; a list (set-cookie) is joined as Headers.get does. */
class HeaderView {
  constructor(private readonly raw: Readonly<Record<string, string | string[] | undefined>>) {}

  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }

  forEach(fn: (value: string, name: string) => void): void {
    for (const name of Object.keys(this.raw)) {
      const v = this.get(name);
      if (v !== null) fn(v, name);
    }
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.raw)) {
      const v = this.get(name);
      if (v !== null) yield [name, v];
    }
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** An answer's headers: what the hub set, readable as a web Headers is. */
class AnswerHeaders extends HeaderView {
  constructor(readonly record: Record<string, string>) {
    super(record);
  }

  set(name: string, value: string): void {
    this.record[name.toLowerCase()] = value;
  }
}

/** A body read to its end, as an ArrayBuffer of its own. */
async function arrayBufferOf(body: AnswerBody): Promise<ArrayBuffer> {
  const bytes = await bytesOf(body);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** Reads a body (text, bytes, a web or Node stream) to its end. */
async function bytesOf(body: AnswerBody): Promise<Uint8Array> {
  if (body === null) return new Uint8Array();
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  const parts: Uint8Array[] = [];
  for await (const part of body as unknown as AsyncIterable<Uint8Array>) parts.push(part);
  return Buffer.concat(parts);
}

/**
 * An answer as the hub builds it: a status, plain headers and a body. Shaped as much like a web
 * Response as the hub's code and its in-process callers (the apps' hub API, the realtime API
 * calls, tests) read one.
 */
export class Answer {
  readonly status: number;
  readonly headers: AnswerHeaders;
  private used = false;

  constructor(
    readonly body: AnswerBody,
    init: { status?: number; headers?: Record<string, string>; lowerCase?: boolean } = {},
  ) {
    this.status = init.status ?? 200;
    let headers: Record<string, string>;
    if (init.lowerCase && init.headers) headers = init.headers;
    else {
      headers = {};
      for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
    }
    this.headers = new AnswerHeaders(headers);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.used) throw new TypeError('the answer body was read already');
    this.used = true;
    return arrayBufferOf(this.body);
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

/**
 * An Answer, typed as the web Response Hono's handler types ask for: Hono only passes a
 * handler's answer back to the adapter, and the hub's other readers (the apps' hub API, the
 * realtime API calls, tests) use what Answer has of a Response (status, ok, headers.get, text,
 * json, arrayBuffer, body).
 */
export function answer(body: AnswerBody, init: { status?: number; headers?: Record<string, string>; lowerCase?: boolean } = {}): Response {
  return new Answer(body, init) as unknown as Response;
}

const alreadySent = new Answer(null, { status: 200 });
/** What handlers return after writing to Node's response themselves (Engine.IO's polling). */
export const ALREADY_SENT = alreadySent as unknown as Response;

/** Where a request's body comes from: Node's request, or the text of one the hub makes of itself. */
type BodySource = IncomingMessage | string | null;

/**
 * A request as Hono and the hub read one: method, absolute URL, headers, a body stream made on
 * first read, and a signal aborted when the client goes away before its answer. A class holding
 * Node's objects, not closures over them: no per-request closures on the request path
 * (docs/performance.md, "Found and fixed", item 1).
 */
export class HubRequest {
  readonly headers: HeaderView;
  private controller: AbortController | undefined;
  private stream: ReadableStream<Uint8Array> | null | undefined;

  constructor(
    readonly method: string,
    readonly url: string,
    headers: Readonly<Record<string, string | string[] | undefined>>,
    private readonly source: BodySource,
    private readonly outgoing?: ServerResponse,
    /** The client asked with HEAD: `method` is GET, and Node's response sends no body. */
    readonly head = false,
  ) {
    this.headers = new HeaderView(headers);
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      const outgoing = this.outgoing;
      const watched = outgoing ?? (typeof this.source === 'object' ? this.source : null);
      watched?.once('close', () => {
        if (!outgoing?.writableFinished) controller.abort();
      });
    }
    return this.controller.signal;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.stream === undefined) {
      const source = this.source;
      const node = source === null ? null : typeof source === 'string' ? Readable.from([Buffer.from(source)]) : source;
      this.stream = node && (typeof source === 'string' || !NO_BODY.has(this.method)) ? (Readable.toWeb(node) as unknown as ReadableStream<Uint8Array>) : null;
    }
    return this.stream;
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return arrayBufferOf(this.body);
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  /** Node's request, when the body comes from it and nothing has read it yet (no web stream made). */
  unreadIncoming(): IncomingMessage | null {
    const source = this.source;
    if (this.stream !== undefined || source === null || typeof source === 'string' || NO_BODY.has(this.method)) return null;
    return source.readableDidRead ? null : source;
  }
}

const NO_BODY = new Set(['GET']);

/** Node's request as a HubRequest (the URL's host is the request's, or localhost). */
export function requestOf(incoming: IncomingMessage, outgoing?: ServerResponse): HubRequest {
  const path = incoming.url ?? '/';
  const url =
    path.charCodeAt(0) === 47 /* / */
      ? `http://${hostOf(incoming.headers)}${path}`
      : /^https?:\/\//i.test(path)
        ? path
        : `http://${hostOf(incoming.headers)}/${path}`;
  // A HEAD is handed to Hono as the GET it asks about: Hono answers a HEAD by wrapping the GET's
  // answer in a web Response, which would load undici's web classes into the hub for good (about
  // 5 MiB with the pages of node's binary they touch). Node's ServerResponse knows the request
  // was a HEAD and sends the GET's headers (its Content-Length too) without the body.
  const head = incoming.method === 'HEAD';
  return new HubRequest(head ? 'GET' : (incoming.method ?? 'GET'), url, incoming.headers, incoming, outgoing, head);
}

/** Whether the client asked with HEAD (the request reads as a GET): an answer may skip making its body. */
export function isHead(req: Request): boolean {
  return req instanceof HubRequest && req.head;
}

/** A request the hub makes of itself (the realtime API calls, the apps' calls to the managers' API). */
export function localRequest(url: string, init: { method: string; headers: Record<string, string>; body?: string }): HubRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(init.headers)) headers[k.toLowerCase()] = v;
  const body = init.body;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new HubRequest(init.method, url, headers, body ?? null);
}

/** A Host header as a URL's host; anything else (or none) is localhost: it only carries the path. */
function hostOf(headers: IncomingHttpHeaders): string {
  const host = headers.host;
  return host && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? host : 'localhost';
}

/** Hono's answer types: ours, or a web Response (from one of Hono's helpers). */
interface WebResponseLike {
  readonly status: number;
  readonly headers: { forEach(fn: (value: string, name: string) => void): void; getSetCookie?(): string[] };
  readonly body: ReadableStream<Uint8Array> | null;
}

/** Writes an answer to Node's response. */
export function writeAnswer(res: Answer | WebResponseLike, outgoing: ServerResponse): void {
  if (res === alreadySent || outgoing.headersSent) return;
  // An Answer's own header record is written as it is (it is made per answer).
  let headers: Record<string, string | string[]> = {};
  if (res instanceof Answer) headers = res.headers.record;
  else {
    res.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = value;
    });
    const cookies = res.headers.getSetCookie?.() ?? [];
    if (cookies.length) headers['set-cookie'] = cookies;
  }
  const body = res.body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    if (headers['content-length'] === undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    outgoing.writeHead(res.status, headers);
    outgoing.end(body);
    return;
  }
  outgoing.writeHead(res.status, headers);
  if (body === null) {
    outgoing.end();
    return;
  }
  const stream = body instanceof Readable ? body : Readable.fromWeb(body as unknown as NodeReadableStream<Uint8Array>);
  stream.on('error', () => outgoing.destroy());
  outgoing.on('close', () => stream.destroy());
  stream.pipe(outgoing);
}

/**
 * Hono's fetch, as typed: it is called with a HubRequest, which has what Hono reads of a web
 * Request (method, url, headers, body and the rest above).
 */
export type Fetch = (req: Request, env: NodeEnv) => unknown;

/** What handlers find in `c.env`: Node's request and response (no response on an upgrade). */
export interface NodeEnv {
  incoming: IncomingMessage;
  outgoing: ServerResponse | undefined;
}

/** Answers 500 (or cuts the connection once the answer has begun): a fetch that threw. */
function fail(outgoing: ServerResponse): void {
  if (!outgoing.headersSent) writeAnswer(new Answer('{"error":"internal_error"}', { status: 500, headers: { 'content-type': 'application/json' } }), outgoing);
  else outgoing.destroy();
}

/** The server's `request` listener: each request through `fetch`, its answer written. */
export function requestListener(fetch: Fetch): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  return (incoming, outgoing) => {
    let result: unknown;
    try {
      result = fetch(requestOf(incoming, outgoing) as unknown as Request, { incoming, outgoing });
    } catch {
      fail(outgoing);
      return;
    }
    if (result instanceof Promise) result.then((res: Answer | WebResponseLike) => writeAnswer(res, outgoing)).catch(() => fail(outgoing));
    else writeAnswer(result as Answer | WebResponseLike, outgoing);
  };
}
