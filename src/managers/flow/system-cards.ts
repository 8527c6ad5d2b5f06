/**
 * The hub's own cards, run in the hub: date and time (at a time, every N minutes, at sunrise and
 * sunset from the geolocation manager's location; time between, weekday, the sun is up), logic
 * (a variable changed, compare a variable, set a variable), speech ("say"), notifications ("create a notification":
 * the toast every signed-in browser shows, as an app's) and flows ("this flow is started", "start
 * a flow"). Their ids are Homey's form, owned by the manager that answers for them:
 * `homey:manager:cron:sunset`, `homey:manager:logic:set_variable`, ...
 */
import type { Arg, CardKind, Token } from '../../apps/manifest/flow-cards.js';
import type { WallClock } from '../../core/cron.js';
import { sunTimes } from '../../home/sun.js';
import type { VariableView } from '../logic/contract.js';
import type { LogicService } from '../logic/service.js';
import { type HubCard, hubArg, hubCard, idOf, type SystemImpl } from './hub-card.js';
import type { FlowRecord } from './views.js';

export interface SystemDeps {
  readonly logic: LogicService;
  readonly say: (text: string) => Promise<void>;
  /** Says something on the home's timeline (the notifications manager), as the flows. */
  readonly notify: (text: string) => Promise<void>;
  readonly flows: () => FlowRecord[];
  /**
   * While "set a variable" sets one, the run that sets it, by variable id: the flows its change
   * triggers run as that run's children, so a flow that sets the variable it is triggered by
   * stops at the engine's bound.
   */
  readonly variableCauses: Map<string, string>;
  /** Starts the flows on "this flow is started" for flow `id`, as a run of `cause`. */
  readonly startFlow: (id: string, cause: string) => Promise<void>;
  readonly location: () => { latitude: number; longitude: number } | null;
  readonly clock: WallClock;
  readonly now: () => number;
}

const OWNERS: Record<string, string> = { cron: 'Date & time', logic: 'Logic', 'speech-output': 'Speech', notifications: 'Notifications', flow: 'Flows' };
/** As long as an app's notification may be (the app protocol's notifications.create). */
export const MAX_NOTIFICATION = 1000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const arg = hubArg;

/** The hub's cards as sentences with their arguments in place, as Homey's `titleFormatted` writes an app's (an editor puts each field in its blank). */
const FORMATTED: Readonly<Record<string, string>> = {
  time_exactly: 'At [[time]]',
  every_minutes: 'Every [[minutes]] minutes',
  time_between: 'The time !{{is|is not}} between [[from]] and [[to]]',
  weekday: 'Today !{{is|is not}} [[day]]',
  variable_changed: '[[variable]] changed',
  compare: '[[variable]] is [[operator]] [[value]]',
  set_variable: 'Set [[variable]] to [[value]]',
  say: 'Say [[text]]',
  create_notification: 'Create a notification: [[text]]',
  start_flow: 'Start the flow [[flow]]',
};

function card(
  owner: string,
  cardId: string,
  kind: CardKind,
  title: string,
  args: Arg[],
  system: SystemImpl,
  more: { hint?: string; tokens?: Token[] } = {},
): HubCard {
  const titleFormatted = FORMATTED[cardId];
  return hubCard(
    { uri: `homey:manager:${owner}`, id: owner, name: OWNERS[owner] ?? owner },
    { cardId, kind, title, args, ...more, ...(titleFormatted ? { titleFormatted } : {}) },
    system,
  );
}

const minutesOf = (hhmm: unknown): number => {
  const [h, m] = String(hhmm).split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};
/** A variable's value from an argument's text: of the variable's type, or a sentence why not. */
export function variableValue(v: VariableView, raw: unknown): string | number | boolean {
  if (v.type === 'string') return String(raw ?? '');
  if (v.type === 'number') {
    const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
    if (String(raw).trim() === '' || !Number.isFinite(n)) throw new Error(`variable '${v.name}' is a number; ${JSON.stringify(raw)} is not one`);
    return n;
  }
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new Error(`variable '${v.name}' is a boolean; ${JSON.stringify(raw)} is neither true nor false`);
}

