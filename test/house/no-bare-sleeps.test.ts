/**
 * A test waits for a state (poll, waitUntil) or says why it waits (pause(ms, why)): a bare sleep
 * hides what it waits for and is the first thing to break on a slow machine. The files allowed
 * one say why here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const TEST = join(import.meta.dirname, '..');
const ALLOWED: Record<string, string> = {
  'helpers/poll.ts': 'pause() itself',
  'core/loop-lag.test.ts': 'it blocks and idles the event loop on purpose, to measure the lag sampler',
  'managers/devices/lamp-app.ts': "the lamp app's own code (a Homey app), not the test's",
  'managers/devices/mqtt.test.ts': "an MQTT app's own code (a Homey app), not the test's",
  'web/browser.ts': "the screenshot's settle for the layout, and frameAt's own poll",
  'house/no-bare-sleeps.test.ts': 'the patterns themselves',
};
const SLEEP = /new Promise\(\((\w+)\) => setTimeout\(\1, [\w_]+\)\)|waitForTimeout\(/;

it('no test sleeps without saying why', () => {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'artifacts' && e.name !== 'fixtures') walk(path);
      } else if (e.name.endsWith('.ts') && !ALLOWED[relative(TEST, path)]) {
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (SLEEP.test(line)) found.push(`${relative(TEST, path)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
  };
  walk(TEST);
  expect(found).toEqual([]);
});
