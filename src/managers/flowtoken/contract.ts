/**
 * The flowtoken contract (Homey's flow token manager): the global tokens flows can use in their
 * cards' arguments. Apps make them (`homey.flow.createToken`) and set their values; each logic
 * variable is one too (owner `homey:manager:logic`). A token is named `<ownerUri>:<id>`, and in
 * an argument's text `[[<ownerUri>|<id>]]`.
 */
import { z } from 'zod';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';

export const TokenValue = lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type TokenValue = z.infer<ReturnType<typeof TokenValue>>;

export const FlowTokenView = lazy(() =>
  z.object({
    /** The token's own id; with `uri` it makes the id clients know it by (`<uri>:<id>`). */
    id: z.string(),
    uri: z.string(),
    ownerUri: z.string(),
    ownerId: z.string(),
    ownerName: z.string(),
    type: z.enum(['string', 'number', 'boolean', 'image']),
    title: z.string(),
    example: z.string().nullable(),
    value: TokenValue(),
  }),
);
export type FlowTokenView = z.infer<ReturnType<typeof FlowTokenView>>;

const FullId = lazy(() => z.object({ id: z.string().min(1).max(300) }));

export const flowtokenContract = defineContract({
  name: 'flowtoken',
  eventScope: 'service.flow.readonly',
  events: lazy(() => resourceEvents('flowtoken', FlowTokenView())),
  operations: {
    getState: stateOperation({ summary: 'How many global tokens there are', output: () => z.object({ tokens: z.number().int() }) }),
    getFlowTokens: op(
      {
        method: 'GET',
        path: '/flowtoken',
        scope: 'service.flow.readonly',
        summary: 'Every global token by `<ownerUri>:<id>`, with its value',
      },
      () => ({
        output: z.record(z.string(), FlowTokenView()),
      }),
    ),
    // Before the V2 path below: both have two segments, and `value` is this one's.
    getFlowTokenValue: op(
      {
        method: 'GET',
        path: '/flowtoken/:id/value',
        scope: 'service.flow.readonly',
        summary: "A token's value (`<ownerUri>:<id>`)",
      },
      () => ({
        params: FullId(),
        output: TokenValue(),
      }),
    ),
    getFlowToken: op(
      {
        method: 'GET',
        path: '/flowtoken/:id',
        scope: 'service.flow.readonly',
        summary: 'One token (`<ownerUri>:<id>`)',
      },
      () => ({
        params: FullId(),
        output: FlowTokenView(),
      }),
    ),
    getFlowTokenOfOwner: op(
      {
        method: 'GET',
        path: '/flowtoken/:uri/:id',
        scope: 'service.flow.readonly',
        extension: true,
        summary: "One token by its owner's uri and its own id (Homey's client V2 asks so)",
      },
      () => ({
        params: z.object({ uri: z.string().min(1).max(200), id: z.string().min(1).max(128) }),
        output: FlowTokenView(),
      }),
    ),
  },
});
