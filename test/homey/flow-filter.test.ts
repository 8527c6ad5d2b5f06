/**
 * The SDK's side of a trigger's filter (hearth's `this.homey.flow`): once the hub has sent a
 * card's list of flows' arguments, a trigger of that card carries the run listener's answer for
 * the list, worked out in the app before the trigger leaves it, so the hub need not ask. A card
 * (or, on a device card, a device) the hub sent no list for carries none.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const require = createRequire(import.meta.url);
const { ManagerFlow } = require(join(import.meta.dirname, '../../dist/homey/managers/flow.cjs'));

type Sent = { method: string; args: Record<string, unknown> };

/** The flow manager of an app with a trigger `rain` (an argument `mm`) and a device trigger `wet`, its calls to the hub kept. */
function appFlow() {
  const sent: Sent[] = [];
  const ctx = {
    transport: {
      call: async (method: string, args: Record<string, unknown>) => {
        sent.push({ method, args });
        return null;
      },
    },
    manifest: {
      flow: {
        triggers: [
          { id: 'rain', title: { en: 'Rain' }, args: [{ type: 'number', name: 'mm' }] },
          { id: 'wet', title: { en: 'Wet' }, args: [{ type: 'device', name: 'device' }] },
        ],
      },
    },
  };
  const devices = new Map([
    ['d1', { name: 'Sensor 1' }],
    ['d2', { name: 'Sensor 2' }],
  ]);
  const lookup = {
    byId: (id: string) => devices.get(id),
    idOf: (device: unknown) => [...devices].find(([, d]) => d === device)?.[0],
  };
  const flow = new ManagerFlow(ctx, () => lookup);
  return { flow, sent, devices };
}

describe("a trigger's filter in the app", () => {
  test('a trigger after the hub sent the list carries the run listener’s answer for it, for the new state', async () => {
    const { flow, sent } = appFlow();
    const asked: Array<[number, number]> = [];
    const rain = flow.getTriggerCard('rain').registerRunListener(async (args: { mm: number }, state: { mm: number }) => {
      asked.push([args.mm, state.mm]);
      return state.mm >= args.mm;
    });
    // The first trigger: no list yet, so no answer; the hub asks.
    await rain.trigger({}, { mm: 3 });
    expect(sent.at(-1)).toMatchObject({ method: 'flow.trigger', args: { card: 'rain', device: null, state: { mm: 3 } } });
    expect(sent.at(-1)?.args).not.toHaveProperty('filtered');
    expect(await flow.calls['flow.filter']({ card: 'rain', device: null, list: 'L1', args: [{ mm: 1 }, { mm: 5 }], state: { mm: 3 } })).toEqual({ go: [0] });
    asked.length = 0;
    // The next: answered here, by the list the hub sent, for this trigger's state.
    await rain.trigger({}, { mm: 7 });
    expect(asked).toEqual([
      [1, 7],
      [5, 7],
    ]);
    expect(sent.at(-1)).toMatchObject({ method: 'flow.trigger', args: { card: 'rain', state: { mm: 7 }, filtered: { list: 'L1', go: [0, 1] } } });
    // A list the hub refers to by id is the card's latest too.
    expect(await flow.calls['flow.filter']({ card: 'rain', device: null, list: 'L2', args: [{ mm: 4 }], state: { mm: 3 } })).toEqual({ go: [] });
    expect(await flow.calls['flow.filter']({ card: 'rain', device: null, list: 'L1', state: { mm: 2 } })).toEqual({ go: [0] });
    await rain.trigger({}, { mm: 4 });
    expect(sent.at(-1)?.args.filtered).toEqual({ list: 'L1', go: [0] });
    // A list the app does not keep is asked for.
    expect(await flow.calls['flow.filter']({ card: 'rain', device: null, list: 'L9', state: { mm: 2 } })).toEqual({ missing: true });
  });

  test("a device card's list is its device's: another device's trigger carries no answer", async () => {
    const { flow, sent, devices } = appFlow();
    const wet = flow.getDeviceTriggerCard('wet');
    expect(await flow.calls['flow.filter']({ card: 'wet', device: 'd1', list: 'D1', args: [{ device: { id: 'd1' } }], state: {} })).toEqual({ go: [0] });
    await wet.trigger(devices.get('d1'), {}, {});
    expect(sent.at(-1)?.args).toMatchObject({ card: 'wet', device: 'd1', filtered: { list: 'D1', go: [0] } });
    await wet.trigger(devices.get('d2'), {}, {});
    expect(sent.at(-1)?.args).toMatchObject({ card: 'wet', device: 'd2' });
    expect(sent.at(-1)?.args).not.toHaveProperty('filtered');
  });
});
