/**
 * The energy cards (`homey:manager:energy:*`): "The home uses more than [[watts]] W" (when its
 * power goes from at most to above the flow's watts) and "Today's use goes over [[kwh]] kWh"
 * (once a day, when the day's kWh pass the flow's). The power is the home's: its meter's view
 * with what it makes when it has a meter, else what its devices draw (energy/home-power.ts).
 */
import type { Arg } from '../../apps/manifest/flow-cards.js';
import { type HubCard, hubArg, hubCard } from './hub-card.js';

const OWNER = { uri: 'homey:manager:energy', id: 'energy', name: 'Energy' };
const num = (v: unknown): number => (typeof v === 'number' ? v : Number.NaN);

/** Whether a value going from `before` to `now` crossed `limit` upwards. */
export const crossedUp = (state: Record<string, unknown>, limit: unknown): boolean => num(state.before) <= num(limit) && num(state.now) > num(limit);

/** A trigger fired with `{before, now}` whose flows go on when the value crossed their argument upwards. */
function crossing(cardId: string, title: [string, string], arg: Arg, token: { name: string; title: string; example: string }): HubCard {
  return hubCard(
    OWNER,
    { cardId, kind: 'trigger', title: title[0], titleFormatted: title[1], args: [arg], tokens: [{ ...token, type: 'number' }] },
    { filter: (args, state) => crossedUp(state, args[arg.name]) },
  );
}

export function energyCards(): HubCard[] {
  return [
    crossing(
      'power_above',
      ['The home uses more than … W', 'The home uses more than [[watts]] W'],
      hubArg('watts', 'number', 'Watts', { min: 0, max: 100_000, step: 1 }),
      { name: 'power', title: 'Power (W)', example: '2400' },
    ),
    crossing(
      'daily_above',
      ["Today's use goes over … kWh", "Today's use goes over [[kwh]] kWh"],
      hubArg('kwh', 'number', 'kWh', { min: 0, max: 10_000, step: 0.1 }),
      { name: 'kwh', title: 'Used today (kWh)', example: '12.5' },
    ),
  ];
}
