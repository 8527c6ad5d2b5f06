/**
 * The tokens contract (`/api/manager/tokens`, the hub's own, not in the Web API's
 * specification): tokens with chosen scopes, and one-time sign-in links. `POST /login` (a token
 * with SYSTEM: `hearth login` on the device, or a signed-in browser showing a QR code) makes a
 * code for a session with chosen scopes; `POST /login/redeem` (no token: the browser has none
 * yet) trades the code, once and within its time, for a session token named after the browser.
 */
import { z } from 'zod';
import { defineContract, lazy, op } from '../../core/contract.js';
import { SCOPES } from '../../core/scopes.js';
import { LoginCode, TokenInfo } from './views.js';

/** The longest a sign-in link lives. */
export const MAX_LOGIN_TTL_S = 600;

const CreateToken = lazy(() =>
  z.strictObject({
    name: z.string().trim().min(1).max(100),
    scopes: z
      .array(z.enum([...SCOPES, '*'], { error: `each scope must be one of: ${SCOPES.join(', ')}, or *` }))
      .min(1)
      .max(SCOPES.length + 1),
  }),
);

const CreateLogin = lazy(() =>
  z.strictObject({
    scopes: z
      .array(z.enum(SCOPES, { error: `each scope must be one of: ${SCOPES.join(', ')}` }))
      .min(1, { error: 'choose at least one scope for the session' })
      .max(SCOPES.length),
    ttlSeconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_LOGIN_TTL_S, { error: `a sign-in link is valid for at most ${MAX_LOGIN_TTL_S} seconds` })
      .default(MAX_LOGIN_TTL_S),
  }),
);

const Redeem = lazy(() =>
  z.strictObject({
    code: z.string().min(1).max(200),
    /** What the browser calls itself ("Chrome on Android"): the session's name in the token list. */
    browser: z.string().trim().min(1).max(80),
  }),
);

const NewToken = lazy(() => TokenInfo().extend({ token: z.string() }));

export const tokensContract = defineContract({
  name: 'tokens',
  eventScope: null,
  operations: {
    createToken: op(
      {
        method: 'POST',
        path: '/token',
        scope: 'SYSTEM',
        extension: true,
        summary: 'Create a token; its secret is in this answer only',
        status: 201,
      },
      () => ({
        body: CreateToken(),
        output: NewToken(),
      }),
    ),
    getTokens: op(
      {
        method: 'GET',
        path: '/token',
        scope: 'SYSTEM',
        extension: true,
        summary: 'Every token, keyed by id, without secrets',
      },
      () => ({
        output: z.record(z.string(), TokenInfo()),
      }),
    ),
    deleteToken: op(
      {
        method: 'DELETE',
        path: '/token/:id',
        scope: 'SYSTEM',
        extension: true,
        summary: 'Revoke a token at once',
        status: 204,
      },
      () => ({
        params: z.object({ id: z.string() }),
      }),
    ),
    createLogin: op(
      {
        method: 'POST',
        path: '/login',
        scope: 'SYSTEM',
        extension: true,
        summary: 'Make a one-time sign-in code (open <hub>/#login=<code> in a browser) for a session with these scopes',
        status: 201,
      },
      () => ({
        body: CreateLogin(),
        output: LoginCode(),
      }),
    ),
    redeemLogin: op(
      {
        method: 'POST',
        path: '/login/redeem',
        scope: null,
        auth: 'none',
        extension: true,
        summary: 'Trade a one-time sign-in code for a session token (once, within its time); needs no token',
        status: 201,
      },
      () => ({
        body: Redeem(),
        output: NewToken(),
      }),
    ),
  },
});
