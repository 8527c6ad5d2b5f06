/**
 * The README's first calls, run as written (with this test hub's port and owner token file):
 * each answers, and none of them switches off the first-run setup the web app walks a new owner
 * through (the first version set the location, which counts as that setup).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, type RunningHub, startHub } from '../helpers/hub.js';

const exec = promisify(execFile);
let hub: RunningHub;

beforeAll(async () => {
  hub = await startHub({ ownerToken: null });
});
afterAll(async () => {
  await hub?.cleanup();
});

it("the README's first calls answer, and leave the first-run setup to the web app", async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /Make a first call with it:\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  const script = block!.replaceAll('localhost:8720', `127.0.0.1:${hub.port}`).replaceAll('data/owner-token', join(hub.dataDir, 'owner-token'));
  const answers = (await exec('bash', ['-euo', 'pipefail', '-c', script.replace(/\n(?=curl)/g, '\necho\n')])).stdout.split('\n').filter(Boolean);
  expect(answers.length).toBeGreaterThanOrEqual(3);
  for (const answer of answers) expect(() => JSON.parse(answer), answer).not.toThrow();
  expect(answers.some((a) => /error/.test(a))).toBe(false);
  const state = await hub.call<{ firstRun: boolean }>('GET', '/api/manager/system/state', {
    token: readFileSync(join(hub.dataDir, 'owner-token'), 'utf8').trim(),
  });
  expect(state.body.firstRun).toBe(true);
});
