/** The Web API's 72 operations, from test/fixtures/api.json: tests are driven from this file. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './hub.js';

export interface SpecParameter {
  name: string;
  in: 'path' | 'query' | 'body';
  type: string;
  required: boolean;
  root?: boolean;
}

export interface SpecOperation {
  manager: string;
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  scope: string | null;
  parameters: SpecParameter[];
  returns: { kind: string; resource?: string };
}

export interface Spec {
  operations: SpecOperation[];
  events: Record<string, string[]>;
}

/** The copy in the repository; HEARTH_SPEC points at another (a newer specification to check against). */
function specPath(): string {
  const path = process.env.HEARTH_SPEC ?? join(ROOT, 'test/fixtures/api.json');
  if (!existsSync(path)) throw new Error(`${path} not found: the Web API's operation list`);
  return path;
}

export const SPEC: Spec = JSON.parse(readFileSync(specPath(), 'utf8')) as Spec;

/** A concrete path for a spec path, with every `:param` filled in. */
export function concretePath(op: SpecOperation, fill = 'x'): string {
  return op.path.replace(/:([A-Za-z]+)/g, fill);
}

/**
 * Where the seed lists no scope but the hub decided one (docs/decisions.md, "No scope listed
 * means internal"): a value only the hub should write is not open to every token.
 */
export const DECIDED_SCOPES: Readonly<Record<string, string>> = {
  setOptionLastSuccessfulBackup: 'SYSTEM',
  unsetOptionLastSuccessfulBackup: 'SYSTEM',
};

/** The scope the hub asks of an operation: the seed's, or the one decided where it lists none. */
export const hubScope = (op: SpecOperation): string | null => DECIDED_SCOPES[op.operationId] ?? op.scope;
