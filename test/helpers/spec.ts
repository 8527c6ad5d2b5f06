/** The seed's operations, read from shared/spec/api.json: tests are driven from this file. */
import { readFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
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

/** shared/ sits beside the checkout (../shared), as in CI; HEARTH_SPEC overrides. */
function specPath(): string {
  const candidates = [process.env.HEARTH_SPEC, join(ROOT, '../shared/spec/api.json'), join(ROOT, 'test/fixtures/api.json')];
  const found = candidates.find((p): p is string => p !== undefined && existsSync(p));
  if (!found) throw new Error('shared/spec/api.json not found beside the checkout');
  return found;
}

export const SPEC: Spec = JSON.parse(readFileSync(specPath(), 'utf8')) as Spec;

/** A concrete path for a spec path, with every `:param` filled in. */
export function concretePath(op: SpecOperation, fill = 'x'): string {
  return op.path.replace(/:([A-Za-z]+)/g, fill);
}
