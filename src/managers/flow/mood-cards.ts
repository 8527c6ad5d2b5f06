/**
 * The moods' card (`homey:manager:moods:set_mood`): "Set a mood", run in the hub. It fails with
 * the names of the devices that did not follow (the others did), so a flow's log says which.
 */
import type { Actor } from '../../core/actor.js';
import type { MoodsService } from '../moods/service.js';
import { type HubCard, hubArg, hubCard, idOf } from './hub-card.js';

export function moodCards(moods: MoodsService, actorOf: (runId: string) => Actor | null): HubCard[] {
  const mood = (args: Record<string, unknown>): string => {
    const id = idOf(args.mood);
    if (!id || !Object.hasOwn(moods.list(), id)) throw new Error('the mood it sets was deleted');
    return id;
  };
  return [
    hubCard(
      { uri: 'homey:manager:moods', id: 'moods', name: 'Moods' },
      { cardId: 'set_mood', kind: 'action', title: 'Set a mood', titleFormatted: 'Set the mood [[mood]]', args: [hubArg('mood', 'autocomplete', 'Mood')] },
      {
        run: async (args, runId) => {
          const result = await moods.apply(mood(args), actorOf(runId));
          if (result.failed.length > 0) throw new Error(`did not follow: ${result.failed.map((f) => `${f.name} (${f.reason})`).join('; ')}`);
        },
        autocomplete: (_name, query) =>
          Object.values(moods.list())
            .filter((m) => m.name.toLowerCase().includes(query.toLowerCase()))
            .map((m) => ({ id: m.id, name: m.name })),
        broken: (args) => {
          const id = idOf(args.mood);
          return id && !Object.hasOwn(moods.list(), id) ? 'the mood it sets was deleted' : null;
        },
      },
    ),
  ];
}
