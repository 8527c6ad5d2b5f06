/** The hub's event-loop lag sampler (src/core/loop-lag.ts): it sees a blocked loop. */
import { describe, expect, it } from 'vitest';
import { LoopLag } from '../../src/core/loop-lag.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('LoopLag', () => {
  it('reports a loop blocked for 300 ms as a lag of most of that, then starts over', async () => {
    const lag = new LoopLag(20);
    lag.start();
    try {
      await sleep(60); // a few samples of an idle loop
      const until = performance.now() + 300;
      while (performance.now() < until) {
        // the loop is blocked: no timer can fire
      }
      await sleep(60);
      expect(lag.takeP99()).toBeGreaterThanOrEqual(250);
      expect(lag.takeP99()).toBe(0); // taken: nothing since
    } finally {
      lag.stop();
    }
  });
});
