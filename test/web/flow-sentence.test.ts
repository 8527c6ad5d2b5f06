/** A flow in words for the flows list: each card's title with its arguments filled in. */
import { describe, expect, test } from 'vitest';
import type { CardView } from '../../src/managers/flow/views.js';
import { type CardsByKind, type CardWords, flowSentence } from '../../src/web/flow-sentence.js';

type Arg = CardView['args'][number];
const arg = (name: string, type: Arg['type'], title: string, extra: Partial<Arg> = {}): Arg =>
  ({ name, type, title, placeholder: null, values: null, min: null, max: null, step: null, filter: null, required: true, ...extra }) as Arg;
const card = (
  title: string,
  titleFormatted: string | null,
  ownerUri: string,
  ownerName: string,
  args: Arg[] = [],
  tokens: CardView['tokens'] = [],
): CardWords => ({
  title,
  titleFormatted,
  ownerUri,
  ownerName,
  args,
  tokens,
});

const LAMP = 'homey:device:lamp1';
const cards: CardsByKind = {
  trigger: {
    'homey:app:v:door_left_open': card(
      'The door was left open',
      '[[device]]: the door was left open',
      'homey:app:v',
      'Virtual devices',
      [arg('device', 'device', 'Device')],
      [{ id: 'minutes', type: 'number', title: 'Minutes open', example: '5' }],
    ),
  },
  condition: {
    [`${LAMP}:on`]: card('Is turned !{{on|off}}', null, LAMP, 'Reading lamp'),
    'homey:manager:cron:weekday': card('Today !{{is|is not}}', 'Today !{{is|is not}} [[day]]', 'homey:manager:cron', 'Date & time', [
      arg('day', 'dropdown', 'Day', { values: [{ id: 'sunday', label: 'Sunday' }] }),
    ]),
  },
  action: {
    // The device's action shares its condition's id.
    [`${LAMP}:on`]: card('Turn on', null, LAMP, 'Reading lamp'),
    'homey:manager:notifications:create_notification': card(
      'Create a notification',
      'Create a notification: [[text]]',
      'homey:manager:notifications',
      'Notifications',
      [arg('text', 'text', 'Text')],
    ),
    'homey:app:w:remember': card('Remember a message', 'Remember [[message]] ([[amount]])', 'homey:app:w', 'weather', [
      arg('message', 'text', 'Message'),
      arg('amount', 'number', 'Amount', { required: false }),
    ]),
  },
};

describe('a flow in words', () => {
  test('arguments in their blanks, a device by name, a token by title, a condition as the flow turns it', () => {
    const flow = {
      trigger: { id: 'homey:app:v:door_left_open', args: { device: { id: 'd1', name: 'Front door' } } },
      conditions: [
        { id: `${LAMP}:on`, args: {}, inverted: false, group: 'group1' },
        { id: 'homey:manager:cron:weekday', args: { day: 'sunday' }, inverted: true, group: 'group1' },
      ],
      actions: [
        {
          id: 'homey:manager:notifications:create_notification',
          args: { text: 'Open for [[minutes]] min, says [[homey:manager:logic|x]]' },
          group: 'then',
          delay: null,
        },
        { id: `${LAMP}:on`, args: {}, group: 'then', delay: null },
        { id: 'homey:app:w:remember', args: { message: 'hi' }, group: 'then', delay: null },
        { id: 'homey:app:w:remember', args: { message: 'not said' }, group: 'else', delay: null },
      ],
    } as unknown as Parameters<typeof flowSentence>[0];
    expect(flowSentence(flow, cards)).toBe(
      'When Front door: the door was left open, and Reading lamp is turned on, and today is not Sunday, then create a notification: “Open for [Minutes open] min, says [a value]”, then Reading lamp: turn on, then remember “hi”',
    );
  });

  test('a card the home no longer has reads by its id; a required blank left empty by its title', () => {
    const flow = {
      trigger: { id: 'homey:app:gone:it_snows', args: {} },
      conditions: [],
      actions: [{ id: 'homey:manager:notifications:create_notification', args: {}, group: 'then', delay: null }],
    } as unknown as Parameters<typeof flowSentence>[0];
    expect(flowSentence(flow, cards)).toBe('When it snows, then create a notification: text');
  });
});
