/**
 * The token API (`/api/manager/tokens`): create tokens with chosen scopes, list them (never their
 * secrets), revoke them, and one-time sign-in links. Not in the Web API's specification: the
 * hub's own.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { TokenService } from '../../core/tokens.js';
import { tokensContract } from './contract.js';
import type { LoginCodes } from './login-codes.js';
import { tokensOperations } from './operations.js';

export class TokensManager implements Manager {
  readonly name = tokensContract.name;
  readonly contract = tokensContract;
  readonly operations: readonly Operation[];

  constructor(tokens: TokenService, codes: LoginCodes) {
    this.operations = tokensOperations(tokens, codes);
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
