/**
 * Reading and validating an operation's input: path, query and JSON body, each parsed with the
 * operation's schema. The body is read as a stream and refused once it passes the limit, so a
 * large upload is never buffered.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { z } from 'zod';
import { HearthError } from '../core/errors.js';
import { exceedsDepth, MAX_JSON_DEPTH } from '../core/json-depth.js';
import { issueKey } from '../core/null-prototype.js';
import type { Operation, UploadSpec } from '../core/operation.js';
import { HubRequest } from './node-adapter.js';

type Where = 'path parameter' | 'query parameter' | 'body field' | 'body';

/** One sentence naming the field and what is wrong with it. */
export function describeZodError(error: z.ZodError, where: Where, input?: unknown): string {
  const fieldKind = where === 'body' ? 'body field' : where;
  const label = (path: string): string => (path === '' ? (where === 'body' || where === 'body field' ? 'the body' : where) : `${fieldKind} '${path}'`);
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map(issueKey).join('.');
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys.map((k) => `'${path ? `${path}.` : ''}${k}'`).join(', ');
        return `${fieldKind} ${keys} is not allowed`;
      }
      if (path !== '' && valueAt(input, issue.path.map(issueKey)) === undefined) return `${label(path)} is required`;
      return `${label(path)} is invalid: ${issue.message}`;
    })
    .join('; ');
}

/** The value at `path` inside `input`, or undefined where the path leads nowhere. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    if (!Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function invalidInput(error: z.ZodError, where: Where, input?: unknown): HearthError {
  return new HearthError('invalid_parameter', describeZodError(error, where, input));
}

export async function readBody(c: Context, limit: number): Promise<string> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > limit) {
    throw new HearthError('payload_too_large', `the request body is larger than the limit of ${limit} bytes`);
  }
  const raw = c.req.raw as unknown;
  const incoming = raw instanceof HubRequest ? raw.unreadIncoming() : null;
  if (incoming) return readNodeBody(incoming, limit);
  const stream = c.req.raw.body;
  if (!stream) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new HearthError('payload_too_large', `the request body is larger than the limit of ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Node's request body to its end, refused (413) past `limit`: no web stream per request. */
function readNodeBody(incoming: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (): void => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > limit) {
        done();
        incoming.resume();
        reject(new HearthError('payload_too_large', `the request body is larger than the limit of ${limit} bytes`));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, total).toString('utf8'));
    };
    const onError = (err: Error): void => {
      done();
      reject(err);
    };
    const onClose = (): void => {
      done();
      reject(new Error('the client closed the request before its body ended'));
    };
    incoming.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/**
 * The request body as JSON, bounded by `limit`: `{}` when empty (so "field is required" names the
 * missing field), 415 when it is not sent as JSON, 400 when it does not parse or nests too deep.
 */
export async function readJsonBody(c: Context, limit: number): Promise<unknown> {
  const text = await readBody(c, limit);
  if (text.trim() === '') return {};
  if (!isJsonType(c.req.header('content-type'))) {
    throw new HearthError('unsupported_media_type', `send the body as JSON with "Content-Type: application/json"`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new HearthError('invalid_json', `the request body is not valid JSON: ${(err as Error).message}`);
  }
  if (exceedsDepth(value)) {
    throw new HearthError('invalid_json', `the request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels; send a flatter value`);
  }
  return value;
}

async function jsonBody(c: Context, op: Operation, limit: number): Promise<unknown> {
  const value = await readJsonBody(c, limit);
  if (op.bodyRoot && isWrapper(value, op.bodyRoot)) return (value as Record<string, unknown>)[op.bodyRoot];
  return value;
}

/** `{"dashboard": {...}}` for an operation whose body is the dashboard itself. */
function isWrapper(value: unknown, key: string): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const inner = (value as Record<string, unknown>)[key];
  return keys.length === 1 && keys[0] === key && typeof inner === 'object' && inner !== null && !Array.isArray(inner);
}

export interface ParsedInput {
  params: unknown;
  query: unknown;
  body: unknown;
  upload?: ReadableStream<Uint8Array>;
}

/**
 * The body of an upload operation as a stream that errors with 413 once it passes the limit, so
 * an archive of any size is never held in memory and a too-large one stops the copy at the limit.
 * 415 when the Content-Type is not one the operation takes.
 */
export function uploadStream(c: Context, spec: UploadSpec): ReadableStream<Uint8Array> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!spec.types.includes(type)) {
    throw new HearthError('unsupported_media_type', `send the file with "Content-Type: ${spec.types[0]}" (one of: ${spec.types.join(', ')})`);
  }
  const tooLarge = (): HearthError => new HearthError('payload_too_large', `the file is larger than the limit of ${spec.maxBytes} bytes`);
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > spec.maxBytes) throw tooLarge();
  const source = c.req.raw.body;
  if (!source) throw new HearthError('invalid_parameter', 'the request has no body: send the file as the body');
  let total = 0;
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > spec.maxBytes) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
}

function parseWith(schema: z.ZodType | undefined, value: unknown, where: Where): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInput(result.error, where, value);
  return result.data;
}

/** Whether the operation reads the request body (only then is input parsing asynchronous). */
export function readsBody(op: Operation): boolean {
  if (op.upload) return true;
  // A body nobody reads is still drained, bounded: it must not be a way to make the hub buffer.
  return op.body !== undefined || (op.method !== 'GET' && op.method !== 'DELETE');
}

/** Path and query input, for an operation that reads no body: synchronous, so a GET needs no extra tick. */
export function parseUrlInput(c: Context, op: Operation): ParsedInput {
  const params = op.params ? parseWith(op.params, c.req.param(), 'path parameter') : undefined;
  const query = op.query ? parseWith(op.query, c.req.query(), 'query parameter') : undefined;
  return { params, query, body: undefined };
}

export async function parseInput(c: Context, op: Operation, bodyLimit: number): Promise<ParsedInput> {
  const input = parseUrlInput(c, op);
  if (op.upload) {
    input.upload = uploadStream(c, op.upload);
  } else if (op.body) {
    input.body = parseWith(op.body, await jsonBody(c, op, bodyLimit), op.bodyRoot ? 'body' : 'body field');
  } else if (readsBody(op)) {
    await readBody(c, bodyLimit);
  }
  return input;
}
