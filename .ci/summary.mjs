// Prints what one vitest run of .ci/run came to: a count line, then every failed test (and every
// file that failed outside a test, such as a hook timeout) with the first lines of its error.
// CI keeps only the tail of its output, and the Node 22 run comes last: the failures of the run
// before it are printed again at the very end, or they would be out of sight.
// Usage: node .ci/summary.mjs <report.json> <label> [<report.json> <label> ...]
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 2) {
  const [file, label] = [args[i], args[i + 1]];
  if (!existsSync(file)) {
    console.log(`vitest (${label}): no report (the run did not get to its tests: see the build, typecheck or lint above)`);
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`vitest (${label}): ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  for (const f of r.testResults) {
    const name = f.name.replace(/^.*?\/test\//, 'test/');
    const failed = f.assertionResults.filter((t) => t.status === 'failed');
    for (const t of failed) console.log(`  FAILED ${name} > ${t.fullName}\n${excerpt(t.failureMessages.join('\n'))}`);
    if (f.status === 'failed' && failed.length === 0) console.log(`  FAILED ${name} (outside its tests)\n${excerpt(f.message)}`);
  }
}

/** The first lines of an error, indented, without colour codes. */
function excerpt(text) {
  return (text ?? '')
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .slice(0, 8)
    .map((line) => `    ${line.slice(0, 300)}`)
    .join('\n');
}
