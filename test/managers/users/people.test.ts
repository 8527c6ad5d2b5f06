/**
 * The people of the home (issue 42): the owner adds a person, the person's phone signs in with the
 * link, the session is theirs and holds what their role gives; who may add, change and remove whom
 * (never above one's own role, never the last owner); disabling someone ends their sessions and
 * sockets at once; a person sees and ends their own sessions; presence set by the person, by
 * someone with the right, logged in insights and run through the presence cards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEvents } from '../../helpers/events.js';
import { OWNER, type RunningHub, startHub } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { addPerson, type User } from './helpers.js';

let hub: RunningHub;
const U = '/api/manager/users';
const P = '/api/manager/presence';

beforeAll(async () => {
  hub = await startHub();
}, 60_000);
afterAll(() => hub?.cleanup());

/** Adds a person as `by` (the owner by default) and signs their phone in. */
const person = (name: string, role: string, by?: string) => addPerson(hub, name, role, by ? { by } : {});

describe('people', () => {
  it('the home has its owner from the start: the owner token is theirs', async () => {
    const me = (await hub.call<User>('GET', `${U}/user/me`)).body;
    expect(me).toMatchObject({ name: 'Owner', role: 'owner', enabled: true, present: false });
    const all = (await hub.call<Record<string, User>>('GET', `${U}/user`)).body;
    expect(Object.keys(all)).toEqual([me.id]);
    await hub.call('PUT', `${U}/user/me`, { body: { name: 'Mum' } });
    expect((await hub.call<User>('GET', `${U}/user/${me.id}`)).body.name).toBe('Mum');
  });

  it("a person's phone signs in once with their link, and holds what their role gives", async () => {
    const { user, token } = await person('Anna', 'user');
    expect(user.inviteUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${hub.port}/#login=`));
    expect((await hub.call<User>('GET', `${U}/user/me`, { token })).body).toMatchObject({ id: user.id, name: 'Anna', role: 'user' });
    // A user switches devices and runs flows, and changes no device, flow or person.
    expect((await hub.call('GET', '/api/manager/devices/device', { token })).status).toBe(200);
    expect((await hub.call('POST', '/api/manager/zones/zone', { token, body: { name: 'Mine' } })).status).toBe(403);
    expect((await hub.call('POST', `${U}/user`, { token, body: { name: 'Eve', role: 'owner' } })).status).toBe(403);
    // Nor raise their own role.
    expect((await hub.call('PUT', `${U}/user/${user.id}`, { token, body: { role: 'owner' } })).status).toBe(403);
    expect((await hub.call('GET', '/api/manager/tokens/token', { token })).status).toBe(403);
    // The link worked once.
    const again = await hub.call('POST', '/api/manager/tokens/login/redeem', {
      token: null,
      body: { code: new URL(user.inviteUrl!).hash.replace('#login=', ''), browser: 'thief' },
    });
    expect(again.status).toBe(401);
  });

  it('a manager adds users, never a manager or an owner, and cannot touch one', async () => {
    const { token: manager } = await person('Dad', 'manager');
    const kid = await hub.call<User>('POST', `${U}/user`, { token: manager, body: { name: 'Kid', role: 'user' } });
    expect(kid.status).toBe(201);
    for (const role of ['manager', 'owner']) {
      const res = await hub.call<{ error_description: string }>('POST', `${U}/user`, { token: manager, body: { name: 'X', role } });
      expect(res.status).toBe(403);
      expect(res.body.error_description).toContain('only roles below your own');
    }
    expect((await hub.call('PUT', `${U}/user/${kid.body.id}`, { token: manager, body: { role: 'manager' } })).status).toBe(403);
    const owner = (await hub.call<User>('GET', `${U}/user/me`)).body;
    expect((await hub.call('PUT', `${U}/user/${owner.id}`, { token: manager, body: { enabled: false } })).status).toBe(403);
    expect((await hub.call('DELETE', `${U}/user/${owner.id}`, { token: manager })).status).toBe(403);
    expect((await hub.call('PUT', `${U}/user/${kid.body.id}`, { token: manager, body: { name: 'Sam' } })).status).toBe(200);
    // A manager changes the home's set-up, but tokens and backups stay the owner's.
    expect((await hub.call('PUT', '/api/manager/system/name', { token: manager, body: { name: 'Our home' } })).status).toBe(200);
    expect((await hub.call('GET', '/api/manager/tokens/token', { token: manager })).status).toBe(403);
  });

  it('the last owner cannot be removed, demoted or disabled; with a second owner they can step down', async () => {
    const owner = (await hub.call<User>('GET', `${U}/user/me`)).body;
    for (const [method, body] of [
      ['PUT', { role: 'manager' }],
      ['PUT', { enabled: false }],
      ['DELETE', undefined],
    ] as const) {
      const res = await hub.call<{ error_description: string }>(method, `${U}/user/${owner.id}`, body ? { body } : {});
      expect(res.status).toBe(409);
      expect(res.body.error_description).toContain('the home needs an owner');
    }
    expect((await hub.call('DELETE', `${U}/user/me`)).status).toBe(409);
    const { user: second, token } = await person('Gran', 'owner');
    expect((await hub.call('PUT', `${U}/user/${owner.id}`, { token, body: { role: 'manager' } })).status).toBe(200);
    expect((await hub.call('PUT', `${U}/user/${owner.id}`, { token, body: { role: 'owner' } })).status).toBe(200);
    expect((await hub.call('DELETE', `${U}/user/${second.id}`)).status).toBe(204);
    expect((await hub.call('GET', `${U}/user/me`, { token })).status).toBe(401);
  });

  it('disabling a person ends their sessions and closes their sockets at once; enabling lets them back', async () => {
    const { user, token } = await person('Lodger', 'user');
    const socket = await openEvents(hub.wsUrl, 'devices', token);
    const closed = new Promise<number>((resolve) => socket.socket.once('close', (code) => resolve(code)));
    expect((await hub.call<User>('PUT', `${U}/user/${user.id}`, { body: { enabled: false } })).body.enabled).toBe(false);
    await closed;
    const refused = await hub.call('GET', `${U}/user/me`, { token });
    expect([refused.status, refused.text]).toEqual([401, expect.stringContaining("this sign-in is Lodger's, who is turned off in this home")]);
    await expect(openEvents(hub.wsUrl, 'devices', token)).rejects.toThrow(/401/);
    // A disabled person gets no new link either.
    expect((await hub.call('POST', `${U}/user/${user.id}/invite`)).status).toBe(409);
    await hub.call('PUT', `${U}/user/${user.id}`, { body: { enabled: true } });
    expect((await hub.call('GET', `${U}/user/me`, { token })).status).toBe(200);
  });

  it('a person sees their own sessions and ends one from another phone', async () => {
    const { user, token: phone } = await person('Tom', 'user');
    const invite = await hub.call<{ url: string }>('POST', `${U}/user/${user.id}/invite`);
    const tablet = (
      await hub.call<{ token: string; id: string }>('POST', '/api/manager/tokens/login/redeem', {
        token: null,
        body: { code: new URL(invite.body.url).hash.replace('#login=', ''), browser: "Tom's tablet" },
      })
    ).body;
    const sessions = (await hub.call<Record<string, { name: string; current: boolean }>>('GET', `${U}/user/me/session`, { token: phone })).body;
    expect(
      Object.values(sessions)
        .map((s) => [s.name, s.current])
        .sort(),
    ).toEqual([
      ["Tom's phone (signed in by link)", true],
      ["Tom's tablet (signed in by link)", false],
    ]);
    expect((await hub.call('DELETE', `${U}/user/me/session/${tablet.id}`, { token: phone })).status).toBe(204);
    expect((await hub.call('GET', `${U}/user/me`, { token: tablet.token })).status).toBe(401);
    // Someone else's session is not theirs to end.
    const owners = Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/tokens/token')).body);
    const notMine = owners.find((id) => !(id in sessions));
    expect((await hub.call('DELETE', `${U}/user/me/session/${notMine}`, { token: phone })).status).toBe(404);
  });

  it('removing a person revokes every session of theirs; their events are heard on the users channel', async () => {
    const events = await openEvents(hub.wsUrl, 'users', OWNER);
    try {
      const { user, token } = await person('Visitor', 'user');
      await events.next((f) => f.event === 'user.create' && (f.args[0] as User).id === user.id);
      expect((await hub.call('DELETE', `${U}/user/${user.id}`)).status).toBe(204);
      await events.next((f) => f.event === 'user.delete' && (f.args[0] as { id: string }).id === user.id);
      expect((await hub.call('GET', `${U}/user/me`, { token })).status).toBe(401);
      const left = Object.values((await hub.call<Record<string, { userId: string | null }>>('GET', '/api/manager/tokens/token')).body);
      expect(left.filter((t) => t.userId === user.id)).toEqual([]);
    } finally {
      events.close();
    }
  });

  it('refuses bad names and roles', async () => {
    expect((await hub.call('POST', `${U}/user`, { body: { name: 'x'.repeat(61), role: 'user' } })).status).toBe(400);
    expect((await hub.call('POST', `${U}/user`, { body: { name: '  ', role: 'user' } })).status).toBe(400);
    expect((await hub.call('POST', `${U}/user`, { body: { name: 'A', role: 'king' } })).status).toBe(400);
    expect((await hub.call('POST', `${U}/user`, { body: { name: 'A', role: 'user', admin: true } })).status).toBe(400);
  });

  it("a script's token is no one: it has no presence of its own", async () => {
    const script = (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'script', scopes: ['service.presence'] } })).body
      .token;
    const res = await hub.call<{ error_description: string }>('PUT', `${P}/me/present`, { token: script, body: { value: true } });
    expect(res.status).toBe(409);
    expect(res.body.error_description).toContain('belongs to no person');
  });
});

