/**
 * The flowtoken handlers: the global tokens apps make and the logic variables, read by id or by
 * owner and id.
 */
import { implement, type Operation } from '../../core/operation.js';
import { flowtokenContract } from './contract.js';
import type { FlowTokens } from './registry.js';

export function flowtokenOperations(tokens: FlowTokens): Operation[] {
  return implement(flowtokenContract.operations, {
    getState: () => ({ tokens: Object.keys(tokens.list()).length }),
    getFlowTokens: () => tokens.list(),
    getFlowTokenValue: ({ params }) => tokens.get(params.id).value,
    getFlowToken: ({ params }) => tokens.get(params.id),
    getFlowTokenOfOwner: ({ params }) => tokens.get(`${params.uri}:${params.id}`),
  });
}