export function systemCards(d: SystemDeps): HubCard[] {
  const wall = () => d.clock.parts(d.now());
  const minuteOfDay = () => {
    const p = wall();
    return p.hour * 60 + p.minute;
  };
  const variable = (args: Record<string, unknown>): VariableView => {
    const id = idOf(args.variable);
    if (!id || !d.logic.has(id)) throw new Error('its variable was deleted');
    return d.logic.get(id);
  };
  const variableGone = (args: Record<string, unknown>) => {
    const id = idOf(args.variable);
    return id && !d.logic.has(id) ? 'the variable it uses was deleted' : null;
  };
  const variables = (_name: string, query: string) =>
    Object.values(d.logic.list())
      .filter((v) => v.name.toLowerCase().includes(query.toLowerCase()))
      .map((v) => ({ id: v.id, name: v.name, description: v.type }));
  const sunUp = (): boolean => {
    const at = d.location();
    if (!at) throw new Error("the hub's location is not set (Settings, Location)");
    const p = wall();
    const sun = sunTimes(p.year, p.month, p.day, at.latitude, at.longitude);
    if (sun.sunrise === null || sun.sunset === null) return sun.alwaysUp;
    const t = d.now();
    return t >= sun.sunrise && t < sun.sunset;
  };
  const time = (name: string, title: string) => arg(name, 'time', title);
  const dropdown = (name: string, title: string, values: string[][]) =>
    arg(name, 'dropdown', title, { values: values.map(([id, label]) => ({ id: id!, label: label! })) });

  return [
    card('cron', 'time_exactly', 'trigger', 'At a time', [time('time', 'Time')], { filter: (args, state) => args.time === state.time }),
    card('cron', 'every_minutes', 'trigger', 'Every so many minutes', [arg('minutes', 'number', 'Minutes', { min: 1, max: 1440, step: 1 })], {
      // Counted from midnight, so "every 15 minutes" runs at :00, :15, :30 and :45.
      filter: (args, state) => Number(state.minuteOfDay) % Math.max(1, Math.round(Number(args.minutes))) === 0,
    }),
    card('cron', 'sunrise', 'trigger', 'At sunrise', [], {}, { hint: "At sunrise at the hub's location" }),
    card('cron', 'sunset', 'trigger', 'At sunset', [], {}, { hint: "At sunset at the hub's location" }),
    card('cron', 'time_between', 'condition', 'The time !{{is|is not}} between', [time('from', 'From'), time('to', 'To')], {
      run: (args) => {
        const now = minuteOfDay();
        const from = minutesOf(args.from);
        const to = minutesOf(args.to);
        // 22:00 to 06:00 crosses midnight.
        return from <= to ? now >= from && now < to : now >= from || now < to;
      },
    }),
    card(
      'cron',
      'weekday',
      'condition',
      'Today !{{is|is not}}',
      [
        dropdown(
          'day',
          'Day',
          WEEKDAYS.map((w) => [w, w[0]!.toUpperCase() + w.slice(1)]),
        ),
      ],
      {
        run: (args) => WEEKDAYS[wall().weekday] === args.day,
      },
    ),
    card('cron', 'sun_up', 'condition', 'The sun !{{is|is not}} up', [], { run: () => sunUp() }),
    card(
      'logic',
      'variable_changed',
      'trigger',
      'A variable changed',
      [arg('variable', 'autocomplete', 'Variable')],
      {
        filter: (args, state) => idOf(args.variable) === state.variable,
        autocomplete: variables,
        broken: variableGone,
      },
      { tokens: [{ name: 'value', type: 'string', title: 'Its new value', example: '21' }] },
    ),
    card(
      'logic',
      'compare',
      'condition',
      'A variable compares to a value',
      [
        arg('variable', 'autocomplete', 'Variable'),
        dropdown('operator', 'Is', [
          ['eq', 'equal to'],
          ['lt', 'less than'],
          ['gt', 'greater than'],
          ['contains', 'containing'],
        ]),
        arg('value', 'text', 'Value'),
      ],
      {
        run: (args) => {
          const v = variable(args);
          const value = variableValue(v, args.value);
          switch (args.operator) {
            case 'lt':
              return v.value < value;
            case 'gt':
              return v.value > value;
            case 'contains':
              return String(v.value).includes(String(value));
            default:
              return v.value === value;
          }
        },
        autocomplete: variables,
        broken: variableGone,
      },
    ),
    card(
      'logic',
      'set_variable',
      'action',
      'Set a variable',
      [arg('variable', 'autocomplete', 'Variable'), arg('value', 'text', 'Value', { required: false })],
      {
        run: async (args, runId) => {
          const v = variable(args);
          d.variableCauses.set(v.id, runId);
          try {
            await d.logic.update(v.id, { value: variableValue(v, args.value) });
          } finally {
            // Only its own: the run its change started may be setting the variable by now.
            if (d.variableCauses.get(v.id) === runId) d.variableCauses.delete(v.id);
          }
        },
        autocomplete: variables,
        broken: variableGone,
      },
    ),
    card('speech-output', 'say', 'action', 'Say something', [arg('text', 'text', 'Text')], {
      run: async (args) => {
        await d.say(String(args.text));
      },
    }),
    card('notifications', 'create_notification', 'action', 'Create a notification', [arg('text', 'text', 'Text')], {
      run: async (args) => {
        const text = String(args.text ?? '').trim();
        if (text === '') throw new Error('a notification needs a text');
        if (text.length > MAX_NOTIFICATION) throw new Error(`a notification is at most ${MAX_NOTIFICATION} characters; this one is ${text.length}`);
        await d.notify(text);
      },
    }),
    card('flow', 'programmatic_trigger', 'trigger', 'This flow is started', [], {
      filter: (_args, state, flow) => state.flow === flow.id,
    }),
    card('flow', 'start_flow', 'action', 'Start a flow', [arg('flow', 'autocomplete', 'Flow')], {
      run: async (args, runId) => {
        const id = idOf(args.flow);
        if (!id) throw new Error('no flow chosen');
        await d.startFlow(id, runId);
      },
      autocomplete: (_name, query) =>
        d
          .flows()
          .filter((f) => f.trigger.id === 'homey:manager:flow:programmatic_trigger' && f.name.toLowerCase().includes(query.toLowerCase()))
          .map((f) => ({ id: f.id, name: f.name })),
      broken: (args) => {
        const id = idOf(args.flow);
        return id && !d.flows().some((f) => f.id === id) ? 'the flow it starts was deleted' : null;
      },
    }),
  ];
}