describe('presence', () => {
  it('a person says they are home; another user cannot say it for them; the owner can; each change is logged', async () => {
    const { user: a, token: anna } = await person('Ada', 'user');
    const { token: bob } = await person('Bo', 'user');
    const events = await openEvents(hub.wsUrl, 'users', bob);
    try {
      expect((await hub.call<User>('PUT', `${P}/me/present`, { token: anna, body: { value: true } })).body.present).toBe(true);
      await events.next((f) => f.event === 'user.update' && (f.args[0] as User).id === a.id && (f.args[0] as User).present === true);
      expect((await hub.call('PUT', `${P}/${a.id}/present`, { token: bob, body: { value: false } })).status).toBe(403);
      expect((await hub.call<boolean>('GET', `${P}/${a.id}/present`, { token: bob })).body).toBe(true);
      expect((await hub.call<{ present: string[] }>('GET', `${P}/state`, { token: bob })).body.present).toContain(a.id);
      expect((await hub.call<User>('PUT', `${P}/${a.id}/asleep`, { body: { value: true } })).body.asleep).toBe(true);
      // Entries are committed within a second.
      const logs = await poll(
        async () => (await hub.call<Record<string, { title: string; lastValue: unknown }>>('GET', '/api/manager/insights/log')).body,
        (l) => l[`homey:user:${a.id}:asleep`]?.lastValue === true,
        'the presence entries',
      );
      expect(logs[`homey:user:${a.id}:present`]).toMatchObject({ title: 'Ada is home', lastValue: true });
      expect(logs[`homey:user:${a.id}:asleep`]).toMatchObject({ title: 'Ada is asleep', lastValue: true });
      expect((await hub.call('PUT', `${P}/${a.id}/present`, { body: { value: 'yes' } })).status).toBe(400);
      expect((await hub.call('PUT', `${P}/nobody/present`, { body: { value: true } })).status).toBe(404);
    } finally {
      events.close();
    }
  });

  it('the last one at home taps "away": the last-person-left flow runs and the timeline says who', async () => {
    // Everyone away first, then two home.
    for (const u of Object.values((await hub.call<Record<string, User>>('GET', `${U}/user`)).body))
      await hub.call('PUT', `${P}/${u.id}/present`, { body: { value: false } });
    const { token: mia } = await person('Mia', 'user');
    const { user: leo, token: leoPhone } = await person('Leo', 'user');
    await hub.call('PUT', `${P}/me/present`, { token: mia, body: { value: true } });
    await hub.call('PUT', `${P}/me/present`, { token: leoPhone, body: { value: true } });
    const card = (id: string) => `homey:manager:presence:${id}`;
    const notify = (text: string) => ({ id: 'homey:manager:notifications:create_notification', args: { text } });
    const flows = [
      { name: 'last out', trigger: { id: card('last_user_leave'), args: {} }, actions: [notify('[[name]] left last')] },
      { name: 'leo out', trigger: { id: card('user_leave_specific'), args: { user: { id: leo.id, name: 'Leo' } } }, actions: [notify('Leo left')] },
      { name: 'first in', trigger: { id: card('first_user_enter'), args: {} }, actions: [notify('[[name]] came home first')] },
    ];
    for (const f of flows) expect((await hub.call('POST', '/api/manager/flow/flow', { body: f })).status).toBe(201);
    const said = async () =>
      Object.values((await hub.call<Record<string, { excerpt: string }>>('GET', '/api/manager/notifications/notification')).body).map((n) => n.excerpt);

    await hub.call('PUT', `${P}/me/present`, { token: mia, body: { value: false } });
    await hub.call('PUT', `${P}/me/present`, { token: leoPhone, body: { value: false } });
    await poll(said, (s) => s.includes('Leo left last') && s.includes('Leo left'), 'the last-person-left flow');
    expect(await said()).not.toContain('Mia left last');
    await hub.call('PUT', `${P}/me/present`, { token: mia, body: { value: true } });
    await poll(said, (s) => s.includes('Mia came home first'), 'the first-person-home flow');
  });

  it('a flow sets a person away, and the condition reads it', async () => {
    const { user } = await person('Zoe', 'user');
    const flow = (
      await hub.call<{ id: string }>('POST', '/api/manager/flow/flow', {
        body: {
          name: 'zoe away',
          trigger: { id: 'homey:manager:flow:programmatic_trigger', args: {} },
          conditions: [{ id: 'homey:manager:presence:user_present', args: { user: { id: user.id, name: 'Zoe' } }, inverted: true }],
          actions: [{ id: 'homey:manager:presence:set_present', args: { user: { id: user.id, name: 'Zoe' }, state: 'home' } }],
        },
      })
    ).body;
    expect((await hub.call('POST', `/api/manager/flow/flow/${flow.id}/trigger`)).status).toBeLessThan(300);
    await poll(
      async () => (await hub.call<User>('GET', `${U}/user/${user.id}`)).body.present,
      (p) => p === true,
      'Zoe set home by the flow',
    );
  });
});

