/**
 * The say queue on its own: FIFO order, one at a time, session replacement, timeouts that
 * remove waiting work or abort running work, the caller going away, closing.
 */
import { describe, expect, it } from 'vitest';
import { HearthError } from '../../../src/core/errors.js';
import { SayQueue } from '../../../src/managers/speech-output/queue.js';

/** A job that runs until released (or aborted), recording when it starts. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  return {
    release: () => release(),
    run: (signal: AbortSignal): Promise<string> => {
      log.push(`start ${name}`);
      return new Promise<string>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(new Error(`aborted ${name}`)), { once: true });
        void released.then(() => {
          log.push(`end ${name}`);
          resolve(name);
        });
      });
    },
  };
}

const code = (err: unknown): string | undefined => (err instanceof HearthError ? err.code : undefined);

describe('SayQueue', () => {
  it('runs jobs first in, first out, one at a time', async () => {
    const queue = new SayQueue(1);
    const log: string[] = [];
    const [a, b, c] = [gate(log, 'a'), gate(log, 'b'), gate(log, 'c')];
    const results = [queue.enqueue(a), queue.enqueue(b), queue.enqueue(c)];
    expect(log).toEqual(['start a']);
    expect(queue.length).toEqual({ waiting: 2, running: 1 });
    c.release();
    b.release();
    a.release();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('replaces a waiting utterance of the same session with 409, leaving others alone', async () => {
    const queue = new SayQueue(1);
    const log: string[] = [];
    const [busy, old, other, fresh] = [gate(log, 'busy'), gate(log, 'old'), gate(log, 'other'), gate(log, 'new')];
    const pBusy = queue.enqueue({ ...busy, session: 'door' });
    const pOld = queue.enqueue({ ...old, session: 'door' });
    const pOther = queue.enqueue({ ...other, session: 'laundry' });
    const pNew = queue.enqueue({ ...fresh, session: 'door' });
    const replaced = await pOld.catch((e: unknown) => e);
    expect(code(replaced)).toBe('conflict');
    expect((replaced as Error).message).toBe("replaced by a newer utterance in session 'door'");
    for (const g of [busy, other, fresh]) g.release();
    // The running one of the same session is not replaced: it already started.
    expect(await Promise.all([pBusy, pOther, pNew])).toEqual(['busy', 'other', 'new']);
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start busy', 'start other', 'start new']);
  });

  it('times out a waiting job: removed before it starts, 504', async () => {
    const queue = new SayQueue(1);
    const log: string[] = [];
    const [busy, late] = [gate(log, 'busy'), gate(log, 'late')];
    const pBusy = queue.enqueue(busy);
    const err = await queue.enqueue({ ...late, timeoutMs: 50 }).catch((e: unknown) => e);
    expect(code(err)).toBe('timeout');
    expect(queue.length).toEqual({ waiting: 0, running: 1 });
    busy.release();
    await pBusy;
    expect(log).not.toContain('start late');
  });

  it('times out a running job by aborting its work, and moves on', async () => {
    const queue = new SayQueue(1);
    const log: string[] = [];
    const [slow, next] = [gate(log, 'slow'), gate(log, 'next')];
    const pSlow = queue.enqueue({ ...slow, timeoutMs: 50 }).catch((e: unknown) => e);
    const pNext = queue.enqueue(next);
    const err = await pSlow;
    expect(code(err)).toBe('timeout');
    expect((err as Error).message).toContain('timeout of 0.05 s');
    next.release();
    expect(await pNext).toBe('next');
  });

  it('drops a waiting job whose caller went away', async () => {
    const queue = new SayQueue(1);
    const log: string[] = [];
    const [busy, gone] = [gate(log, 'busy'), gate(log, 'gone')];
    const pBusy = queue.enqueue(busy);
    const caller = new AbortController();
    const pGone = queue.enqueue({ ...gone, signal: caller.signal }).catch((e: unknown) => e);
    caller.abort();
    expect(code(await pGone)).toBe('timeout');
    busy.release();
    await pBusy;
    expect(log).not.toContain('start gone');
  });

  it('refuses work beyond its waiting bound with 429', async () => {
    const queue = new SayQueue(1, 2);
    const log: string[] = [];
    const jobs = [gate(log, '1'), gate(log, '2'), gate(log, '3')];
    const running = jobs.map((j) => queue.enqueue(j));
    const err = await queue.enqueue(gate(log, '4')).catch((e: unknown) => e);
    expect(code(err)).toBe('rate_limited');
    expect((err as HearthError).headers['Retry-After']).toBe('5');
    for (const j of jobs) j.release();
    await Promise.all(running);
  });

  it('close() rejects waiting work and aborts running work', async () => {
    const queue = new SayQueue(1);
    const log: string[] = [];
    const results = [queue.enqueue(gate(log, 'a')), queue.enqueue(gate(log, 'b'))].map((p) => p.catch((e: unknown) => e));
    queue.close();
    const errs = await Promise.all(results);
    expect(errs.map(code)).toEqual(['unavailable', 'unavailable']);
    expect(code(await queue.enqueue(gate(log, 'c')).catch((e: unknown) => e))).toBe('unavailable');
  });
});
