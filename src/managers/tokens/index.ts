/**
 * The token API (`/api/manager/tokens`): create tokens with chosen scopes, list them (never their
 * secrets), revoke them, and one-time sign-in links (login.ts). Not in the Web API's
 * specification: the hub's own.
 */
import { z } from 'zod';
import { HearthError, notFound } from '../../core/errors.js';
import { defineOperation, type Operation } from '../../core/operation.js';
import type { Manager } from '../../core/managers.js';
import { SCOPES, type GrantedScope } from '../../core/scopes.js';
import type { TokenService } from '../../core/tokens.js';
import { beyondHeld, loginOperations } from './login.js';
import { TokenInfo } from './views.js';


const CreateToken = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scopes: z
    .array(z.enum([...SCOPES, '*'], { error: `each scope must be one of: ${SCOPES.join(', ')}, or *` }))
    .min(1)
    .max(SCOPES.length + 1),
});

export class TokensManager implements Manager {
  readonly name = 'tokens';
  readonly eventScope = null;
  readonly operations: readonly Operation[];

  constructor(tokens: TokenService) {
    this.operations = [
      defineOperation({
        id: 'createToken',
        method: 'POST',
        path: '/token',
        scope: 'SYSTEM',
        extension: true,
        summary: 'Create a token; its secret is in this answer only',
        body: CreateToken,
        status: 201,
        output: TokenInfo.extend({ token: z.string() }),
        handler: async ({ body }, ctx) => {
          const beyond = beyondHeld(ctx.token?.scopes ?? [], body.scopes);
          if (beyond.length > 0) {
            throw new HearthError('missing_scope', `a token cannot grant scopes it does not hold: ${beyond.join(', ')}`);
          }
          return tokens.create(body.name, [...new Set<GrantedScope>(body.scopes)]);
        },
      }),
      defineOperation({
        id: 'getTokens',
        method: 'GET',
        path: '/token',
        scope: 'SYSTEM',
        extension: true,
        summary: 'Every token, keyed by id, without secrets',
        output: z.record(z.string(), TokenInfo),
        handler: () => Object.fromEntries(tokens.list().map((t) => [t.id, t])),
      }),
      defineOperation({
        id: 'deleteToken',
        method: 'DELETE',
        path: '/token/:id',
        scope: 'SYSTEM',
        extension: true,
        summary: 'Revoke a token at once',
        params: z.object({ id: z.string() }),
        status: 204,
        handler: async ({ params }) => {
          const token = tokens.list().find((t) => t.id === params.id);
          if (!token) throw notFound(`token '${params.id}' does not exist`);
          if (token.owner) {
            throw new HearthError('conflict', 'the owner token cannot be revoked; to replace it, stop the hub, delete <data-dir>/owner-token and start it again');
          }
          await tokens.revoke(params.id);
        },
      }),
      ...loginOperations(tokens),
    ];
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
