/**
 * The tokens handlers: each operation of the contract (contract.ts). A token hands on only the
 * scopes it holds; the owner token cannot be revoked; a sign-in code works once, in its time.
 */
import { HearthError, notFound } from '../../core/errors.js';
import { implement, type Operation } from '../../core/operation.js';
import { type GrantedScope, grants } from '../../core/scopes.js';
import type { TokenService } from '../../core/tokens.js';
import { tokensContract } from './contract.js';
import { LoginCodes } from './login-codes.js';

const REFUSED: Record<'unknown' | 'used' | 'expired', string> = {
  unknown: 'this sign-in link is not one the hub knows (links end when the hub restarts); ask for a new one with hearth login',
  used: 'this sign-in link was already used: each works once; ask for a new one with hearth login',
  expired: 'this sign-in link has expired (they last 10 minutes); ask for a new one with hearth login',
};

/** Refuses scopes the caller may not hand on: those it does not hold (a token cannot grant beyond itself). */
function mustHold(held: readonly GrantedScope[], wanted: readonly GrantedScope[]): void {
  const beyond = wanted.filter((s) => (s === '*' ? !held.includes('*') : !grants(held, s)));
  if (beyond.length > 0) throw new HearthError('missing_scope', `a token cannot grant scopes it does not hold: ${beyond.join(', ')}`);
}

/** A token as the API shows it: who acts with it is the hub's own business (events name them). */
const view = <T extends { actor: unknown }>({ actor: _actor, ...t }: T): Omit<T, 'actor'> => t;

export function tokensOperations(tokens: TokenService, codes = new LoginCodes()): Operation[] {
  return implement(tokensContract.operations, {
    createToken: async ({ body }, ctx) => {
      mustHold(ctx.token?.scopes ?? [], body.scopes);
      return view(await tokens.create(body.name, [...new Set<GrantedScope>(body.scopes)]));
    },
    getTokens: () => Object.fromEntries(tokens.list().map((t) => [t.id, view(t)])),
    deleteToken: async ({ params }) => {
      const token = tokens.list().find((t) => t.id === params.id);
      if (!token) throw notFound(`token '${params.id}' does not exist`);
      if (token.owner) {
        throw new HearthError('conflict', 'the owner token cannot be revoked; to replace it, stop the hub, delete <data-dir>/owner-token and start it again');
      }
      await tokens.revoke(params.id);
    },
    createLogin: ({ body }, ctx) => {
      mustHold(ctx.token?.scopes ?? [], body.scopes);
      const scopes = [...new Set(body.scopes)];
      return { ...codes.issue(scopes, body.ttlSeconds), scopes };
    },
    redeemLogin: async ({ body }) => {
      const r = codes.redeem(body.code);
      if (!r.ok) throw new HearthError('unauthorized', REFUSED[r.reason]);
      return view(await tokens.create(`${body.browser} (signed in by link)`, [...r.scopes], true, r.userId ?? undefined));
    },
  });
}
