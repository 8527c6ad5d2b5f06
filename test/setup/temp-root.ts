/**
 * Every temp folder of a test run goes under one root that is removed when the run ends: the
 * suites (and the hubs, apps and browsers they start, which inherit TMPDIR) make hundreds of
 * folders, and a machine that runs the suite daily should not keep them. Vitest runs a global
 * setup once per project: the first makes the root, the others use it (a root inside a root
 * made Unix socket paths too long for the kernel).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  if (process.env.HEARTH_TEST_RUN_ROOT) return () => undefined;
  const root = mkdtempSync(join(tmpdir(), 'hearth-test-run-'));
  process.env.HEARTH_TEST_RUN_ROOT = root;
  // Read by os.tmpdir() in the workers and in every process they start.
  process.env.TMPDIR = root;
  return () => {
    delete process.env.HEARTH_TEST_RUN_ROOT;
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
