/**
 * Authentication of a request: `Authorization: Bearer <token>` or, for browsers opening a
 * WebSocket, `?token=`. Failed attempts with a presented token are counted per remote address
 * and, past the limit, further unknown tokens from that address are refused with 429, so tokens
 * cannot be guessed from the LAN. Valid tokens are never refused by the limit.
 */
import type { Context } from 'hono';
import { HearthError } from '../core/errors.js';
import type { TokenInfo, TokenService } from '../core/tokens.js';

const WINDOW_MS = 60_000;
/** Addresses tracked at once (about 1 MB); beyond it the oldest windows are forgotten. */
const MAX_WINDOWS = 10_000;

interface Window {
  failures: number;
  resetAt: number;
}

export class Authenticator {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly tokens: TokenService,
    private readonly failureLimit: number,
  ) {}

  /** The caller's token, or a 401/429 HearthError. */
  authenticate(c: Context, allowQueryToken: boolean): TokenInfo {
    const secret = presentedToken(c, allowQueryToken);
    if (secret === undefined) {
      throw new HearthError('unauthorized', 'this operation needs a token: send "Authorization: Bearer <token>"', {
        'WWW-Authenticate': 'Bearer',
      });
    }
    return this.authenticateSecret(secret, remoteAddress(c));
  }

  /**
   * The token of `secret` presented from `address` (a request's, or a realtime handshake's), or
   * a 401/429 HearthError: failures count towards the address's limit either way.
   */
  authenticateSecret(secret: string, address: string): TokenInfo {
    // A valid token always authenticates, whatever its address did before: the limit exists to
    // stop guessing, and locking out by address would let one local script (or an app) lock
    // out every client behind 127.0.0.1: the CLI, the web app through a reverse proxy. Letting a
    // valid token through during a lockout tells a guesser nothing it can use: tokens carry 256
    // random bits, so the limit only has to make guessing slow, not reveal nothing.
    const token = this.tokens.verify(secret);
    if (token) return token;
    // A real token of a person turned off: not a guess, so not counted; they are told why.
    const person = this.tokens.turnedOffPerson(secret);
    if (person !== null)
      throw new HearthError('unauthorized', `this sign-in is ${person}'s, who is turned off in this home: the owner can turn them on again`, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    const now = Date.now();
    const window = this.windows.get(address);
    if (window && window.resetAt > now && window.failures >= this.failureLimit) {
      const retry = Math.ceil((window.resetAt - now) / 1000);
      throw new HearthError('rate_limited', `too many failed authentications from ${address}; try again in ${retry} s`, {
        'Retry-After': String(retry),
      });
    }
    this.recordFailure(address, now);
    throw new HearthError('unauthorized', 'the token is unknown or has been revoked', { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  }

  private recordFailure(address: string, now: number): void {
    const window = this.windows.get(address);
    if (!window || window.resetAt <= now) {
      if (this.windows.size >= MAX_WINDOWS) this.prune(now);
      this.windows.delete(address); // re-inserted last: the map's order is the age of its windows
      this.windows.set(address, { failures: 1, resetAt: now + WINDOW_MS });
    } else {
      window.failures++;
    }
  }

  /** Drops ended windows, then the oldest ones, so the map stays bounded under a flood of addresses. */
  private prune(now: number): void {
    for (const [address, w] of this.windows) if (w.resetAt <= now) this.windows.delete(address);
    for (const address of this.windows.keys()) {
      if (this.windows.size < MAX_WINDOWS) break;
      this.windows.delete(address);
    }
  }
}

function presentedToken(c: Context, allowQueryToken: boolean): string | undefined {
  // Straight from Node's IncomingMessage when there is one (the hub's own requests to itself
  // have none): the cheapest read of the one header every request needs.
  const incoming = (c.env as NodeEnv | undefined)?.incoming;
  const header = incoming?.headers ? incoming.headers.authorization : c.req.header('authorization');
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1] ?? '';
  }
  if (allowQueryToken) return c.req.query('token');
  return undefined;
}

interface NodeEnv {
  incoming?: { socket?: { remoteAddress?: string }; headers?: { authorization?: string } };
}

export function remoteAddress(c: Context): string {
  return (c.env as NodeEnv | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown';
}
