/**
 * One-time sign-in codes: `hearth login` (or a signed-in browser, for a phone's QR code) asks for
 * one with the scopes the new session gets; a browser opening `/#login=<code>` trades it for a
 * session token once. Codes live in memory only (a hub restart voids them), are kept as hashes,
 * expire after at most ten minutes, and a used or expired code is remembered until it would have
 * expired so the browser can be told which it was.
 */
import { hash, randomBytes } from 'node:crypto';
import type { GrantedScope } from '../../core/scopes.js';
import { MAX_LOGIN_TTL_S } from './contract.js';

/** Codes waiting at once; a runaway script cannot grow the hub's memory past this. */
const MAX_PENDING = 100;

interface Pending {
  readonly scopes: readonly GrantedScope[];
  /** The person the session will belong to (a link the people page made), or null. */
  readonly userId: string | null;
  readonly expiresAt: number;
  used: boolean;
}

export type Redeemed = { ok: true; scopes: readonly GrantedScope[]; userId: string | null } | { ok: false; reason: 'unknown' | 'used' | 'expired' };

const digest = (code: string): string => hash('sha256', code, 'hex');

export class LoginCodes {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new code for a session with `scopes` (`userId`'s when given), valid for `ttlSeconds`. */
  issue(scopes: readonly GrantedScope[], ttlSeconds: number, userId: string | null = null): { code: string; expiresAt: string } {
    this.sweep();
    if (this.pending.size >= MAX_PENDING) {
      // The oldest goes: a person asking for a new link wants that one to work.
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined) this.pending.delete(oldest);
    }
    // 192 bits: guessing one within ten minutes is not a thing, so no attempt counting is needed.
    const code = randomBytes(24).toString('base64url');
    const expiresAt = this.now() + Math.min(ttlSeconds, MAX_LOGIN_TTL_S) * 1000;
    this.pending.set(digest(code), { scopes: [...scopes], userId, expiresAt, used: false });
    return { code, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Trades a code for its scopes, once. */
  redeem(code: string): Redeemed {
    const entry = this.pending.get(digest(code));
    if (!entry) return { ok: false, reason: 'unknown' };
    if (entry.used) return { ok: false, reason: 'used' };
    if (entry.expiresAt <= this.now()) return { ok: false, reason: 'expired' };
    entry.used = true;
    return { ok: true, scopes: entry.scopes, userId: entry.userId };
  }

  /** Forgets codes past their expiry (used or not): after that "unknown" is as good an answer. */
  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.pending) if (entry.expiresAt <= now) this.pending.delete(key);
  }
}
