/**
 * Tokens and scopes beyond one operation: scope implications, granting, revoking, the
 * failed-authentication limit, and the routing of every seed path. (401 and 403 for every
 * operation, seed and added, in the order auth -> scope -> validation: scope-matrix.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub } from '../helpers/hub.js';
import { concretePath, SPEC } from '../helpers/spec.js';

let hub: RunningHub;

async function createToken(scopes: string[]): Promise<string> {
  const res = await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: scopes.join('+'), scopes } });
  expect(res.status).toBe(201);
  return res.body.token;
}

beforeAll(async () => {
  // Revoked and wrong tokens are tried here; the limit's own tests start hubs of their own.
  hub = await startHub({ env: { HEARTH_AUTH_FAILURE_LIMIT: '100000' } });
});
afterAll(() => hub.cleanup());

describe('scope implications', () => {
  it('service.X covers service.X.readonly but not service.X.control', async () => {
    const system = await createToken(['service.system']);
    expect((await hub.call('GET', '/api/manager/i18n/state', { token: system })).status).toBe(200);
    const app = await createToken(['service.app']);
    const res = await hub.call('GET', '/api/manager/geolocation/option/location', { token: app });
    expect(res.status).toBe(403);
  });

  it('a token cannot grant scopes it does not hold', async () => {
    const system = await createToken(['SYSTEM']);
    const res = await hub.call<{ error: string }>('POST', '/api/manager/tokens/token', {
      token: system,
      body: { name: 'escalate', scopes: ['*'] },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('missing_scope');
  });

  it('a revoked token is refused at once', async () => {
    const created = await hub.call<{ id: string; token: string }>('POST', '/api/manager/tokens/token', {
      body: { name: 'short-lived', scopes: ['service.system.readonly'] },
    });
    expect((await hub.call('GET', '/api/manager/i18n/state', { token: created.body.token })).status).toBe(200);
    expect((await hub.call('DELETE', `/api/manager/tokens/token/${created.body.id}`)).status).toBe(204);
    expect((await hub.call('GET', '/api/manager/i18n/state', { token: created.body.token })).status).toBe(401);
  });

  it('lists tokens without their secrets or hashes', async () => {
    const res = await hub.call<Record<string, Record<string, unknown>>>('GET', '/api/manager/tokens/token');
    expect(res.status).toBe(200);
    for (const t of Object.values(res.body)) {
      expect(Object.keys(t).sort()).toEqual(['createdAt', 'id', 'name', 'owner', 'scopes', 'session', 'userId', 'zones']);
    }
  });

  it('refuses to revoke the owner token', async () => {
    const list = await hub.call<Record<string, { id: string; owner: boolean }>>('GET', '/api/manager/tokens/token');
    const owner = Object.values(list.body).find((t) => t.owner)!;
    const res = await hub.call('DELETE', `/api/manager/tokens/token/${owner.id}`);
    expect(res.status).toBe(409);
  });
});

describe('failed-authentication rate limit', () => {
  it('answers 429 with Retry-After once an address passes the limit', async () => {
    const limited = await startHub({ env: { HEARTH_AUTH_FAILURE_LIMIT: '3' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.call('GET', '/api/manager/i18n/state', { token: `hth_guess${i}` })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const res = await limited.call('GET', '/api/manager/i18n/state', { token: 'hth_guess' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.cleanup();
    }
  });

  it('never locks out a valid token from the same address: the owner and another token still pass', async () => {
    const limited = await startHub({ env: { HEARTH_AUTH_FAILURE_LIMIT: '3' } });
    try {
      const created = await limited.call<{ token: string }>('POST', '/api/manager/tokens/token', {
        body: { name: 'kitchen', scopes: ['service.system.readonly'] },
      });
      expect(created.status).toBe(201);
      for (let i = 0; i < 6; i++) await limited.call('GET', '/api/manager/i18n/state', { token: `hth_guess${i}` });
      expect((await limited.call('GET', '/api/manager/i18n/state', { token: 'hth_guess-again' })).status).toBe(429);
      expect((await limited.call('GET', '/api/manager/i18n/state')).status).toBe(200);
      expect((await limited.call('GET', '/api/manager/i18n/state', { token: created.body.token })).status).toBe(200);
      // ...and the lockout still holds for the guesser after those successes.
      expect((await limited.call('GET', '/api/manager/i18n/state', { token: 'hth_guess-once-more' })).status).toBe(429);
    } finally {
      await limited.cleanup();
    }
  });
});

describe('routing of every seed path', () => {
  for (const op of SPEC.operations) {
    it(`${op.method} ${op.path} is reached with and without a trailing slash`, async () => {
      for (const variant of [concretePath(op).replace(/\/$/, ''), `${concretePath(op).replace(/\/$/, '')}/`]) {
        // The owner passes auth and scope; whatever the operation answers, the router found it.
        const res = await hub.call<{ error?: string; error_description?: string }>(op.method, variant, {});
        expect(res.status, `${op.method} ${variant}`).not.toBe(405);
        expect(res.body.error_description ?? '', `${op.method} ${variant}`).not.toMatch(/^no such path/);
        expect(res.status).toBeLessThan(500);
      }
    });
  }
});
