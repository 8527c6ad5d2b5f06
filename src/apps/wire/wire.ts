/**
 * The dependency-free half of the IPC protocol, loaded by both hub and child: request
 * correlation with timeouts (RpcPeer), the error type that crosses the wire, and the envelope
 * guard the child uses on what the hub sends. Imports nothing at run time so an app's child
 * process stays small (see protocol.ts for why the child does not load zod).
 */
import type { HubMessage } from './protocol.js';

/** Bumped when a message changes shape; the child reports the version it speaks in `hello`. */
export const PROTOCOL_VERSION = 2;

/** Machine-readable reasons a call failed; HearthError codes from hub handlers pass through too. */
export type WireErrorCode =
  | 'permission_denied'
  | 'not_available'
  | 'invalid_args'
  | 'invalid_result'
  | 'timeout'
  | 'closed'
  | 'busy'
  | 'app_error'
  | (string & {});

/** A failed call, on either side. `code` is machine-readable, `message` a sentence. */
export class RpcError extends Error {
  constructor(
    readonly code: WireErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export interface CallMessage {
  type: 'call';
  id: number;
  method: string;
  args: unknown;
}
export interface ResultMessage {
  type: 'result';
  id: number;
  result: unknown;
}
export interface ErrorMessage {
  type: 'error';
  id: number;
  error: { code: string; message: string };
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: RpcError): void;
  timer: ReturnType<typeof setTimeout>;
  method: string;
}

/**
 * One side's outstanding requests. `call` sends a request and resolves with the other side's
 * answer, or rejects with `timeout` when none comes in time; `settle` feeds answers in.
 *
 * @example
 * const peer = new RpcPeer((m) => process.send!(m), 10_000);
 * const keys = await peer.call('settings.getKeys', {});
 */
export class RpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly send: (message: CallMessage) => void,
    private readonly defaultTimeoutMs: number,
  ) {}

  get inFlight(): number {
    return this.pending.size;
  }

  call(method: string, args: unknown, timeoutMs = this.defaultTimeoutMs): Promise<unknown> {
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RpcError('timeout', `'${method}' got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref?.();
      this.pending.set(id, { resolve, reject, timer, method });
      try {
        this.send({ type: 'call', id, method, args });
      } catch (err) {
        clearTimeout(timer);
        this.pending.delete(id);
        const code = err instanceof RpcError ? err.code : 'closed';
        reject(new RpcError(code, `'${method}' could not be sent: ${(err as Error).message}`));
      }
    });
  }

  /** Feeds an answer in; answers to unknown ids (already timed out) are dropped. */
  /** Feeds an answer in; false when no call of that id is waiting (late, or never made). */
  settle(message: ResultMessage | ErrorMessage): boolean {
    const p = this.pending.get(message.id);
    if (!p) return false;
    this.pending.delete(message.id);
    clearTimeout(p.timer);
    if (message.type === 'result') p.resolve(message.result);
    else p.reject(new RpcError(message.error.code, message.error.message));
    return true;
  }

  /** Fails every outstanding call, e.g. when the other process exits. */
  rejectAll(code: WireErrorCode, message: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new RpcError(code, `'${p.method}' failed: ${message}`));
      this.pending.delete(id);
    }
  }
}

/** The answer to a call, success or failure, ready to send. */
export function answerOf(id: number, outcome: { ok: true; result: unknown } | { ok: false; error: unknown }): ResultMessage | ErrorMessage {
  if (outcome.ok) return { type: 'result', id, result: outcome.result === undefined ? null : outcome.result };
  const err = outcome.error;
  const code =
    err instanceof RpcError ? err.code : typeof (err as { code?: unknown })?.code === 'string' ? String((err as { code: string }).code) : 'app_error';
  const message = err instanceof Error ? err.message : String(err);
  return { type: 'error', id, error: { code: code.slice(0, 64), message: message.slice(0, 4096) } };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
/** A message id: a safe integer, 0 or more (protocol.ts's `Id`). */
export const isId = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;

/**
 * The child's check of a message from the hub: the envelope fields it reads have the right
 * types. (The hub already checked the whole message against protocol.ts before sending it.)
 */
export function isHubMessage(m: unknown): m is HubMessage {
  if (!isObject(m)) return false;
  switch (m.type) {
    case 'call':
      return isId(m.id) && typeof m.method === 'string' && isObject(m.args);
    case 'result':
      return isId(m.id) && 'result' in m;
    case 'error':
      return isId(m.id) && isObject(m.error) && typeof m.error.code === 'string' && typeof m.error.message === 'string';
    case 'event':
      return isObject(m.event) && typeof m.event.name === 'string';
    default:
      return false;
  }
}
