/**
 * The flows grouped by trigger card are made again when a flow is written, in a turn of the loop
 * of their own, not in the path of the next trigger: with 400 flows that regroup and the list of a
 * card's 200 were ~0.8 ms that a trigger right after a flow was saved waited for.
 */
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { EventBus } from '../../../src/core/events.js';
import { Store } from '../../../src/core/store.js';
import type { HubBus } from '../../../src/managers/bus.js';
import { CardRegistry } from '../../../src/managers/flow/cards.js';
import { hubCard } from '../../../src/managers/flow/hub-card.js';
import { FlowsService } from '../../../src/managers/flow/service.js';
import { FlowCreate, FlowUpdate } from '../../../src/managers/flow/views.js';
import type { FlowTokens } from '../../../src/managers/flowtoken/registry.js';
import { tempDir } from '../../helpers/hub.js';

const CARD = 'homey:device:d0:turned_on';
const ACTION = 'homey:device:d0:turn_off';

let dir: string;
let store: Store;
let flows: FlowsService;
beforeEach(async () => {
  dir = await tempDir('hearth-trigger-index-');
  store = await Store.open(dir);
  const cards = new CardRegistry({ appIds: () => [], manifest: () => null, appName: () => '', language: () => 'en' });
  const owner = { uri: 'homey:device:d0', id: 'd0', name: 'Lamp' };
  cards.setDevices({
    ids: () => ['d0'],
    cards: () => [
      hubCard(owner, { cardId: 'turned_on', kind: 'trigger', title: 'Turned on' }, {}),
      hubCard(owner, { cardId: 'turn_off', kind: 'action', title: 'Turn off' }, {}),
    ],
  });
  flows = new FlowsService(store, new EventBus() as unknown as HubBus, cards, {} as FlowTokens, {
    hasDevice: () => true,
    hasApp: () => false,
    cardsChanged: () => {},
  });
  flows.start();
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** A flow's body as the Web API takes it (its schema fills in what is left out). */
const flow = (name: string) => FlowCreate().parse({ name, trigger: { id: CARD, args: {} }, actions: [{ id: ACTION, args: {} }] });
const turn = () => new Promise<void>((r) => setImmediate(r));

describe('the flows by trigger card', () => {
  test('are grouped again in a turn of their own after a flow is made, saved or removed, so the next trigger only reads them', async () => {
    const section = (flows as unknown as { flows: { readonly value: object } }).flows;
    const reads = vi.spyOn(section, 'value', 'get');
    const first = await flows.create(flow('first'));
    await flows.create(flow('second'));
    await turn();
    reads.mockClear();
    expect(flows.onTrigger(CARD).flows.map((f) => f.name)).toEqual(['first', 'second']);
    expect(reads).not.toHaveBeenCalled();

    await flows.update(first.id, FlowUpdate().parse({ name: 'renamed' }));
    await turn();
    reads.mockClear();
    expect(flows.onTrigger(CARD).flows.map((f) => f.name)).toEqual(['renamed', 'second']);
    expect(reads).not.toHaveBeenCalled();

    await flows.remove(first.id);
    await turn();
    reads.mockClear();
    expect(flows.onTrigger(CARD).flows.map((f) => f.name)).toEqual(['second']);
    expect(reads).not.toHaveBeenCalled();
  });

  test('a trigger that comes first, before that turn, groups them itself', async () => {
    await flows.create(flow('first'));
    expect(flows.onTrigger(CARD).flows.map((f) => f.name)).toEqual(['first']);
    await turn();
    expect(flows.onTrigger(CARD).flows.map((f) => f.name)).toEqual(['first']);
  });
});
