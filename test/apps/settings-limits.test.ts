/**
 * App settings through a real hub, both ways in (the Web API and the app's own SDK calls): the
 * caps per app (keys, total bytes) and manifest defaults as the value before anything is saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, tempDir, type RunningHub } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { assertBuilt, removeAll, writeApp } from './helpers.js';

const API = '/api/manager/apps/app';
type Err = { error: string; error_description: string };

// Reads its declared settings before anything is saved, then fills settings until refused.
const FILLER = `
module.exports = { async onInit(hub) {
  await hub.settings.set('seen', { name: await hub.settings.get('name'), flag: await hub.settings.get('flag'), keys: (await hub.settings.getKeys()).sort() });
  const blob = 'x'.repeat(60 * 1024);
  let refused = null;
  for (let i = 0; i < 1000 && !refused; i++) {
    await hub.settings.set('blob' + i, blob).catch((err) => { refused = { at: i, code: err.code, message: err.message }; });
  }
  await hub.settings.unset('blob0');
  await hub.settings.set('refused', refused);
} };`;

describe('app settings limits and defaults', () => {
  let hub: RunningHub;
  let appsDir: string;

  beforeAll(async () => {
    assertBuilt();
    appsDir = await tempDir('hearth-apps-');
    const settings = [
      { id: 'name', type: 'text', label: { en: 'Name' }, default: 'friend' },
      { id: 'flag', type: 'checkbox', label: { en: 'Flag' }, default: true },
      { id: 'plain', type: 'text', label: { en: 'No default' } },
    ];
    await writeApp(appsDir, 'com.test.filler', { code: FILLER, manifest: { settings } });
    await writeApp(appsDir, 'com.test.quiet', { code: 'module.exports = { async onInit() {} };', manifest: { settings } });
    hub = await startHub({ appsDir });
  }, 60_000);
  afterAll(async () => {
    await hub?.cleanup();
    await removeAll(appsDir);
  });

  it('the SDK reads manifest defaults before anything is saved, and is refused past 1 MiB of settings', async () => {
    const refused = await poll(
      async () => (await hub.call<unknown>('GET', `${API}/com.test.filler/setting/refused`)).body,
      (v) => v !== null && typeof v === 'object' && 'at' in (v as object),
      'filler refused',
    );
    const seen = (await hub.call('GET', `${API}/com.test.filler/setting/seen`)).body;
    expect(seen).toEqual({ name: 'friend', flag: true, keys: ['flag', 'name'] });
    expect(refused).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('the most an app may keep is 1048576 (1 MiB)') });
    // 17 values of 60 KiB (61,452 bytes each as JSON with their keys) fit in 1 MiB; the 18th does not.
    expect((refused as { at: number }).at).toBe(17);
    const all = (await hub.call<Record<string, unknown>>('GET', `${API}/com.test.filler/setting`)).body;
    expect(Buffer.byteLength(JSON.stringify(all))).toBeLessThan(1024 * 1024);
  }, 60_000);

  it('the Web API shows manifest defaults until a value is saved, and again after it is unset', async () => {
    await poll(async () => (await hub.call<{ ready: boolean }>('GET', `${API}/com.test.quiet`)).body, (a) => a.ready, 'quiet ready');
    expect((await hub.call('GET', `${API}/com.test.quiet/setting`)).body).toEqual({ name: 'friend', flag: true });
    expect((await hub.call('GET', `${API}/com.test.quiet/setting/name`)).body).toBe('friend');
    expect((await hub.call('GET', `${API}/com.test.quiet/setting/plain`)).status).toBe(404);
    expect((await hub.call('PUT', `${API}/com.test.quiet/setting/name`, { body: { value: 'Ada' } })).status).toBe(200);
    expect((await hub.call('GET', `${API}/com.test.quiet/setting/name`)).body).toBe('Ada');
    expect((await hub.call('DELETE', `${API}/com.test.quiet/setting/name`)).status).toBe(204);
    expect((await hub.call('GET', `${API}/com.test.quiet/setting/name`)).body).toBe('friend');
  });

  it('the Web API refuses a 257th key with a sentence naming the cap, and keeps every earlier one', async () => {
    for (let i = 0; i < 254; i++) {
      const res = await hub.call('PUT', `${API}/com.test.quiet/setting/k${i}`, { body: { value: i } });
      expect(res.status, `k${i}`).toBe(200);
    }
    // 254 + 'flag' saved below = 255; 'plain' is the 256th; one more is refused.
    expect((await hub.call('PUT', `${API}/com.test.quiet/setting/flag`, { body: { value: false } })).status).toBe(200);
    expect((await hub.call('PUT', `${API}/com.test.quiet/setting/plain`, { body: { value: 'p' } })).status).toBe(200);
    const refused = await hub.call<Err>('PUT', `${API}/com.test.quiet/setting/one-too-many`, { body: { value: 1 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error_description).toBe("app 'com.test.quiet' keeps 256 settings, the most an app may; unset one before adding 'one-too-many'");
    // Changing a key it has is still fine.
    expect((await hub.call('PUT', `${API}/com.test.quiet/setting/k0`, { body: { value: 'changed' } })).status).toBe(200);
    const all = (await hub.call<Record<string, unknown>>('GET', `${API}/com.test.quiet/setting`)).body;
    expect(Object.keys(all)).toHaveLength(257); // 256 saved + the default of 'name'
    expect(all['one-too-many']).toBeUndefined();
  });
});
