/**
 * Schemas are built on first use (docs/performance.md): a zod schema costs some 2 KiB of heap and
 * 20 µs to build, the contracts declare thousands, and an idle hub uses a few dozen. Operations
 * keep their schemas behind getters until read; manifests' schemas are let go when unused.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { contractOperations, extendOperation, lazy, type ManagerContract, type OperationContract, op } from '../../src/core/contract.js';
import { implement } from '../../src/core/operation.js';
import { transient } from '../../src/core/transient.js';
import { CONTRACTS } from '../../src/managers/contracts.js';

describe('schemas made on first use', () => {
  afterEach(() => vi.useRealTimers());

  it('an operation builds its schemas once, when one is first read, and not when it is mounted', () => {
    const build = vi.fn(() => ({ params: z.object({ id: z.string() }), output: z.null() }));
    const operation = op({ method: 'GET', path: '/thing/:id', scope: null, summary: 'a thing' }, build);
    const [mounted] = implement({ getThing: operation }, { getThing: () => null });
    expect(extendOperation(operation, { extra: 1 }).path).toBe('/thing/:id');
    expect(mounted?.id).toBe('getThing');
    expect(build).not.toHaveBeenCalled();
    expect(mounted?.params?.safeParse({ id: 'x' }).success).toBe(true);
    expect(mounted?.output).toBe(operation.output);
    expect((operation as OperationContract).body).toBeUndefined();
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('every operation of every contract keeps its schemas behind getters', () => {
    const eager: string[] = [];
    for (const contract of Object.values(CONTRACTS) as ManagerContract[]) {
      for (const [id, operation] of Object.entries(contractOperations(contract))) {
        for (const key of ['params', 'query', 'body', 'output'] as const) {
          const d = Object.getOwnPropertyDescriptor(operation, key);
          if (d && !d.get) eager.push(`${contract.name}.${id}.${key}`);
        }
      }
      if (contract.events !== undefined) expect(typeof contract.events).toBe('function');
    }
    expect(eager).toEqual([]);
  });

  it('lazy builds once; transient lets go 30-60 s after the last use and builds again', () => {
    vi.useFakeTimers();
    const made = vi.fn(() => ({ n: Math.random() }));
    const once = lazy(made);
    expect(once()).toBe(once());
    expect(made).toHaveBeenCalledTimes(1);

    const build = vi.fn(() => ({ n: Math.random() }));
    const held = transient(build);
    const first = held();
    vi.advanceTimersByTime(31_000); // a sweep at 30 s: it was used since it was made
    expect(held()).toBe(first);
    vi.advanceTimersByTime(30_000); // the sweep at 60 s finds that use
    expect(held()).toBe(first);
    vi.advanceTimersByTime(60_000); // two sweeps, the second without a use since the first
    const again = held();
    expect(again).not.toBe(first);
    expect(held()).toBe(again);
    expect(build).toHaveBeenCalledTimes(2);
  });
});
