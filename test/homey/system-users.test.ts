/**
 * Homey's system and users operations as apps and scripts call them through homey-api:
 * `system.getInfo()` (name, versions, address, uptime, memory), the hub's name, memory and
 * storage per app (hearth had `ping` and its own state only), and `users.getUserMe()`
 * (HomeyScript's own example asks it first; hearth had no users manager).
 */
import { statfsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HomeyApiModule, homeyClient, loadHomeyApi } from '../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { writeHomeyApp } from './apps.js';

const APP = 'com.example.figures';
let hub: RunningHub;
let homeyApi: HomeyApiModule;

interface SystemApi {
  getInfo(): Promise<Record<string, unknown>>;
  getSystemName(): Promise<string>;
  setSystemName(o: { name: string }): Promise<unknown>;
  getMemoryInfo(): Promise<{ total: number; free: number; types: Record<string, { name: string; size: number }> }>;
  getStorageInfo(): Promise<{ total: number; free: number; used: number; types: Record<string, { name: string; size: number }> }>;
}

beforeAll(async () => {
  homeyApi = await loadHomeyApi();
  const appsDir = await tempDir('hearth-figures-apps-');
  await writeHomeyApp(appsDir, APP, {
    json: { name: { en: 'Figures' } },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App { async onInit() { this.keep = Buffer.alloc(4 << 20, 1); } };\n",
    },
  });
  hub = await startHub({ appsDir });
  await poll(
    () => hub.call<{ state: string }>('GET', `/api/manager/apps/app/${APP}`),
    (r) => r.body.state === 'running',
    'the app to run',
  );
}, 60_000);
afterAll(async () => {
  await hub?.cleanup();
});

const system = async (token = OWNER): Promise<SystemApi> => (await homeyClient(homeyApi, hub.url, token, 'V3 local')).system as unknown as SystemApi;

describe('system (homey-api V3 local)', () => {
  it("getInfo: this machine's figures in Homey's fields", async () => {
    const info = await (await system()).getInfo();
    expect(info).toMatchObject({ homeyPlatform: 'local', homeyPlatformVersion: 2, address: `127.0.0.1:${hub.port}`, devmode: false });
    expect(typeof info.homeyVersion).toBe('string');
    expect(info.uptime as number).toBeGreaterThan(0);
    expect((info.cpus as unknown[]).length).toBeGreaterThan(0);
    expect(info.totalmem as number).toBeGreaterThan(info.freemem as number);
  });

  it('renames the hub, and a read-only token may read the name but not change it', async () => {
    const owner = await system();
    await owner.setSystemName({ name: 'Kitchen hub' });
    expect(await owner.getSystemName()).toBe('Kitchen hub');
    expect((await owner.getInfo()).name).toBe('Kitchen hub');
    const reader = (
      await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'wall tablet', scopes: ['service.system.readonly'] } })
    ).body.token;
    expect((await hub.call<string>('GET', '/api/manager/system/name', { token: reader })).body).toBe('Kitchen hub');
    expect((await hub.call('PUT', '/api/manager/system/name', { token: reader, body: { name: 'Mine now' } })).status).toBe(403);
    expect((await hub.call('PUT', '/api/manager/system/name', { body: { name: '' } })).status).toBe(400);
  });

  it('memory: the machine, the hub and each running app', async () => {
    const memory = await poll(
      async () => (await system()).getMemoryInfo(),
      (m) => (m.types[`homey:app:${APP}`]?.size ?? 0) > 0,
      "the app's memory to be sampled",
      20_000,
    );
    expect(memory.total).toBeGreaterThan(memory.free);
    expect(memory.types.homey!.size).toBeGreaterThan(10 * 1024 * 1024);
    expect(memory.types[`homey:app:${APP}`]!.name).toBe('Figures');
  });

  it("storage: the data disk's size and free space, what the data and each app take", async () => {
    const storage = await (await system()).getStorageInfo();
    const fs = statfsSync(hub.dataDir);
    expect(storage.total).toBe(fs.blocks * fs.bsize);
    expect(Math.abs(storage.free - fs.bavail * fs.bsize)).toBeLessThan(storage.total / 100);
    expect(storage.types['homey:manager:system:database']!.size).toBeGreaterThan(0);
    expect(storage.types[`homey:app:${APP}`]).toMatchObject({ name: 'Figures' });
    expect(storage.types[`homey:app:${APP}`]!.size).toBeGreaterThan(0);
  });
});

describe('users.getUserMe (homey-api V3 local)', () => {
  it("answers who the token belongs to in Homey's User shape", async () => {
    const users = async (token: string) =>
      (
        (await homeyClient(homeyApi, hub.url, token, 'V3 local')).users as unknown as { getUserMe(): Promise<{ id: string; name: string; role: string }> }
      ).getUserMe();
    // The owner token is the home's first owner's, a person; a script's token is its own user.
    const owner = await users(OWNER);
    expect(owner).toMatchObject({ name: 'Owner', role: 'owner' });
    expect(owner.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const token = (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'Anna', scopes: ['service.device.readonly'] } })).body
      .token;
    const anna = await users(token);
    expect(anna).toMatchObject({ name: 'Anna', role: 'user' });
    expect(anna.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(anna.id).not.toBe(owner.id);
    expect((await users(token)).id).toBe(anna.id);
  });
});
