/**
 * The energy cards (`homey:manager:energy:*`): "The home uses more than [[watts]] W" (when its
 * power goes from at most to above the flow's watts) and "Today's use goes over [[kwh]] kWh"
 * (once a day, when the day's kWh pass the flow's). The power is the home's: its meter's view
 * with what it makes when it has a meter, else what its devices draw (energy/service.ts).
 */
import { type HubCard, hubArg, hubCard } from './hub-card.js';

const OWNER = { uri: 'homey:manager:energy', id: 'energy', name: 'Energy' };
const num = (v: unknown): number => (typeof v === 'number' ? v : Number.NaN);

/** Whether a value going from `before` to `now` crossed `limit` upwards. */
export const crossedUp = (state: Record<string, unknown>, limit: unknown): boolean => num(state.before) <= num(limit) && num(state.now) > num(limit);

export function energyCards(): HubCard[] {
  return [
    hubCard(
      OWNER,
      {
        cardId: 'power_above',
        kind: 'trigger',
        title: 'The home uses more than … W',
        titleFormatted: 'The home uses more than [[watts]] W',
        args: [hubArg('watts', 'number', 'Watts', { min: 0, max: 100_000, step: 1 })],
        tokens: [{ name: 'power', type: 'number', title: 'Power (W)', example: '2400' }],
      },
      { filter: (args, state) => crossedUp(state, args.watts) },
    ),
    hubCard(
      OWNER,
      {
        cardId: 'daily_above',
        kind: 'trigger',
        title: "Today's use goes over … kWh",
        titleFormatted: "Today's use goes over [[kwh]] kWh",
        args: [hubArg('kwh', 'number', 'kWh', { min: 0, max: 10_000, step: 0.1 })],
        tokens: [{ name: 'kwh', type: 'number', title: 'Used today (kWh)', example: '12.5' }],
      },
      { filter: (args, state) => crossedUp(state, args.kwh) },
    ),
  ];
}
