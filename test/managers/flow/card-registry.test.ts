/**
 * A device's flow cards are made when asked and kept for the devices asked about last: a home of
 * a thousand devices does not hold every device's cards once a flow editor has listed them, and
 * a card of a device whose cards were let go is made again, the same, when a flow needs it.
 */
import { describe, expect, test } from 'vitest';
import { CardRegistry, DEVICES_CARDS_KEPT } from '../../../src/managers/flow/cards.js';
import { hubCard } from '../../../src/managers/flow/hub-card.js';

const DEVICES = 300;

function registry(): { cards: CardRegistry; made: string[] } {
  const made: string[] = [];
  const cards = new CardRegistry({ appIds: () => [], manifest: () => null, appName: () => '', language: () => 'en' });
  const ids = Array.from({ length: DEVICES }, (_, i) => `d${i}`);
  cards.setDevices({
    ids: () => ids,
    cards: (id) => {
      made.push(id);
      const owner = { uri: `homey:device:${id}`, id, name: `Lamp ${id}` };
      return [hubCard(owner, { cardId: 'turned_on', kind: 'trigger', title: 'Turned on' }, {})];
    },
  });
  return { cards, made };
}

describe("devices' flow cards", () => {
  test('are listed for every device, and kept made for the last few asked about only', () => {
    const { cards, made } = registry();
    expect(cards.list('trigger').map((c) => c.id)).toHaveLength(DEVICES);
    expect(made).toHaveLength(DEVICES);
    // The last devices listed are still made: asking costs nothing.
    expect(cards.find('trigger', `homey:device:d${DEVICES - 1}:turned_on`)?.title).toBe('Turned on');
    expect(DEVICES_CARDS_KEPT).toBeLessThan(DEVICES);
    expect(cards.find('trigger', `homey:device:d${DEVICES - DEVICES_CARDS_KEPT}:turned_on`)?.title).toBe('Turned on');
    expect(made).toHaveLength(DEVICES);
    // The first were let go: made again, the same card, when a flow needs one.
    const again = cards.find('trigger', 'homey:device:d0:turned_on');
    expect(again).toMatchObject({ id: 'homey:device:d0:turned_on', ownerUri: 'homey:device:d0', kind: 'trigger', title: 'Turned on' });
    expect(made.slice(DEVICES)).toEqual(['d0']);
    // And kept again after: the next flow on it costs nothing.
    cards.find('trigger', 'homey:device:d0:turned_on');
    expect(made.slice(DEVICES)).toEqual(['d0']);
    expect(cards.find('trigger', 'homey:device:d0:nothing')).toBeNull();
  });
});
