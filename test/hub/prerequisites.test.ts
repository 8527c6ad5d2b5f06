/**
 * The README's two package lines (to run, to test) say what a fresh machine needs: the testing
 * line is exactly what CI installs, and running needs nothing the tests do not have.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/hub.js';

/** The packages of an `apt-get install` command (its flags and a trailing comment left out). */
function packages(command: string): string[] {
  const words = command.replace(/#.*$/, '').trim().split(/\s+/);
  const at = words.indexOf('install');
  return words
    .slice(at + 1)
    .filter((w) => !w.startsWith('-') && !w.startsWith('>'))
    .sort();
}

it("keeps the README's package lines in step with what CI installs", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const line = (purpose: string): string[] => {
    const found = readme.split('\n').find((l) => l.startsWith('sudo apt-get install') && l.endsWith(`# ${purpose}`));
    if (!found) throw new Error(`the README has no "sudo apt-get install ... # ${purpose}" line`);
    return packages(found);
  };
  // .ci/run's install command, its continued lines joined.
  const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8').split('\n');
  let at = ci.findIndex((l) => l.startsWith('apt-get install'));
  expect(at, '.ci/run installs Debian packages').toBeGreaterThanOrEqual(0);
  let ciCommand = ci[at]!;
  while (ciCommand.endsWith('\\')) ciCommand = `${ciCommand.slice(0, -1)} ${ci[++at]}`;
  const toTest = line('to test');
  expect(toTest).toEqual(packages(ciCommand));
  const toRun = line('to run');
  expect(toRun).toEqual(expect.arrayContaining(['bubblewrap', 'espeak-ng', 'alsa-utils']));
  expect(toRun.filter((p) => !toTest.includes(p))).toEqual([]);
});
