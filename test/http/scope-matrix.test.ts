/**
 * The scope matrix of every operation the hub serves (its OpenAPI document: the seed's of
 * test/fixtures/api.json and every one added since): 401 without a token or with an unknown one,
 * 403 naming the scope to a token without it, both before the input is looked at (the fixed
 * order auth -> scope -> validation: a caller without the scope never learns whether its input
 * was valid); an operation with no scope lets any valid token past authorization. A seed
 * operation asks the seed's scope (or the one decided where it lists none).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SCOPES } from '../../src/core/roles.js';
import { grants, type Scope } from '../../src/core/scopes.js';
import { type CallOptions, type RunningHub, startHub } from '../helpers/hub.js';
import { hubOperations } from '../helpers/hub-operations.js';
import { concretePath, hubScope, SPEC } from '../helpers/spec.js';
import { addPerson } from '../managers/users/helpers.js';

const { operations, noToken } = await hubOperations();

let hub: RunningHub;
let speechOnly: string;
let dashboardReader: string;

beforeAll(async () => {
  hub = await startHub({ env: { HEARTH_AUTH_FAILURE_LIMIT: '100000' } });
  const token = async (scopes: string[]) =>
    (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: scopes.join('+'), scopes } })).body.token;
  speechOnly = await token(['service.speech']);
  dashboardReader = await token(['service.dashboard.readonly']);
});
afterAll(() => hub.cleanup());

describe('the operations', () => {
  it('are every seed operation and the ones added since', () => {
    const served = new Set(operations.map((o) => o.operationId));
    expect(SPEC.operations.filter((o) => !served.has(o.operationId)).map((o) => o.operationId)).toEqual([]);
    for (const manager of ['devices', 'drivers', 'zones', 'flow', 'flowtoken', 'logic'])
      expect(
        operations.some((o) => o.manager === manager),
        manager,
      ).toBe(true);
  });

  it("ask the seed's scope where the seed has them", () => {
    const byId = new Map(operations.map((o) => [`${o.manager} ${o.operationId}`, o]));
    const differing = SPEC.operations
      .filter((s) => byId.get(`${s.manager} ${s.operationId}`)?.scope !== hubScope(s))
      .map((s) => `${s.operationId}: ${byId.get(`${s.manager} ${s.operationId}`)?.scope} (seed ${hubScope(s)})`);
    expect(differing).toEqual([]);
  });
});

// Operations without auth (ping, redeeming a sign-in code) have their own tests.
for (const op of operations.filter((o) => !noToken.has(o.operationId)))
  describe(`${op.manager} ${op.operationId}`, () => {
    const path = concretePath(op);
    const invalidBody: CallOptions = op.method === 'GET' ? { headers: {} } : { rawBody: '{"not": valid json', headers: { 'content-type': 'application/json' } };

    it('answers 401 without a token, and with an unknown one', async () => {
      const res = await hub.call<{ error: string; statusCode: number }>(op.method, path, { token: null, ...invalidBody });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'unauthorized', statusCode: 401 });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await hub.call(op.method, path, { token: 'hth_not-a-token', ...invalidBody })).status).toBe(401);
    });

    const scope = op.scope;
    if (scope) {
      it(`answers 403 naming '${scope}' to a token without it, before looking at the input`, async () => {
        const token = scope === 'service.speech' ? dashboardReader : speechOnly;
        const res = await hub.call<{ error: string; error_description: string }>(op.method, path, { token, ...invalidBody });
        expect(res.status).toBe(403);
        expect(res.body.error).toBe('missing_scope');
        expect(res.body.error_description).toContain(`'${scope}'`);
      });
    } else {
      it('lets any valid token past authorization', async () => {
        const res = await hub.call(op.method, path, { token: speechOnly });
        expect([401, 403]).not.toContain(res.status);
      });
    }
  });

/**
 * Every operation for every role a person can have (core/roles.ts): a person's session signed in
 * from their link answers 403 exactly where the role's scopes do not grant the operation's scope,
 * and passes authorization where they do.
 */
describe('every operation for every role', () => {
  const roles = ['manager', 'user', 'guest'] as const;
  const sessions = new Map<string, string>();
  beforeAll(async () => {
    // The guest is given the whole home: what its role's scopes let it do is what is asked here.
    const root = Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/zones/zone')).body)[0]!;
    for (const role of roles) sessions.set(role, (await addPerson(hub, `A ${role}`, role, role === 'guest' ? { zones: [root] } : {})).token);
  });

  for (const role of roles)
    it(`a ${role}'s session is refused exactly the operations its role does not grant`, async () => {
      const token = sessions.get(role)!;
      const wrong: string[] = [];
      // Leaving the home would end the session the rest of the matrix runs on.
      for (const op of operations.filter((o) => !noToken.has(o.operationId) && o.operationId !== 'deleteUserMe')) {
        const invalidBody: CallOptions = op.method === 'GET' ? {} : { rawBody: '{"not": valid json', headers: { 'content-type': 'application/json' } };
        const res = await hub.call(op.method, concretePath(op), { token, ...invalidBody });
        const granted = op.scope === null || grants(ROLE_SCOPES[role], op.scope as Scope);
        if ((res.status === 403) === granted || res.status === 401) wrong.push(`${op.manager} ${op.operationId} (${op.scope}): ${res.status}`);
      }
      expect(wrong).toEqual([]);
    });
});
