/**
 * The users handler: who the caller is. Until hearth has people, a token is its user: its id
 * (a uuid made from the hub and the token, so it is the same at every call and differs per hub),
 * its name, and a role from its rights.
 */
import { createHash } from 'node:crypto';
import { implement, type Operation } from '../../core/operation.js';
import type { TokenInfo } from '../../core/tokens.js';
import { type UserView, usersContract } from './contract.js';

/** A uuid (version 8: made from a hash) for `token` on hub `hubId`. */
function userId(hubId: string, token: TokenInfo): string {
  const h = createHash('sha256').update(`hearth-user\0${hubId}\0${token.id}`).digest('hex');
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function userOf(hubId: string, token: TokenInfo): UserView {
  const role = token.owner ? 'owner' : token.scopes.includes('*') || token.scopes.includes('service.system') ? 'manager' : 'user';
  return {
    id: userId(hubId, token),
    name: token.owner ? 'Owner' : token.name,
    role,
    properties: {},
    athomId: null,
    enabled: true,
    enabledUntil: null,
    present: null,
    asleep: null,
    avatar: null,
    verified: true,
    inviteUrl: null,
    localUsername: null,
  };
}

export function usersOperations(hubId: string): Operation[] {
  return implement(usersContract.operations, {
    getUserMe: (_input, request) => {
      // An operation with a scope is never called without a token.
      if (!request.token) throw new Error('getUserMe was called without a token');
      return userOf(hubId, request.token);
    },
  });
}
