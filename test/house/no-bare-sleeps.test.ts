/**
 * A test waits for a state (poll, waitUntil) or says why it waits (pause(ms, why)): a bare sleep
 * hides what it waits for and is the first thing to break on a slow machine. The files allowed
 * one say why here.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { linesMatching } from './lines.js';

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
  const found = linesMatching(TEST, SLEEP, (rel) => rel.endsWith('.ts') && !ALLOWED[rel], ['artifacts', 'fixtures']);
  expect(found).toEqual([]);
});
