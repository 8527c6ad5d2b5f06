/**
 * One line naming what a schema refused, for messages about data from files, apps and stores
 * (HTTP input has its own, field-by-field wording in http/input.ts).
 */
import type { z } from 'zod';
import { issueKey } from './null-prototype.js';

/**
 * @example describeIssues(err, 'app.json') // "app.json version: Invalid string; app.json sdk: ..."
 */
export function describeIssues(error: z.ZodError, prefix = '', max = 5): string {
  return error.issues
    .slice(0, max)
    .map((i) => `${[prefix, i.path.map(issueKey).join('.')].filter(Boolean).join(' ')}: ${i.message}`)
    .join('; ');
}
