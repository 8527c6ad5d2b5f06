/**
 * Every operation the hub serves under /api/manager/, read from its own OpenAPI document, in the
 * shape of the seed's operations (helpers/spec.ts): the seed's and every one added since
 * (devices, drivers, zones, flow, flowtoken, logic, options, ...). Tests that must hold for every
 * operation (the scope matrix, the fuzz) take them from here, so an operation added tomorrow is
 * in them without anyone remembering.
 */

import { startHub } from './hub.js';
import type { SpecOperation, SpecParameter } from './spec.js';

interface OpenApiOperation {
  operationId: string;
  security?: Array<{ bearer?: string[] }>;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: unknown;
}

/** The operations of a hub's OpenAPI document (`doc`), as SpecOperations. */
export function operationsOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    const m = /^\/api\/manager\/([^/]+)\//.exec(path);
    if (!m) continue;
    for (const [method, op] of Object.entries(methods)) {
      const parameters: SpecParameter[] = [
        ...(op.parameters ?? [])
          .filter((p) => p.in === 'path' || p.in === 'query')
          .map((p) => ({ name: p.name, in: p.in as 'path' | 'query', type: 'string', required: p.required ?? false })),
        ...(op.requestBody ? [{ name: 'body', in: 'body' as const, type: 'object', required: false }] : []),
      ];
      out.push({
        manager: m[1]!,
        operationId: op.operationId,
        method: method.toUpperCase() as SpecOperation['method'],
        path: path.replace(/\{(\w+)\}/g, ':$1'),
        // `security: []` is an operation without auth (ping); a bearer with no scope is any token.
        scope: op.security?.[0]?.bearer?.[0] ?? null,
        parameters,
        returns: { kind: 'unknown' },
      });
    }
  }
  return out;
}

/** Whether an operation of the document needs no token at all. */
export const needsNoToken = (doc: { paths: Record<string, Record<string, OpenApiOperation>> }, op: SpecOperation): boolean =>
  (doc.paths[op.path.replace(/:(\w+)/g, '{$1}')]?.[op.method.toLowerCase()]?.security ?? [{}]).length === 0;

/** Starts a hub for a moment and reads every operation it serves (for a test's table, at collection). */
export async function hubOperations(): Promise<{ operations: SpecOperation[]; noToken: Set<string> }> {
  const hub = await startHub();
  try {
    const doc = (await hub.call<{ paths: Record<string, Record<string, OpenApiOperation>> }>('GET', '/api/openapi.json')).body;
    const operations = operationsOf(doc);
    return { operations, noToken: new Set(operations.filter((o) => needsNoToken(doc, o)).map((o) => o.operationId)) };
  } finally {
    await hub.cleanup();
  }
}
