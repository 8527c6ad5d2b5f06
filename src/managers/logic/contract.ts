/**
 * The logic contract (Homey's logic manager): the home's variables, each a string, number or
 * boolean with a value of its type. Flows read them as tokens and set them with cards.
 */
import { z } from 'zod';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';

export const VARIABLE_TYPES = ['string', 'number', 'boolean'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];
export const VariableValue = lazy(() => z.union([z.string().max(10_000), z.number().finite(), z.boolean()]));
export type VariableValue = z.infer<ReturnType<typeof VariableValue>>;

export const VariableView = lazy(() => z.object({ id: z.string(), name: z.string(), type: z.enum(VARIABLE_TYPES), value: VariableValue() }));
export type VariableView = z.infer<ReturnType<typeof VariableView>>;

const Id = lazy(() => z.object({ id: z.string().min(1).max(64) }));
const Name = lazy(() => z.string().trim().min(1, 'a variable needs a name').max(100));

export const logicContract = defineContract({
  name: 'logic',
  eventScope: 'service.logic.readonly',
  events: lazy(() => resourceEvents('variable', VariableView())),
  operations: {
    getState: stateOperation({ summary: 'How many variables there are', output: () => z.object({ variables: z.number().int() }) }),
    getVariables: op(
      {
        method: 'GET',
        path: '/variable',
        scope: 'service.logic.readonly',
        summary: 'Every variable by id',
      },
      () => ({
        output: z.record(z.string(), VariableView()),
      }),
    ),
    getVariable: op({ method: 'GET', path: '/variable/:id', scope: 'service.logic.readonly', summary: 'One variable' }, () => ({
      params: Id(),
      output: VariableView(),
    })),
    createVariable: op(
      {
        method: 'POST',
        path: '/variable',
        scope: 'service.logic',
        summary: 'Create a variable `{name, type, value}` (type string, number or boolean; the value of that type)',
        bodyRoot: 'variable',
        status: 201,
      },
      () => ({
        body: z.object({ name: Name(), type: z.enum(VARIABLE_TYPES), value: VariableValue() }),
        output: VariableView(),
      }),
    ),
    updateVariable: op(
      {
        method: 'PUT',
        path: '/variable/:id',
        scope: 'service.logic',
        summary: 'Rename a variable or set its value (of its type)',
        bodyRoot: 'variable',
      },
      () => ({
        params: Id(),
        body: z.object({ name: Name().optional(), value: VariableValue().optional() }),
        output: VariableView(),
      }),
    ),
    deleteVariable: op({ method: 'DELETE', path: '/variable/:id', scope: 'service.logic', summary: 'Delete a variable', status: 204 }, () => ({
      params: Id(),
    })),
  },
});