describe('a picture', () => {
  // The smallest PNG: one transparent pixel.
  const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
  it('is a checked image of bounded size, served with its own type, gone when taken away', async () => {
    const { user, token } = await person('Pip', 'user');
    const put = (bytes: Uint8Array, type = 'image/png') =>
      hub.call<User & { avatar: string | null }>('PUT', `${U}/user/me/avatar`, { token, rawBody: bytes, headers: { 'content-type': type } });
    const made = await put(PNG);
    expect(made.status, made.text).toBe(200);
    expect(made.body.avatar).toMatch(new RegExp(`^/api/manager/users/user/${user.id}/avatar\\?v=[0-9a-f]{16}$`));
    const res = await fetch(`${hub.url}${made.body.avatar}`, { headers: { authorization: `Bearer ${OWNER}` } });
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    // Named an image, but not one: refused, and the picture kept.
    const html = await put(Buffer.from('<script>alert(1)</script>'));
    expect(html.status).toBe(400);
    expect((await put(Buffer.alloc(49 * 1024, 0xff), 'image/jpeg')).status).toBe(413);
    expect((await hub.call<User & { avatar: string | null }>('GET', `${U}/user/${user.id}`)).body.avatar).toBe(made.body.avatar);
    expect((await hub.call('DELETE', `${U}/user/me/avatar`, { token })).status).toBe(204);
    expect((await fetch(`${hub.url}/api/manager/users/user/${user.id}/avatar`, { headers: { authorization: `Bearer ${OWNER}` } })).status).toBe(404);
  });
});
