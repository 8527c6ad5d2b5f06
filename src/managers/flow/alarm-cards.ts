/**
 * The alarms' cards (`homey:manager:alarms:*`): "An alarm goes off" and "A chosen alarm goes
 * off", each with the alarm's name as the token `name`.
 */
import type { Arg } from '../../apps/manifest/flow-cards.js';
import type { AlarmsService } from '../alarms/service.js';
import { type HubCard, hubArg, hubCard, idOf } from './hub-card.js';

const OWNER = { uri: 'homey:manager:alarms', id: 'alarms', name: 'Alarms' };
const NAME = [{ name: 'name', type: 'string' as const, title: 'Alarm', example: 'Wake up' }];
export function alarmCards(alarms: AlarmsService): HubCard[] {
  const chosen: Arg = hubArg('alarm', 'autocomplete', 'Alarm');
  return [
    hubCard(OWNER, { cardId: 'alarm_goes_off', kind: 'trigger', title: 'An alarm goes off', tokens: NAME }, {}),
    hubCard(
      OWNER,
      {
        cardId: 'alarm_goes_off_specific',
        kind: 'trigger',
        title: 'A chosen alarm goes off',
        titleFormatted: '[[alarm]] goes off',
        args: [chosen],
        tokens: NAME,
      },
      {
        filter: (args, state) => idOf(args.alarm) === state.alarm,
        autocomplete: (_name, query) =>
          Object.values(alarms.list())
            .filter((a) => a.name.toLowerCase().includes(query.toLowerCase()))
            .map((a) => ({ id: a.id, name: a.name, description: a.time })),
        broken: (args) => {
          const id = idOf(args.alarm);
          return id && !Object.hasOwn(alarms.list(), id) ? 'the alarm it names was deleted' : null;
        },
      },
    ),
  ];
}
