/**
 * Apps start a few at a time (one a core by default): more forked at once on a small board share
 * its cores, and each one's start timeout runs out while it waits for them (seen under arm
 * emulation: five apps after an upgrade missed their 15 s, together, again and again). Apps here
 * hold their onInit until the test says go, so who has begun shows who has a turn.
 */
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { StartGate } from '../../src/apps/host/start-gate.js';
import { pause } from '../helpers/poll.js';
import { assertBuilt, homeyApp, removeAll, startRuntime, type TestRuntime, tempDir, writeApp } from './helpers.js';

let appsDir: string;
let dataDir: string;
let t: TestRuntime | undefined;

beforeAll(assertBuilt);
beforeEach(async () => {
  appsDir = await tempDir('hearth-apps-');
  dataDir = await tempDir('hearth-data-');
});
afterEach(async () => {
  await t?.close();
  t = undefined;
  await removeAll(appsDir, dataDir);
});

/** Says it began, then finishes its onInit only when its setting `go` is set. */
const HELD = homeyApp(`
  async onInit() {
    this.homey.settings.set('began', true);
    await new Promise((resolve) => this.homey.settings.on('set', (key) => { if (key === 'go') resolve(); }));
  }`);
const IDS = ['com.test.first', 'com.test.second', 'com.test.third'];

async function began(): Promise<string[]> {
  return IDS.filter((id) => t?.rt.settings.get(id, 'began') === true);
}

it('starts two apps at a time with two turns: the third forks only when one of them is ready', async () => {
  for (const id of IDS) await writeApp(appsDir, id, { code: HELD });
  t = await startRuntime({ appsDir, dataDir, supervisor: { startsAtOnce: 2 } });
  const [a, b] = await waitBegun(2);
  await pause(1_500, 'time enough for a third fork to begin if it were let');
  expect((await began()).length).toBe(2);
  // All three show starting: the waiting one too, as a person would say of it.
  expect(IDS.map((id) => t?.rt.get(id).state)).toEqual(['starting', 'starting', 'starting']);

  await t.rt.settings.set(a!, 'go', true);
  await t.until(a!, (app) => app.ready, 'ready');
  const third = IDS.find((id) => id !== a && id !== b)!;
  await t.setting(third, 'began');
  for (const id of [b!, third]) await t.rt.settings.set(id, 'go', true);
  for (const id of IDS) await t.until(id, (app) => app.ready, 'ready');
});

it('an app stopped while it waits for its turn stops at once and takes no turn', async () => {
  for (const id of IDS) await writeApp(appsDir, id, { code: HELD });
  t = await startRuntime({ appsDir, dataDir, supervisor: { startsAtOnce: 1 } });
  const [first] = await waitBegun(1);
  const waiting = IDS.filter((id) => id !== first);
  await t.rt.pause(waiting[0]!);
  expect(t.rt.get(waiting[0]!)).toMatchObject({ state: 'stopped', ready: false, crashed: false });
  await t.rt.settings.set(first!, 'go', true);
  // The turn passes to the one still wanted, not the one paused.
  await t.setting(waiting[1]!, 'began');
  await t.rt.settings.set(waiting[1]!, 'go', true);
  await t.until(waiting[1]!, (app) => app.ready, 'ready');
  expect(t.rt.settings.get(waiting[0]!, 'began')).toBeNull();
  expect(t.rt.get(waiting[0]!).state).toBe('stopped');
});

it('the gate frees a turn once however often it is released, and refuses no slots', async () => {
  expect(() => new StartGate(0)).toThrow('an app start gate needs at least one slot, not 0');
  const gate = new StartGate(1);
  const release = await gate.enter(new AbortController().signal);
  const waits = [gate.enter(new AbortController().signal), gate.enter(new AbortController().signal)];
  expect(gate.queued).toBe(2);
  release!();
  release!();
  const second = await waits[0]!;
  expect(gate.queued).toBe(1);
  second!();
  expect(typeof (await waits[1])).toBe('function');
});

async function waitBegun(n: number): Promise<string[]> {
  for (let i = 0; i < 600; i++) {
    const now = await began();
    if (now.length >= n) return now;
    await pause(50, 'the apps forking');
  }
  throw new Error(`${n} apps never began: ${JSON.stringify(await began())}`);
}
