/** The home's flow cards by kind, as the flows list and the editor read them: one call a kind. */
import type { CardView } from '../managers/flow/views.js';
import { call } from './client.js';

export type FlowCards = Record<'trigger' | 'condition' | 'action', Record<string, CardView>>;

export async function loadFlowCards(): Promise<FlowCards> {
  const [trigger, condition, action] = await Promise.all([
    call('flow', 'getFlowCardTriggers'),
    call('flow', 'getFlowCardConditions'),
    call('flow', 'getFlowCardActions'),
  ]);
  return { trigger, condition, action };
}
