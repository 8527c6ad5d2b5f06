/**
 * Tests run the built hub (dist/): after an edit of src/ a test would otherwise try what dist/
 * held before it. So a run first builds when a source is newer than the last complete build,
 * with the same check `npm start` makes (scripts/build-if-stale.mjs); `npm test` has just built,
 * and the check costs a few milliseconds then.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export default function setup(): void {
  // Once a run, though vitest calls a global setup once per project.
  if (process.env.HEARTH_TEST_BUILT) return;
  process.env.HEARTH_TEST_BUILT = '1';
  const root = join(import.meta.dirname, '../..');
  const run = spawnSync(process.execPath, [join(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`the build before the tests failed (exit ${run.status ?? run.signal}): fix it, or run npm run build to see why`);
}
