/**
 * Holds the operation tables against test/fixtures/api.json through the OpenAPI document the
 * running hub generates from them: same operation ids, methods, paths and scopes; a seed
 * operation missing from a manager, or an extra one not marked as an extension, fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractOperations } from '../../src/core/contract.js';
import { CONTRACTS } from '../../src/managers/contracts.js';
import { type RunningHub, startHub } from '../helpers/hub.js';
import { DECIDED_SCOPES, hubScope, SPEC } from '../helpers/spec.js';

interface OpenApiOperation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
  security: Array<Record<string, string[]>>;
  'x-hearth-extension'?: boolean;
}
type OpenApiDoc = { openapi: string; paths: Record<string, Record<string, OpenApiOperation>>; 'x-hearth-events': Record<string, Record<string, object[]>> };

const toOpenApiPath = (p: string): string => p.replace(/:([A-Za-z]+)/g, '{$1}');
const SEED_MANAGERS = [...new Set(SPEC.operations.map((o) => o.manager))];

let hub: RunningHub;
let doc: OpenApiDoc;

beforeAll(async () => {
  hub = await startHub();
  const res = await hub.call<OpenApiDoc>('GET', '/api/openapi.json', { token: null });
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => hub.cleanup());

describe('the operation tables against the seed', () => {
  it('is an OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('covers 72 seed operations in 8 managers', () => {
    expect(SPEC.operations).toHaveLength(72);
    expect(SEED_MANAGERS).toHaveLength(8);
  });

  it('decides a scope only where the seed lists none', () => {
    for (const id of Object.keys(DECIDED_SCOPES)) expect(SPEC.operations.find((o) => o.operationId === id)?.scope ?? null).toBeNull();
  });

  for (const op of SPEC.operations) {
    const scope = hubScope(op);
    it(`${op.manager} ${op.operationId}: ${op.method} ${op.path} needs ${scope ?? 'only a token'}`, () => {
      const entry = doc.paths[toOpenApiPath(op.path)]?.[op.method.toLowerCase()];
      expect(entry, `${op.method} ${op.path} is not mounted`).toBeDefined();
      expect(entry!.operationId).toBe(op.operationId);
      expect(entry!.security).toEqual([{ bearer: scope ? [scope] : [] }]);
      expect(entry!['x-hearth-extension']).toBeUndefined();
    });
  }

  it('has no operation in a seed manager that the seed lacks, unless marked as an extension', () => {
    const seedKeys = new Set(SPEC.operations.map((o) => `${o.method} ${toOpenApiPath(o.path)}`));
    const extra: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      const manager = /^\/api\/manager\/([^/]+)/.exec(path)?.[1];
      if (!manager || !SEED_MANAGERS.includes(manager)) continue;
      for (const [method, entry] of Object.entries(methods)) {
        if (!seedKeys.has(`${method.toUpperCase()} ${path}`) && !entry['x-hearth-extension']) extra.push(`${method} ${path}`);
      }
    }
    expect(extra).toEqual([]);
  });

  it("declares every event of the specification's list in its manager's event contract, with a schema per argument", () => {
    const declared = doc['x-hearth-events'];
    for (const [manager, events] of Object.entries(SPEC.events)) {
      expect(Object.keys(declared[manager] ?? {}), manager).toEqual(expect.arrayContaining(events));
      for (const event of events) expect(declared[manager]![event]!.length, `${manager} ${event}`).toBeGreaterThan(0);
    }
  });

  it("serves exactly the contracts' operations (the web app's routes are made from the same tables)", () => {
    const served = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, entry]) => `${method.toUpperCase()} ${path} ${entry.operationId}`),
    );
    const declared = Object.values(CONTRACTS).flatMap((c) =>
      Object.entries(contractOperations(c)).map(([id, op]) => `${op.method} ${toOpenApiPath(`/api/manager/${c.name}${op.path}`)} ${id}`),
    );
    expect(served.sort()).toEqual(declared.sort());
    expect(served.length).toBeGreaterThan(72);
  });

  it('documents the answer of every operation: a schema, a binary type, or no body (204)', () => {
    const undocumented: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, entry] of Object.entries(methods)) {
        const [status, success] = Object.entries(entry.responses).find(([code]) => code.startsWith('2'))!;
        if (status === '204') continue;
        const schema = Object.values(success.content ?? {})[0]?.schema;
        if (!schema || Object.keys(schema).length === 0) undocumented.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(undocumented).toEqual([]);
  });
});
