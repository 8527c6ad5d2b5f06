/**
 * Which flows on an app's trigger card go on is the app's answer (its run listener). An app that
 * has the card's list answers with the trigger itself, and the hub then asks it nothing: two
 * messages between the processes fewer for each trigger. An answer for another list (the flows
 * changed since the app was sent it) is not taken: the app is asked about the list as it is.
 */
import { describe, expect, test } from 'vitest';
import { type AppCaller, AppFilter } from '../../../src/managers/flow/app-filter.js';
import type { HubCard } from '../../../src/managers/flow/hub-card.js';
import { TriggerFlows } from '../../../src/managers/flow/trigger-flows.js';
import type { FlowRecord } from '../../../src/managers/flow/views.js';

const CARD = 'homey:app:com.example.weather:rain_start';
const card = { appId: 'com.example.weather', cardId: 'rain_start', deviceArg: null } as unknown as HubCard;

function flow(id: string, location: string): FlowRecord {
  return {
    id,
    name: id,
    folder: null,
    enabled: true,
    trigger: { id: CARD, args: { location } },
    conditions: [],
    actions: [],
    created: '2026-11-29T00:00:00.000Z',
  };
}

/** A caller that records what the hub asked, and answers as an app with `kept` lists would: `go` for each. */
function app(go: number[]) {
  const asked: Array<{ list: string; withArgs: boolean }> = [];
  const kept = new Set<string>();
  const call = (async (_appId: string, method: string, args: { list: string; args?: unknown[] }) => {
    expect(method).toBe('flow.filter');
    asked.push({ list: args.list, withArgs: args.args !== undefined });
    if (args.args) kept.add(args.list);
    return kept.has(args.list) ? { go } : { missing: true };
  }) as unknown as AppCaller;
  return { asked, call };
}

describe("an app trigger card's filter", () => {
  test("takes the answer the app gave with its trigger for the card's list, and asks nothing", async () => {
    const { asked, call } = app([0]);
    const filter = new AppFilter(call);
    const list = new TriggerFlows(CARD, [flow('a', 'home'), flow('b', 'work')]).list(card, null);
    expect([...(await filter.going(card, list, null, {}, { list: list.id, go: [1] }))]).toEqual([1]);
    expect([...(await filter.going(card, list, null, {}, { list: list.id, go: [] }))]).toEqual([]);
    expect(asked).toEqual([]);
  });

  test('asks the app, with the arguments once, when it gave no answer or one for another list', async () => {
    const { asked, call } = app([1]);
    const filter = new AppFilter(call);
    const before = new TriggerFlows(CARD, [flow('a', 'home'), flow('b', 'work')]).list(card, null);
    // The app's first trigger: it has no list, and says nothing of one.
    expect([...(await filter.going(card, before, null, {}, null))]).toEqual([1]);
    // The flows changed: the app answered by the list it had, which is not the card's now.
    const after = new TriggerFlows(CARD, [flow('a', 'loop'), flow('b', 'work')]).list(card, null);
    expect(after.id).not.toBe(before.id);
    expect([...(await filter.going(card, after, null, {}, { list: before.id, go: [0] }))]).toEqual([1]);
    // Asked again about a list it was sent: without the arguments.
    expect([...(await filter.going(card, after, null, {}, null))]).toEqual([1]);
    expect(asked).toEqual([
      { list: before.id, withArgs: true },
      { list: after.id, withArgs: true },
      { list: after.id, withArgs: false },
    ]);
  });
});
