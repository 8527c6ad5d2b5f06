/**
 * App settings through a real hub, both ways in (the Web API and the app's own SDK calls): the
 * caps per app (keys, total bytes) and manifest defaults as the value before anything is saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { assertBuilt, homeyApp, removeAll, writeApp } from './helpers.js';

const API = '/api/manager/apps/app';
type Err = { error: string; error_description: string };

const FORGE = `const forge = (m) => { const b = Buffer.from(JSON.stringify(m)); const h = Buffer.alloc(4); h.writeUInt32BE(b.length); require('fs').writeSync(3, Buffer.concat([h, b])); };`;

// Reads its declared settings before anything is saved, then fills settings until refused.
const FILLER = homeyApp(
  `async onInit() {
  const { settings } = this.homey;
  settings.set('seen', { name: settings.get('name'), flag: settings.get('flag'), plain: settings.get('plain'), keys: settings.getKeys().sort() });
  const blob = 'x'.repeat(60 * 1024);
  let refused = null;
  for (let i = 0; i < 1000 && !refused; i++) {
    try { settings.set('blob' + i, blob); } catch (err) { refused = { at: i, code: err.code, message: err.message, kept: settings.get('blob' + i) }; }
  }
  // Past the SDK, a frame of its own on the channel: the hub keeps the cap too. (Written once the
  // SDK's frames are out, as a round trip shows: bytes written between a frame's would break it.)
  await this.homey.api.realtime('drained', null);
  forge({ type: 'call', id: 900001, method: 'settings.set', args: { key: 'forged', value: blob } });
  forge({ type: 'call', id: 900002, method: 'settings.set', args: { key: 'forgedSmall', value: 1 } });
  settings.unset('blob0');
  settings.set('refused', refused);
}`,
  FORGE,
);

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
    await writeApp(appsDir, 'com.test.quiet', { code: homeyApp(''), manifest: { settings } });
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
    expect(seen).toEqual({ name: 'friend', flag: true, plain: null, keys: ['flag', 'name'] });
    // Refused where the app made the call (the SDK knows the caps), and not kept in the app either.
    expect(refused).toMatchObject({ code: 'invalid_args', message: expect.stringContaining('the most an app may keep is 1048576 (1 MiB)'), kept: null });
    // 17 values of 60 KiB (61,452 bytes each as JSON with their keys) fit in 1 MiB; the 18th does not.
    expect((refused as { at: number }).at).toBe(17);
    // The forged writes went before 'refused': the hub refused the one past the cap, took the other.
    expect((await hub.call('GET', `${API}/com.test.filler/setting/forged`)).status).toBe(404);
    expect((await hub.call('GET', `${API}/com.test.filler/setting/forgedSmall`)).body).toBe(1);
    const all = (await hub.call<Record<string, unknown>>('GET', `${API}/com.test.filler/setting`)).body;
    expect(Buffer.byteLength(JSON.stringify(all))).toBeLessThan(1024 * 1024);
  }, 60_000);

  it('the Web API shows manifest defaults until a value is saved, and again after it is unset', async () => {
    await poll(
      async () => (await hub.call<{ ready: boolean }>('GET', `${API}/com.test.quiet`)).body,
      (a) => a.ready,
      'quiet ready',
    );
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
