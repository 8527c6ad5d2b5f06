/**
 * Presence's cards (`homey:manager:presence:*`), run in the hub: someone came home or left, the
 * first came home or the last left, a chosen person came home or left, someone went to sleep or
 * woke up, everybody (at home) is asleep; whether a person, someone or nobody is home, whether a
 * person is asleep; set a person home or away, asleep or awake. Each trigger carries who as its
 * `name` token. `presenceTriggers` says which triggers a change fires.
 */
import type { Arg } from '../../apps/manifest/flow-cards.js';
import type { PeopleService, PersonRecord } from '../../core/people.js';
import type { PresenceChange, PresenceService } from '../presence/service.js';
import { type HubCard, hubArg, hubCard, idOf } from './hub-card.js';

const OWNER = { uri: 'homey:manager:presence', id: 'presence', name: 'Presence' };
const WHO = [{ name: 'name', type: 'string' as const, title: 'Who', example: 'Anna' }];
const person = () => hubArg('user', 'autocomplete', 'Person');

export interface PresenceSide {
  readonly people: PeopleService;
  readonly presence: PresenceService;
}

/** A trigger a change fires: its card id (without the owner), the state its filter reads, its tokens. */
export interface Fired {
  readonly cardId: string;
  readonly state: Record<string, unknown>;
  readonly tokens: Record<string, string>;
}

/** The triggers one change fires, in the order a person would say them. */
export function presenceTriggers(change: PresenceChange, everyone: readonly PersonRecord[]): Fired[] {
  const { person, key } = change;
  const state = { user: person.id };
  const tokens = { name: person.name };
  const fire = (...ids: string[]): Fired[] => ids.map((cardId) => ({ cardId, state, tokens }));
  const others = everyone.filter((p) => p.id !== person.id && p.enabled);
  if (key === 'present') {
    if (person.present) return fire('user_enter', 'user_enter_specific', ...(others.some((p) => p.present) ? [] : ['first_user_enter']));
    return fire('user_leave', 'user_leave_specific', ...(others.some((p) => p.present) ? [] : ['last_user_leave']));
  }
  if (!person.asleep) return fire('user_wakeup');
  // Everybody asleep: everyone at home is (the one who just fell asleep counts, home or not).
  const home = others.filter((p) => p.present);
  return fire('user_asleep', ...(home.every((p) => p.asleep) ? ['everybody_asleep'] : []));
}

const FORMATTED: Readonly<Record<string, string>> = {
  user_enter_specific: '[[user]] came home',
  user_leave_specific: '[[user]] left',
  user_present: '[[user]] !{{is|is not}} home',
  user_is_asleep: '[[user]] !{{is|is not}} asleep',
  set_present: 'Set [[user]] [[state]]',
  set_asleep: 'Set [[user]] [[state]]',
};

export function presenceCards(d: PresenceSide): HubCard[] {
  const card = (cardId: string, kind: HubCard['kind'], title: string, args: Arg[], system: Parameters<typeof hubCard>[2], tokens = WHO) =>
    hubCard(
      OWNER,
      { cardId, kind, title, args, tokens: kind === 'trigger' ? tokens : [], ...(FORMATTED[cardId] ? { titleFormatted: FORMATTED[cardId] } : {}) },
      system,
    );
  const enabled = () => d.people.list().filter((p) => p.enabled);
  const chosen = (args: Record<string, unknown>): PersonRecord => {
    const id = idOf(args.user);
    const p = id ? d.people.find(id) : undefined;
    if (!p) throw new Error('the person it names was removed from the home');
    return p;
  };
  const people = (_name: string, query: string) =>
    enabled()
      .filter((p) => p.name.toLowerCase().includes(query.toLowerCase()))
      .map((p) => ({ id: p.id, name: p.name }));
  const gone = (args: Record<string, unknown>) => {
    const id = idOf(args.user);
    return id && !d.people.find(id) ? 'the person it names was removed from the home' : null;
  };
  const forChosen = {
    filter: (args: Record<string, unknown>, state: Record<string, unknown>) => idOf(args.user) === state.user,
    autocomplete: people,
    broken: gone,
  };
  const dropdown = (values: string[][]) => hubArg('state', 'dropdown', 'State', { values: values.map(([id, label]) => ({ id: id!, label: label! })) });
  const set = (key: 'present' | 'asleep', yes: string) => ({
    // The run is the change's cause: the flows it triggers run as its children, bounded as any chain.
    run: async (args: Record<string, unknown>, runId: string) => {
      await d.presence.set(chosen(args).id, key, args.state === yes, { cause: runId });
    },
    autocomplete: people,
    broken: gone,
  });
  return [
    card('user_enter', 'trigger', 'Someone came home', [], {}),
    card('user_leave', 'trigger', 'Someone left', [], {}),
    card('first_user_enter', 'trigger', 'The first person came home', [], {}),
    card('last_user_leave', 'trigger', 'The last person left', [], {}),
    card('user_enter_specific', 'trigger', 'A person came home', [person()], forChosen),
    card('user_leave_specific', 'trigger', 'A person left', [person()], forChosen),
    card('user_asleep', 'trigger', 'Someone went to sleep', [], {}),
    card('user_wakeup', 'trigger', 'Someone woke up', [], {}),
    card('everybody_asleep', 'trigger', 'Everybody is asleep', [], {}),
    card('user_present', 'condition', 'A person !{{is|is not}} home', [person()], { run: (args) => chosen(args).present, autocomplete: people, broken: gone }),
    card('someone_present', 'condition', 'Someone !{{is|is not}} home', [], { run: () => enabled().some((p) => p.present) }),
    card('nobody_present', 'condition', 'Everybody !{{is|is not}} away', [], { run: () => !enabled().some((p) => p.present) }),
    card('user_is_asleep', 'condition', 'A person !{{is|is not}} asleep', [person()], {
      run: (args) => chosen(args).asleep,
      autocomplete: people,
      broken: gone,
    }),
    card(
      'set_present',
      'action',
      'Set a person home or away',
      [
        person(),
        dropdown([
          ['home', 'home'],
          ['away', 'away'],
        ]),
      ],
      set('present', 'home'),
    ),
    card(
      'set_asleep',
      'action',
      'Set a person asleep or awake',
      [
        person(),
        dropdown([
          ['asleep', 'asleep'],
          ['awake', 'awake'],
        ]),
      ],
      set('asleep', 'asleep'),
    ),
  ];
}
