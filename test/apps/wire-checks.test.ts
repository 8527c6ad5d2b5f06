/**
 * The hub's hand checks of the wire's frequent messages (wire-checks.ts) against the zod schemas
 * they stand in for: every message a check takes, the schema takes too, as the same JSON; and
 * the messages apps send most (a call, a result, an error) are taken by the check, not left to
 * the schema.
 */
import { describe, expect, it } from 'vitest';
import { capabilityArgsOf, childMessageOf, HAND_CHECKED, isOwnAnswer, isOwnCall } from '../../src/apps/host/wire-checks.js';
import { ChildMessage, HUB_CALLS, HubMessage } from '../../src/apps/wire/protocol.js';
import { answerOf, RpcError } from '../../src/apps/wire/wire.js';

const ids: unknown[] = [0, 1, 41, -0, -1, 1.5, 2 ** 53 - 1, 2 ** 53, '1', null, undefined, Number.NaN];
const methods: unknown[] = ['device.setCapabilityValue', 'settings.set', 'flow.trigger', 'ping', 'api', 'toString', '__proto__', 'constructor', 7, undefined];
const argses: unknown[] = [
  {},
  { id: 'lamp', capabilityId: 'onoff', value: true },
  [],
  null,
  'x',
  JSON.parse('{"__proto__":{"polluted":true},"id":"lamp"}'),
  Object.create(null),
  new Date(0),
  undefined,
];
const errors: unknown[] = [
  { code: 'app_error', message: 'it broke' },
  { code: 'x'.repeat(64), message: 'm'.repeat(4096) },
  { code: 'x'.repeat(65), message: 'm' },
  { code: 'x', message: 'm'.repeat(4097) },
  { code: 'x', message: 'm', stack: 'at ...' },
  { code: 1, message: 'm' },
  { code: 'x' },
  'boom',
  [],
  null,
  undefined,
];

/** Every combination of the pieces above, for each of the envelope's types, with and without an extra field. */
function* messages(): Generator<unknown> {
  for (const id of ids) {
    for (const method of methods) for (const args of argses) yield { type: 'call', id, method, args };
    yield { type: 'result', id, result: { a: 1 } };
    yield { type: 'result', id, result: null };
    yield { type: 'result', id };
    yield { type: 'result', id, result: 1, extra: true };
    for (const error of errors) yield { type: 'error', id, error };
    yield { type: 'hello', id, protocol: 2, pid: 7 };
    yield { type: 'event', id, event: { name: 'x' } };
    yield { type: 'nope', id };
  }
  yield null;
  yield [];
  yield 'call';
  yield JSON.parse('{"type":"call","id":1,"method":"device.setCapabilityValue","args":{},"__proto__":{"x":1}}');
}

describe("the hub's hand checks of the wire", () => {
  it('take a child message only when ChildMessage takes it, and as the same message', () => {
    let taken = 0;
    for (const m of messages()) {
      const fast = childMessageOf(m);
      if (fast === undefined) continue;
      taken++;
      const parsed = ChildMessage.safeParse(m);
      expect(parsed.success, JSON.stringify(m)).toBe(true);
      expect(JSON.stringify(fast), JSON.stringify(m)).toBe(JSON.stringify(parsed.data));
    }
    expect(taken).toBeGreaterThan(20);
  });

  it("take an app's frequent messages themselves", () => {
    const frequent = [
      { type: 'call', id: 9, method: 'device.setCapabilityValue', args: { id: 'lamp', capabilityId: 'measure_power', value: 12.5 } },
      { type: 'call', id: 10, method: 'flow.trigger', args: { card: 'fired', tokens: {}, state: {} } },
      { type: 'result', id: 3, result: { ok: true, body: 1 } },
      { type: 'error', id: 4, error: { code: 'app_error', message: 'no' } },
    ];
    for (const m of frequent) expect(childMessageOf(JSON.parse(JSON.stringify(m))), JSON.stringify(m)).toEqual(m);
  });

  it("take the hub's own calls and answers only when HubMessage takes them", () => {
    const own: unknown[] = [
      answerOf(1, { ok: true, result: { a: [1, 2] } }),
      answerOf(2, { ok: true, result: undefined }),
      answerOf(3, { ok: false, error: new RpcError('busy', 'x'.repeat(5000)) }),
      answerOf(4, { ok: false, error: Object.assign(new Error('boom'), { code: 'c'.repeat(100) }) }),
      answerOf(5, { ok: false, error: 'a string thrown' }),
      { type: 'call', id: 6, method: 'ping', args: {} },
    ];
    for (const m of own) {
      expect(isOwnCall(m) || isOwnAnswer(m), JSON.stringify(m)).toBe(true);
      expect(HubMessage.safeParse(m).success, JSON.stringify(m)).toBe(true);
    }
    for (const m of messages()) {
      if (!isOwnCall(m) && !isOwnAnswer(m)) continue;
      expect(HubMessage.safeParse(m).success, JSON.stringify(m)).toBe(true);
    }
  });

  it('hand-check only calls whose schema answers null (the router takes their null answer unparsed)', () => {
    for (const method of Object.keys(HAND_CHECKED) as Array<keyof typeof HUB_CALLS>)
      expect(HUB_CALLS[method].result.safeParse(null).success, method).toBe(true);
  });

  it("take device.setCapabilityValue's arguments only when its schema takes them, and as the same arguments", () => {
    const schema = HUB_CALLS['device.setCapabilityValue'].args;
    const ids: unknown[] = ['lamp', 'x'.repeat(64), 'x'.repeat(65), '', 7, null, undefined];
    const capabilityIds: unknown[] = ['onoff', 'measure_temperature.inside', 'a.b.c', 'on off', 'x'.repeat(64), 'x'.repeat(65), '', '.x', 'x.', 1];
    const values: unknown[] = [
      true,
      false,
      0,
      -1.5,
      1e308,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      's'.repeat(4096),
      's'.repeat(4097),
      null,
      undefined,
      {},
      [],
    ];
    let taken = 0;
    for (const id of ids)
      for (const capabilityId of capabilityIds)
        for (const value of values)
          for (const extra of [{}, { opts: { duration: 1 } }, JSON.parse('{"__proto__":{"polluted":true}}')]) {
            const args = { id, capabilityId, value, ...extra };
            const fast = capabilityArgsOf(args);
            if (fast === undefined) continue;
            taken++;
            const parsed = schema.safeParse(args);
            expect(parsed.success, JSON.stringify(args)).toBe(true);
            expect(fast, JSON.stringify(args)).toEqual(parsed.data);
          }
    expect(taken).toBeGreaterThan(50);
    // A value left out is the schema's to refuse; an array, null or a Date is no set of arguments.
    for (const args of [{ id: 'lamp', capabilityId: 'onoff' }, [], null, new Date(0), 'x']) expect(capabilityArgsOf(args)).toBeUndefined();
    // What apps send: taken by the check, not left to the schema.
    expect(capabilityArgsOf(JSON.parse('{"id":"lamp","capabilityId":"measure_power","value":12.5}'))).toEqual({
      id: 'lamp',
      capabilityId: 'measure_power',
      value: 12.5,
    });
  });
});
