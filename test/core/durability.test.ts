import { describe, expect, it } from 'vitest';
import { startHub } from '../helpers/hub.js';
import { pause, waitUntil } from '../helpers/poll.js';
import { blockStoreWrites, readStoreDoc } from '../helpers/store-files.js';

describe('durability under SIGKILL', () => {
  for (const round of [1, 2, 3]) {
    it(`keeps every acknowledged write (round ${round})`, async () => {
      const hub = await startHub();
      try {
        const acked: string[] = [];
        let lastAckedCounter = -1;
        let stop = false;
        const creators = Array.from({ length: 6 }, async (_, lane) => {
          for (let i = 0; !stop; i++) {
            try {
              const res = await hub.call<{ id: string }>('POST', '/api/manager/tokens/token', {
                body: { name: `lane${lane}-${i}`, scopes: ['service.speech'] },
              });
              if (res.status === 201) acked.push(res.body.id);
            } catch {
              return; // the hub is gone
            }
          }
        });
        const counter = (async () => {
          for (let n = 0; !stop; n++) {
            try {
              const res = await hub.call('PUT', '/api/manager/geolocation/option/address', { body: { value: { n: String(n) } } });
              if (res.status === 200) lastAckedCounter = n;
            } catch {
              return;
            }
          }
        })();
        // Let writes pile up (counted, not timed: the machine may be slow), then kill without
        // warning at a point that differs per round: no flush, no handlers.
        await waitUntil(() => acked.length >= 20 * round, `${20 * round} writes acknowledged`, 60_000, 5);
        await pause(round * 7, 'a kill point that differs per round');
        await hub.kill('SIGKILL');
        stop = true;
        await Promise.all([...creators, counter]);

        expect(acked.length).toBeGreaterThanOrEqual(20 * round);
        const doc = await readStoreDoc<{
          tokens: Record<string, unknown>;
          options: { geolocation?: { address?: { n: string } } };
        }>(hub.dataDir);
        const missing = acked.filter((id) => !(id in doc.tokens));
        expect(missing).toEqual([]);
        const stored = Number(doc.options.geolocation?.address?.n ?? -1);
        // The value on disk is the last acknowledged one, or the one in flight after it.
        expect(stored).toBeGreaterThanOrEqual(lastAckedCounter);
        expect(stored).toBeLessThanOrEqual(lastAckedCounter + 1);

        const again = await startHub({ dataDir: hub.dataDir, appsDir: hub.appsDir });
        try {
          const list = await again.call<Record<string, unknown>>('GET', '/api/manager/tokens/token');
          expect(acked.filter((id) => !(id in list.body))).toEqual([]);
        } finally {
          await again.kill();
        }
      } finally {
        await hub.cleanup();
      }
    });
  }
});

describe('a write that fails in a running hub', () => {
  it('answers 500, and the change it refused is not what a GET then reads', async () => {
    const hub = await startHub();
    try {
      const path = '/api/manager/i18n/option/units';
      expect((await hub.call('PUT', path, { body: { value: 'imperial' } })).status).toBe(200);
      const unblock = await blockStoreWrites(hub.dataDir, hub.process.pid);
      const refused = await hub.call<{ error: string }>('PUT', path, { body: { value: 'metric' } });
      expect([refused.status, refused.body.error]).toEqual([500, 'internal_error']);
      expect((await hub.call('GET', path)).body).toEqual({ value: 'imperial' });
      await unblock();
      expect((await hub.call('PUT', path, { body: { value: 'metric' } })).status).toBe(200);
      expect((await hub.call('GET', path)).body).toEqual({ value: 'metric' });
    } finally {
      await hub.cleanup();
    }
  });
});
