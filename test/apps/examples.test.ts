/**
 * The example apps shipped in examples/ arrive in the apps folder a hub makes, and run under a
 * real hub: the system monitor records into insights, the greeter answers its widget's
 * autocomplete, follows its settings, counts its greetings in insights and tells its widgets.
 */

import { cp, mkdir, readdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAppsFolder } from '../../src/apps/host/examples.js';
import type { RealtimeEvent } from '../../src/apps/host/realtime.js';
import { EventBus } from '../../src/core/events.js';
import { serveSdk } from '../../src/managers/insights/sdk.js';
import { InsightsService } from '../../src/managers/insights/service.js';
import { type RunningHub, startHub } from '../helpers/hub.js';
import { poll, waitUntil } from '../helpers/poll.js';
import { assertBuilt, ROOT, removeAll, startRuntime, type TestRuntime, tempDir } from './helpers.js';

/** The example apps, copied: the hub links its SDK into the apps folder it runs, which must not be the checkout's. */
async function exampleApps(): Promise<string> {
  const dir = await tempDir('hearth-examples-');
  await cp(join(ROOT, 'examples'), dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
  return dir;
}

type App = { id: string; state: string; ready: boolean; crashed: boolean; crashedMessage: string | null };

describe('the apps folder a hub makes', () => {
  it('gets the example apps; a folder that exists gets nothing, even when empty', async () => {
    const dir = await tempDir('hearth-examples-');
    try {
      expect(await makeAppsFolder(join(dir, 'apps'), join(ROOT, 'examples'))).toEqual([
        'com.hearth.greeter',
        'com.hearth.matter',
        'com.hearth.sysmon',
        'com.hearth.virtual',
        'com.hearth.zigbee2mqtt',
      ]);
      expect((await readdir(join(dir, 'apps'))).sort()).toEqual([
        'com.hearth.greeter',
        'com.hearth.matter',
        'com.hearth.sysmon',
        'com.hearth.virtual',
        'com.hearth.zigbee2mqtt',
      ]);
      await mkdir(join(dir, 'mine'));
      await writeFile(join(dir, 'mine', 'note.txt'), 'mine');
      expect(await makeAppsFolder(join(dir, 'mine'), join(ROOT, 'examples'))).toEqual([]);
      expect(await readdir(join(dir, 'mine'))).toEqual(['note.txt']);
    } finally {
      await removeAll(dir);
    }
  });
});

describe('example apps on a real hub', () => {
  let hub: RunningHub;
  let appsDir: string;
  let parent: string;
  beforeAll(async () => {
    assertBuilt();
    // A hub started on an apps folder that is not there yet makes it, with the example apps.
    parent = await tempDir('hearth-examples-');
    appsDir = join(parent, 'apps');
    hub = await startHub({ args: ['--apps-dir', appsDir] });
  });
  afterAll(async () => {
    await hub?.cleanup();
    await removeAll(parent);
  });

  it('starts both and the system monitor writes its CPU load into insights', async () => {
    const apps = await poll(
      async () => (await hub.call<Record<string, App>>('GET', '/api/manager/apps/app')).body,
      (a) => a['com.hearth.sysmon']?.ready === true && a['com.hearth.greeter']?.ready === true,
      'both example apps ready',
    );
    expect(apps['com.hearth.sysmon']).toMatchObject({ state: 'running', ready: true, crashed: false });
    expect(apps['com.hearth.greeter']).toMatchObject({ state: 'running', ready: true, crashed: false });
    const before = loadavg()[0]! / cpus().length;
    const value = await poll(
      async () =>
        (await hub.call<Record<string, { lastValue: unknown }>>('GET', '/api/manager/insights/log')).body['homey:app:com.hearth.sysmon:cpu-load']?.lastValue,
      (v) => typeof v === 'number',
      'a cpu-load value in insights',
    );
    const after = loadavg()[0]! / cpus().length;
    // The app records this machine's 1-minute load per core (the same kernel), to 2 decimals:
    // between the readings taken around it, give or take what a minute's average moves meanwhile.
    expect(value as number).toBeGreaterThanOrEqual(Math.min(before, after) - 0.5);
    expect(value as number).toBeLessThanOrEqual(Math.max(before, after) + 0.5);
  });

  it('serves the greeter locales', async () => {
    const r = await hub.call<Record<string, { greeting: Record<string, Record<string, string>> }>>('GET', '/api/manager/apps/app/com.hearth.greeter/locale');
    expect(r.body.en?.greeting.formal?.morning).toBe('Good morning, __name__.');
    expect(r.body.nl?.greeting.casual?.afternoon).toBe('Hoi __name__!');
  });
});

describe('greeter through the runtime', () => {
  let t: TestRuntime;
  let appsDir: string;
  let dataDir: string;
  let insights: InsightsService;
  const said: string[] = [];
  const realtime: RealtimeEvent[] = [];
  beforeAll(async () => {
    assertBuilt();
    appsDir = await exampleApps();
    dataDir = await tempDir('hearth-data-');
    insights = new InsightsService({ dataDir, zone: 'UTC', bus: new EventBus(), log: pino({ level: 'silent' }) });
    insights.start();
    t = await startRuntime({
      appsDir,
      dataDir,
      setup: (rt) => {
        serveSdk(rt.router, insights);
        rt.router.handle('speech.say', (_app, { text }) => {
          said.push(text);
          return null;
        });
      },
      realtime: (event) => realtime.push(event),
    });
  });
  afterAll(async () => {
    await t?.close();
    insights?.stop();
    await removeAll(appsDir, dataDir);
  });

  it('answers autocomplete for its widget setting', async () => {
    await t.until('com.hearth.greeter', (a) => a.ready, 'ready');
    const r = await t.rt.calls.autocomplete('com.hearth.greeter', { widgetId: 'greeting', settingId: 'person', query: 'gr', settings: {} });
    expect(r).toEqual([{ id: 'grace', name: 'Grace', description: 'Hopper' }]);
    await expect(t.rt.calls.autocomplete('com.hearth.greeter', { widgetId: 'greeting', settingId: 'nope', query: '', settings: {} })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('speaks a greeting in the chosen style when its name setting changes', async () => {
    await t.until('com.hearth.greeter', (a) => a.ready, 'ready');
    await t.rt.settings.set('com.hearth.greeter', 'style', 'formal');
    await t.rt.settings.set('com.hearth.greeter', 'name', 'Ada');
    await waitUntil(() => said.some((s) => s.includes('Ada')), 'the greeter greeting Ada', 100, 20);
    const greeting = said.filter((s) => s.includes('Ada'))[0];
    expect(greeting).toMatch(/^Good (morning|afternoon|evening), Ada\.$/);
    // Counted in its insights log, and sent to its open widgets.
    const log = await poll(
      async () => insights.getLog('homey:app:com.hearth.greeter:greetings'),
      (l) => typeof l.lastValue === 'number' && l.lastValue >= 1,
      'the greeting counted',
    );
    expect(log).toMatchObject({ title: 'Greetings', type: 'number', decimals: 0 });
    // The app tells its widgets after counting: the event may arrive a moment after the entry,
    // and after the greeting of the style change before it (another text).
    const sent = await poll(
      async () => realtime.filter((e) => e.event === 'greeting'),
      (events) => events.some((e) => (e.data as { text?: unknown } | null)?.text === greeting),
      'the greeting sent to widgets',
    );
    expect(sent).toContainEqual({ appId: 'com.hearth.greeter', event: 'greeting', data: { text: greeting } });
  });
});
