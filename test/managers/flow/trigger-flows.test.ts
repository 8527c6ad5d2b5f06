/**
 * The list of a card's flows the engine sends the card's app: its id is what the app keeps the
 * arguments by, so the same arguments must keep the id (a flow renamed or saved unchanged does
 * not send the app every flow's arguments again) and other arguments must never have it (the
 * app would answer by the old list, and the wrong flows would go on).
 */
import { describe, expect, test } from 'vitest';
import type { HubCard } from '../../../src/managers/flow/hub-card.js';
import { TriggerFlows } from '../../../src/managers/flow/trigger-flows.js';
import type { FlowRecord } from '../../../src/managers/flow/views.js';

const CARD = 'homey:app:com.example.weather:rain_start';
/** The two kinds of trigger card the list tells apart: with a device argument and without. */
const plain = { deviceArg: null } as unknown as HubCard;
const onDevice = { deviceArg: { name: 'device' } } as unknown as HubCard;

function flow(id: string, name: string, args: Record<string, unknown>): FlowRecord {
  return { id, name, folder: null, enabled: true, trigger: { id: CARD, args }, conditions: [], actions: [], created: '2026-11-29T00:00:00.000Z' };
}

describe('a trigger card’s list of flows', () => {
  test('keeps its id while its arguments stay the same, whatever else of the flows changed', () => {
    const before = new TriggerFlows(CARD, [flow('a', 'at home', { location: 'home' }), flow('b', 'at work', { location: 'work' })]);
    // The first flow renamed (a new record, a new revision of the flows), a third with known arguments.
    const after = new TriggerFlows(CARD, [
      flow('a', 'home again', { location: 'home' }),
      flow('b', 'at work', { location: 'work' }),
      flow('c', 'also at home', { location: 'home' }),
    ]);
    const was = before.list(plain, null);
    const is = after.list(plain, null);
    expect(is.id).toBe(was.id);
    expect(is.args).toEqual([{ location: 'home' }, { location: 'work' }]);
    // The app's answer (indexes into the arguments) reads through the flows of the moment.
    expect(is.argsOf).toEqual([0, 1, 0]);
    expect(is.flows.map((f) => f.name)).toEqual(['home again', 'at work', 'also at home']);
  });

  test('has another id when the arguments, their order, the card or the device differ', () => {
    const ids = [
      new TriggerFlows(CARD, [flow('a', 'x', { location: 'home' }), flow('b', 'y', { location: 'work' })]).list(plain, null).id,
      new TriggerFlows(CARD, [flow('a', 'x', { location: 'loop' }), flow('b', 'y', { location: 'work' })]).list(plain, null).id,
      new TriggerFlows(CARD, [flow('b', 'y', { location: 'work' }), flow('a', 'x', { location: 'home' })]).list(plain, null).id,
      new TriggerFlows(`${CARD}2`, [flow('a', 'x', { location: 'home' }), flow('b', 'y', { location: 'work' })]).list(plain, null).id,
      // One argument that holds what two would, written out: not the same list.
      new TriggerFlows(CARD, [flow('a', 'x', { location: 'home"}\n{"location":"work' })]).list(plain, null).id,
    ];
    const devices = new TriggerFlows(CARD, [flow('a', 'x', { device: { id: 'd1' } }), flow('b', 'y', { device: { id: 'd2' } })]);
    const d1 = devices.list(onDevice, 'd1');
    const d2 = devices.list(onDevice, 'd2');
    expect(d1.flows.map((f) => f.id)).toEqual(['a']);
    expect(d2.flows.map((f) => f.id)).toEqual(['b']);
    ids.push(d1.id, d2.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
