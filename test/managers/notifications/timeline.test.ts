/**
 * The home's timeline (the notifications manager, in Homey's shape): what a flow says is kept,
 * named by its owner, newest first and bounded; an owner turned off is not heard; notifications
 * are deleted one by one, by owner or all; they survive a restart; a token that may only read
 * the timeline cannot change it; and Homey's own client lists them, hears them and deletes them.
 */
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_KEPT } from '../../../src/managers/notifications/service.js';
import { openEvents } from '../../helpers/events.js';
import { type HomeyApiClient, loadHomeyApi } from '../../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { pairDevice } from '../../helpers/pair.js';
import { pause, poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';

let hub: RunningHub;
const SAY = '/api/manager/flow/flowcardaction/homey:manager:notifications/create_notification/run';
const say = async (text: string) => expect((await hub.call('POST', SAY, { body: { args: { text } } })).status).toBe(200);
const timeline = async () =>
  Object.values(await hub.op('notifications', 'getNotifications'))
    .sort((a, b) => b.dateCreated.localeCompare(a.dateCreated))
    .map((n) => n.excerpt);

beforeAll(async () => {
  hub = await startHub();
}, 60_000);
afterAll(async () => {
  await hub?.cleanup();
});

describe('the timeline', () => {
  it('keeps what is said, by its owner, newest first; an owner turned off is not heard', async () => {
    const events = await openEvents(hub.wsUrl, 'notifications', OWNER);
    await say('The washing is done');
    const heard = await events.next((f) => f.event === 'notification.create');
    expect(heard.args[0]).toMatchObject({ ownerUri: 'homey:manager:flow', ownerName: 'Flows', excerpt: 'The washing is done' });
    await say('The post came');
    await events.next((f) => f.event === 'notification.create' && (f.args[0] as { excerpt: string }).excerpt === 'The post came');
    expect(await timeline()).toEqual(['The post came', 'The washing is done']);
    expect((await hub.op('notifications', 'getOwners'))['homey:manager:flow']).toEqual({
      uri: 'homey:manager:flow',
      name: 'Flows',
      enabled: true,
      push: false,
    });

    await hub.op('notifications', 'setOwnerEnabled', { params: { uri: 'homey:manager:flow' }, body: { enabled: false } });
    await say('Nobody hears this');
    await hub.op('notifications', 'setOwnerEnabled', { params: { uri: 'homey:manager:flow' }, body: { enabled: true } });
    await say('Heard again');
    await events.next((f) => f.event === 'notification.create' && (f.args[0] as { excerpt: string }).excerpt === 'Heard again');
    expect(await timeline()).toEqual(['Heard again', 'The post came', 'The washing is done']);
    events.close();
  });

  it('deletes one, or all of an owner; a reader cannot', async () => {
    const [first] = Object.values(await hub.op('notifications', 'getNotifications')).filter((n) => n.excerpt === 'The post came');
    const reader = (await hub.op('tokens', 'createToken', { body: { name: 'reader', scopes: ['service.notifications.readonly'] } })).token;
    expect((await hub.call('GET', '/api/manager/notifications/notification', { token: reader })).status).toBe(200);
    expect((await hub.call('DELETE', `/api/manager/notifications/notification/${first!.id}`, { token: reader })).status).toBe(403);
    expect((await hub.call('DELETE', `/api/manager/notifications/notification/${first!.id}`)).status).toBe(204);
    expect((await hub.call('DELETE', `/api/manager/notifications/notification/${first!.id}`)).status).toBe(404);
    expect(await timeline()).toEqual(['Heard again', 'The washing is done']);
    expect((await hub.call('DELETE', '/api/manager/notifications/notification?ownerUri=homey%3Amanager%3Aother')).status).toBe(204);
    expect(await timeline()).toHaveLength(2);
    expect((await hub.call('DELETE', '/api/manager/notifications/notification?ownerUri=homey%3Amanager%3Aflow')).status).toBe(204);
    expect(await timeline()).toEqual([]);
  });

  it(`keeps the newest ${MAX_KEPT}, and they survive a restart`, { timeout: 120_000 }, async () => {
    for (let i = 0; i < MAX_KEPT + 5; i++) await say(`note ${i}`);
    const kept = await timeline();
    expect(kept).toHaveLength(MAX_KEPT);
    expect(kept[0]).toBe(`note ${MAX_KEPT + 4}`);
    expect(kept.at(-1)).toBe('note 5');
    const dataDir = hub.dataDir;
    await hub.stop();
    hub = await startHub({ dataDir });
    expect(await timeline()).toEqual(kept);
    expect(await hub.op('notifications', 'getState')).toMatchObject({ notifications: MAX_KEPT });
  });

  it("is Homey's notifications manager to Homey's client: listed, heard and deleted", async () => {
    const homeyApi = await loadHomeyApi();
    const client: HomeyApiClient = await homeyApi.HomeyAPI.createLocalAPI({ address: hub.url, token: OWNER });
    try {
      const notifications = (client as unknown as Record<string, unknown>).notifications as {
        connect(): Promise<void>;
        on(event: string, fn: (n: { excerpt: string }) => void): void;
        getNotifications(): Promise<Record<string, { id: string; excerpt: string }>>;
        deleteNotification(opts: { id: string }): Promise<void>;
      };
      const heard: string[] = [];
      notifications.on('notification.create', (n) => heard.push(n.excerpt));
      await notifications.connect();
      await say('For Homey');
      await expect.poll(() => heard).toContain('For Homey');
      const listed = Object.values(await notifications.getNotifications()).find((n) => n.excerpt === 'For Homey');
      expect(listed).toBeDefined();
      await notifications.deleteNotification({ id: listed!.id });
      expect((await timeline()).includes('For Homey')).toBe(false);
    } finally {
      client.destroy();
    }
  });

  it('hears the hub: a backup that failed is on the timeline with its reason', { timeout: 60_000 }, async () => {
    // A backup folder inside a file: every backup fails at once, with the system's reason.
    const file = join(await tempDir('hearth-timeline-'), 'a-file');
    await writeFile(file, '');
    const broken = await startHub({ args: ['--backup-dir', join(file, 'backups')] });
    try {
      expect((await broken.call('POST', '/api/manager/backup/backup/', { body: {} })).status).toBeLessThan(300);
      const said = await poll(
        async () => Object.values(await broken.op('notifications', 'getNotifications')),
        (notes) => notes.length > 0,
        'the failed backup on the timeline',
      );
      expect(said[0]).toMatchObject({ ownerUri: 'homey:manager:backup', ownerName: 'Backups' });
      expect(said[0]?.excerpt).toMatch(/^A backup failed: .+\.$/);
    } finally {
      await broken.cleanup();
    }
  });

  it('hears the hub: a device its app cannot reach is on the timeline once, with the reason', { timeout: 90_000 }, async () => {
    const appsDir = await tempDir('hearth-timeline-apps-');
    await cp(join(import.meta.dirname, '../../web/fixtures/com.test.faraway'), join(appsDir, 'com.test.faraway'), { recursive: true });
    const home = await startHub({ appsDir });
    try {
      await waitAppRunning(home, 'com.test.faraway');
      await pairDevice(home, 'homey:app:com.test.faraway:bulb', { name: 'Porch light' });
      const said = await poll(
        async () => Object.values(await home.op('notifications', 'getNotifications')),
        (notes) => notes.length > 0,
        'the unreachable device on the timeline',
      );
      expect(said.map((n) => [n.ownerName, n.excerpt])).toEqual([['Devices', 'Porch light is unavailable: out of reach: check its power.']]);
      // Its app stopping makes it unavailable again, but that is the app's news, not the device's.
      await home.op('apps', 'restartApp', { params: { id: 'com.test.faraway' } });
      await waitAppRunning(home, 'com.test.faraway');
      await pause(500, 'any further notification to arrive (none may: it was said within ten minutes)');
      expect(Object.values(await home.op('notifications', 'getNotifications'))).toHaveLength(1);
    } finally {
      await home.cleanup();
    }
  });
});
