/**
 * Every temp folder of a test run goes under one root that is removed when the run ends: the
 * suites (and the hubs, apps and browsers they start, which inherit TMPDIR) make hundreds of
 * folders, and a machine that runs the suite daily should not keep them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'hearth-test-run-'));
  // Read by os.tmpdir() in the workers and in every process they start.
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
