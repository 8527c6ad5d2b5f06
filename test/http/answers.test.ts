/**
 * --check-answers: every answer is parsed, as the client reads it (its JSON), against its
 * operation's output schema, and a mismatch is a 500 naming the operation and the field, never a
 * quiet wrong answer. Every test hub runs with it (test/helpers/hub.ts), so the whole suite holds
 * the answers it sees to the OpenAPI document; this file shows the check can fail.
 */
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOption } from '../../src/core/contract.js';
import { eventProblem } from '../../src/core/event-check.js';
import { contractEvents, resourceEvents } from '../../src/core/events.js';
import { implement, type Operation } from '../../src/core/operation.js';
import type { Authenticator } from '../../src/http/auth.js';
import { mountOperation } from '../../src/http/mount.js';
import { type RunningHub, startHub } from '../helpers/hub.js';

const owner = { id: 'o', name: 'owner', scopes: ['*'], createdAt: '', owner: true, session: false } as const;
const auth = { authenticate: () => owner } as unknown as Authenticator;

function appWith(op: Operation, mismatches?: string[]): Hono {
  const app = new Hono({ strict: false });
  app.onError(
    (err) =>
      new Response(JSON.stringify({ error: (err as { code?: string }).code, error_description: err.message }), {
        status: (err as { status?: number }).status ?? 500,
      }),
  );
  mountOperation(
    app,
    { manager: 'test', fullPath: '/api/manager/test/thing', op },
    {
      auth,
      bodyLimit: 1024,
      failed: new Map(),
      ...(mismatches ? { answerMismatch: (o: Operation, problem: string) => void mismatches.push(`${o.id}: ${problem}`) } : {}),
    },
  );
  return app;
}

const thing = {
  getThing: { method: 'GET', path: '/thing', scope: null, summary: 'A thing', output: z.object({ name: z.string(), at: z.iso.datetime() }) },
} as const;

// A Date becomes its ISO string on the wire, which the schema accepts; the number does not. The
// handler's type would refuse the number, so it is cast: what is tested is the run-time check.
const wrong = implement(thing, { getThing: (() => ({ name: 42, at: new Date(0) })) as never })[0]!;

describe('answers checked against their schemas', () => {
  it('a wrong answer is a 500 naming the operation and the field, and is reported', async () => {
    const mismatches: string[] = [];
    const res = await appWith(wrong, mismatches).request('/api/manager/test/thing');
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error_description: string };
    expect(body.error_description).toBe('the answer of getThing does not match its schema: answer name: Invalid input: expected string, received number');
    expect(mismatches).toEqual(['getThing: answer name: Invalid input: expected string, received number']);
  });

  it('a handler that answers the wrong shape does not compile', () => {
    const ops = implement(thing, {
      // @ts-expect-error: name is a string in the contract's output
      getThing: () => ({ name: 42, at: '1970-01-01T00:00:00.000Z' }),
    });
    expect(ops.map((o) => [o.id, o.method, o.path])).toEqual([['getThing', 'GET', '/thing']]);
  });

  it('with the check off the same answer goes out unchecked (the hot path pays nothing)', async () => {
    const res = await appWith(wrong).request('/api/manager/test/thing');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 42, at: '1970-01-01T00:00:00.000Z' });
  });

  it('an event is held to its contract: its name, how many arguments, and each one', () => {
    const contract = resourceEvents('thing', z.object({ id: z.string() }));
    expect(eventProblem(contract, 'thing.create', [{ id: 'a' }])).toBeNull();
    expect(eventProblem(contract, 'thing.update', [{ id: 'a' }, { newValues: {}, oldValues: {}, changedKeys: ['x'] }])).toBeNull();
    expect(eventProblem(contract, 'thing.moved', [{ id: 'a' }])).toBe("'thing.moved' is not in the manager's event contract");
    expect(eventProblem(contract, 'thing.update', [{ id: 'a' }])).toBe("'thing.update' carries 1 arguments; its contract has 2");
    expect(eventProblem(contract, 'thing.delete', [{ id: 7 }])).toBe("'thing.delete' argument 0: id: Invalid input: expected string, received number");
    // option.update comes with options only; a secret one goes without its value.
    expect(eventProblem(contract, 'option.update', [{ name: 'pinCode', set: true }])).toBe("'option.update' is not in the manager's event contract");
    const withOptions = contractEvents({
      name: 'system',
      eventScope: null,
      operations: {},
      events: () => contract,
      options: [defineOption({ name: 'pinCode', schema: z.string(), default: null, scopes: { get: null, set: null, unset: null }, summary: 'a PIN' })],
    });
    expect(eventProblem(withOptions, 'option.update', [{ name: 'pinCode', set: true }])).toBeNull();
    expect(eventProblem(withOptions, 'option.update', [{ name: 'pinCode', set: true, value: '1234' }])).not.toBeNull();
  });

  describe('on a real hub', () => {
    let hub: RunningHub;
    beforeAll(async () => {
      hub = await startHub();
    });
    afterAll(() => hub.cleanup());

    it('test hubs run with the check on, and their answers pass it', async () => {
      expect(hub.output.join('\n')).toContain('every answer is checked against its operation schema, and every event against its contract');
      expect((await hub.call('GET', '/api/manager/apps/state')).status).toBe(200);
      expect(hub.output.join('\n')).not.toContain('an answer does not match its schema');
    });
  });
});
