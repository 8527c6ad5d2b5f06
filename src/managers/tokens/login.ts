/**
 * Sign-in by one-time link: `POST /login` (a token with SYSTEM, e.g. `hearth login` on the
 * device with the owner token, or a signed-in browser showing a QR code) makes a code for a
 * session with chosen scopes; `POST /login/redeem` (no token: the browser has none yet) trades
 * the code, once and within its time, for a session token named after the browser.
 */
import { z } from 'zod';
import { HearthError } from '../../core/errors.js';
import { LoginCodes, MAX_LOGIN_TTL_S } from '../../core/login-codes.js';
import { defineOperation, type Operation } from '../../core/operation.js';
import { SCOPES, grants, type GrantedScope } from '../../core/scopes.js';
import type { TokenService } from '../../core/tokens.js';
import { LoginCode, TokenInfo } from './views.js';

const scopeList = z
  .array(z.enum(SCOPES, { error: `each scope must be one of: ${SCOPES.join(', ')}` }))
  .min(1, { error: 'choose at least one scope for the session' })
  .max(SCOPES.length);

const CreateLogin = z.strictObject({
  scopes: scopeList,
  ttlSeconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_LOGIN_TTL_S, { error: `a sign-in link is valid for at most ${MAX_LOGIN_TTL_S} seconds` })
    .default(MAX_LOGIN_TTL_S),
});

const Redeem = z.strictObject({
  code: z.string().min(1).max(200),
  /** What the browser calls itself ("Chrome on Android"): the session's name in the token list. */
  browser: z.string().trim().min(1).max(80),
});

const REFUSED: Record<'unknown' | 'used' | 'expired', string> = {
  unknown: 'this sign-in link is not one the hub knows (links end when the hub restarts); ask for a new one with hearth login',
  used: 'this sign-in link was already used: each works once; ask for a new one with hearth login',
  expired: 'this sign-in link has expired (they last 10 minutes); ask for a new one with hearth login',
};

/** Scopes the caller may hand on: those it holds (a token cannot grant beyond itself). */
export function beyondHeld(held: readonly GrantedScope[], wanted: readonly GrantedScope[]): GrantedScope[] {
  return wanted.filter((s) => (s === '*' ? !held.includes('*') : !grants(held, s)));
}

export function loginOperations(tokens: TokenService, codes = new LoginCodes()): Operation[] {
  return [
    defineOperation({
      id: 'createLogin',
      method: 'POST',
      path: '/login',
      scope: 'SYSTEM',
      extension: true,
      summary: 'Make a one-time sign-in code (open <hub>/#login=<code> in a browser) for a session with these scopes',
      body: CreateLogin,
      status: 201,
      output: LoginCode,
      handler: ({ body }, ctx) => {
        const beyond = beyondHeld(ctx.token?.scopes ?? [], body.scopes);
        if (beyond.length > 0) throw new HearthError('missing_scope', `a token cannot grant scopes it does not hold: ${beyond.join(', ')}`);
        const scopes = [...new Set(body.scopes)];
        return { ...codes.issue(scopes, body.ttlSeconds), scopes };
      },
    }),
    defineOperation({
      id: 'redeemLogin',
      method: 'POST',
      path: '/login/redeem',
      scope: null,
      auth: 'none',
      extension: true,
      summary: 'Trade a one-time sign-in code for a session token (once, within its time); needs no token',
      body: Redeem,
      status: 201,
      output: TokenInfo.extend({ token: z.string() }),
      handler: async ({ body }) => {
        const r = codes.redeem(body.code);
        if (!r.ok) throw new HearthError('unauthorized', REFUSED[r.reason]);
        return tokens.create(`${body.browser} (signed in by link)`, [...r.scopes], true);
      },
    }),
  ];
}
