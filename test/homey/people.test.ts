/**
 * The people of the home through Homey's own client (homey-api V3 local), as a script or a
 * dashboard calls them: the users it lists, who it is, a presence change it makes and hears as
 * `user.update`, and the timeline it reads and clears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HomeyApiClient, type HomeyApiManager, loadHomeyApi } from '../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';

interface User {
  id: string;
  name: string;
  role: string;
  present: boolean;
  asleep: boolean;
}

let hub: RunningHub;
let client: HomeyApiClient;

beforeAll(async () => {
  hub = await startHub();
  const homeyApi = await loadHomeyApi();
  client = await homeyApi.HomeyAPI.createLocalAPI({ address: hub.url, token: OWNER });
}, 60_000);
afterAll(async () => {
  client?.destroy();
  await hub?.cleanup();
});

const manager = <T>(name: string) => (client as unknown as Record<string, T>)[name]!;

describe('people through homey-api', () => {
  it('lists the users, says who it is, changes its presence and hears it', async () => {
    const users = manager<HomeyApiManager & { getUsers(): Promise<Record<string, User>>; getUserMe(): Promise<User> }>('users');
    const presence = manager<{ setPresentMe(o: { value: boolean }): Promise<unknown>; getPresent(o: { id: string }): Promise<boolean> }>('presence');
    const made = await hub.call<User>('POST', '/api/manager/users/user', { body: { name: 'Robin', role: 'manager' } });
    const all = await users.getUsers();
    expect(Object.values(all).map((u) => [u.name, u.role])).toEqual(
      expect.arrayContaining([
        ['Owner', 'owner'],
        ['Robin', 'manager'],
      ]),
    );
    const me = await users.getUserMe();
    expect(me).toMatchObject({ name: 'Owner', role: 'owner', present: false });

    await users.connect();
    const heard: User[] = [];
    users.on('user.update', (u) => heard.push(u as User));
    await presence.setPresentMe({ value: true });
    expect(await presence.getPresent({ id: me.id })).toBe(true);
    await poll(
      async () => heard,
      (h) => h.some((u) => u.id === me.id && u.present === true),
      'the client to hear the owner came home',
    );
    await hub.call('PUT', `/api/manager/presence/${made.body.id}/asleep`, { body: { value: true } });
    await poll(
      async () => heard,
      (h) => h.some((u) => u.id === made.body.id && u.asleep === true),
      "the client to hear Robin's sleep",
    );
  });

  it('reads the timeline and deletes from it', async () => {
    const notifications = manager<{
      getNotifications(): Promise<Record<string, { id: string; excerpt: string }>>;
      deleteNotification(o: { id: string }): Promise<unknown>;
    }>('notifications');
    const flow = await hub.call<{ id: string }>('POST', '/api/manager/flow/flow', {
      body: {
        name: 'say',
        trigger: { id: 'homey:manager:flow:programmatic_trigger' },
        actions: [{ id: 'homey:manager:notifications:create_notification', args: { text: 'The post came' } }],
      },
    });
    await hub.call('POST', `/api/manager/flow/flow/${flow.body.id}/trigger`, { body: {} });
    const note = await poll(
      async () => Object.values(await notifications.getNotifications()).find((n) => n.excerpt === 'The post came'),
      (n) => n !== undefined,
      'the notification',
    );
    await notifications.deleteNotification({ id: note!.id });
    expect(Object.values(await notifications.getNotifications()).map((n) => n.excerpt)).not.toContain('The post came');
  });
});
