/**
 * The daemon's node flags and environment are the same wherever it is started for real (the
 * systemd unit, `npm start`) and where the benches start it (scripts/bench/lib.mjs), so a figure
 * measured is the hub a device runs; and its apps run with its V8 flags.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DAEMON_ENV, DAEMON_NODE_FLAGS } from '../../scripts/bench/lib.mjs';
import { childExecArgv } from '../../src/apps/host/child-command.js';
import { ROOT } from '../helpers/hub.js';

/** The words between `node` and the CLI's path in a command line. */
function flagsOf(command: string): string[] {
  const words = command.trim().split(/\s+/);
  const node = words.lastIndexOf(
    'node',
    words.findIndex((w) => w.endsWith('dist/cli.js')),
  );
  const cli = words.findIndex((w) => w.endsWith('dist/cli.js'));
  if (node < 0 || cli < 0) throw new Error(`no 'node ... dist/cli.js' in: ${command}`);
  return words.slice(node + 1, cli);
}

it('starts the daemon with the same node flags in the unit, npm start and the benches', () => {
  expect(DAEMON_NODE_FLAGS).toContain('--v8-pool-size=1');
  const unit = readFileSync(join(ROOT, 'systemd/hearth.service'), 'utf8');
  const execStart = unit.split('\n').find((l) => l.startsWith('ExecStart='))!;
  expect(flagsOf(execStart.slice('ExecStart='.length))).toEqual(DAEMON_NODE_FLAGS);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  expect(flagsOf(pkg.scripts.start.split('&&').pop()!)).toEqual(DAEMON_NODE_FLAGS);
});

/** The `NAME=value` words before `node` in a command line. */
function envOf(command: string): Record<string, string> {
  const words = command.trim().split(/\s+/);
  return Object.fromEntries(words.slice(0, words.indexOf('node')).map((w) => w.split('=', 2) as [string, string]));
}

it('starts the daemon with the same environment in the unit, npm start and the benches', () => {
  expect(DAEMON_ENV).toEqual({ MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '131072' });
  const unit = readFileSync(join(ROOT, 'systemd/hearth.service'), 'utf8');
  const set = Object.fromEntries(
    unit
      .split('\n')
      .filter((l) => l.startsWith('Environment='))
      .map((l) => l.slice('Environment='.length).split('=', 2) as [string, string]),
  );
  for (const [name, value] of Object.entries(DAEMON_ENV)) expect(set[name]).toBe(value);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  expect(envOf(pkg.scripts.start.split('&&').pop()!)).toEqual(DAEMON_ENV);
});

it("runs every app's node with the daemon's V8 flags (one background thread each, not four)", () => {
  const argv = childExecArgv({ dir: '/srv/apps/com.example', userdata: '/srv/data/apps/com.example/userdata', readPaths: [] }, 64);
  for (const flag of DAEMON_NODE_FLAGS) expect(argv).toContain(flag);
});
