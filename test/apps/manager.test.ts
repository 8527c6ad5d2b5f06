/**
 * The apps manager in process, with a real store, event bus, options and a local app store:
 * automatic updates run on their own schedule, and app.update events carry the shared diff.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packApp } from '../../src/apps/catalogue/pack.js';
import { loadConfig } from '../../src/config.js';
import { EventBus, type HubEvent } from '../../src/core/events.js';
import { OptionService } from '../../src/core/options.js';
import { Store } from '../../src/core/store.js';
import { AppsManager } from '../../src/managers/apps/index.js';
import type { ManagerContext } from '../../src/managers/context.js';
import { I18nManager } from '../../src/managers/i18n/index.js';
import { pause, poll } from '../helpers/poll.js';
import { assertBuilt, FAST, homeyApp, tempDir, writeApp } from './helpers.js';

const CODE = homeyApp(`async onInit() { this.log('up', this.homey.manifest.version); }`);

interface Harness {
  apps: AppsManager;
  store: Store;
  events: HubEvent[];
  storeDir: string;
}

const running: Harness[] = [];
afterEach(async () => {
  for (const h of running.splice(0)) {
    await h.apps.stop();
    await h.store.close();
  }
});
beforeAll(() => assertBuilt());

async function harness(autoupdate: { firstMs: number; everyMs: number }): Promise<Harness> {
  const root = await tempDir('hearth-appsmgr-');
  const dataDir = join(root, 'data');
  await mkdir(dataDir);
  const storeDir = await tempDir('hearth-appsmgr-store-');
  const config = loadConfig({ 'data-dir': dataDir, 'apps-dir': join(root, 'installed'), store: storeDir }, {});
  const store = await Store.open(dataDir);
  const bus = new EventBus();
  const events: HubEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const ctx: ManagerContext = { config, store, bus, log: pino({ level: 'silent' }), hubId: '0123456789abcdef01234567', options: new OptionService(store, bus) };
  await new I18nManager(ctx).start();
  const apps = new AppsManager(ctx, { supervisor: FAST, autoupdate });
  await apps.start();
  const h = { apps, store, events, storeDir };
  running.push(h);
  return h;
}

/** Installs app `id` 1.0.0 from the harness's store, then lists `version` on its channel. */
async function installThenOffer(h: Harness, id: string, version: string): Promise<void> {
  const folder = await writeApp(await tempDir('hearth-appsmgr-src-'), id, { code: CODE });
  await packApp(folder, h.storeDir);
  await h.apps.service.install(id);
  const manifest = JSON.parse(await readFile(join(folder, 'app.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(join(folder, 'app.json'), JSON.stringify({ ...manifest, version }));
  await packApp(folder, h.storeDir);
}

describe('apps manager', () => {
  it('updates a store app with autoupdate on by itself, on its schedule, and announces it with the diff', async () => {
    const h = await harness({ firstMs: 100, everyMs: 100 });
    await installThenOffer(h, 'com.test.auto', '1.2.0');
    const app = await poll(
      async () => h.apps.runtime.get('com.test.auto'),
      (a) => a.version === '1.2.0' && a.state === 'running',
      'the automatic update',
    );
    expect(app).toMatchObject({ origin: 'appstore', autoupdate: true, ready: true });
    const updates = h.events.filter((e) => e.event === 'app.update' && (e.args[0] as { id: string }).id === 'com.test.auto');
    const versionChange = updates.find((e) => (e.args[1] as { changedKeys: string[] }).changedKeys.includes('version'));
    expect(versionChange?.args[1]).toMatchObject({ oldValues: { version: '1.0.0' }, newValues: { version: '1.2.0' } });
    // Every update says what changed; none is sent for a change of nothing.
    for (const e of updates) expect((e.args[1] as { changedKeys: string[] }).changedKeys.length).toBeGreaterThan(0);
  });

  it('does not check before its first delay', async () => {
    const h = await harness({ firstMs: 60_000, everyMs: 60_000 });
    await installThenOffer(h, 'com.test.later', '2.0.0');
    await pause(500, 'time in which a check without its first delay would have upgraded the app');
    expect(h.apps.runtime.get('com.test.later').version).toBe('1.0.0');
  });
});
