/**
 * The users contract (Homey's users manager): the people of the home, each with a role
 * (core/roles.ts), in Homey's User shape. The owner and managers add people (never above their
 * own role); adding someone makes a one-time sign-in link for their phone (`inviteUrl`), and a
 * session made from it belongs to them. `getUserMe` answers for any token: a script's token
 * with no person is its own user, as before hearth had people.
 */
import { z } from 'zod';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';
import { MAX_AVATAR_BYTES, MAX_NAME, MAX_ZONES, ROLES } from '../../core/roles.js';

export const UserView = lazy(() =>
  z.object({
    id: z.string().describe("a uuid: the person's, or for a token that is no one's, made from the hub and the token"),
    name: z.string(),
    role: z
      .enum(ROLES)
      .describe(
        'owner, manager, user or guest (core/roles.ts); a token no one holds: owner for the owner token, manager for one with every scope or the hub settings, user otherwise',
      ),
    properties: z.record(z.string(), z.unknown()),
    athomId: z.null(),
    enabled: z.boolean(),
    enabledUntil: z.null(),
    present: z.boolean().nullable().describe('home (true) or away; null for a token that is no one'),
    asleep: z.boolean().nullable(),
    avatar: z.string().nullable().describe("the person's picture: a path on the hub (with the token: GET), changing with the picture; null: none"),
    verified: z.boolean(),
    inviteUrl: z.string().nullable().describe('in the answer of createUser only: the one-time sign-in link for their phone'),
    localUsername: z.null(),
    zones: z.array(z.string()).describe("hearth's: a guest's rooms (each with the zones inside it); empty for everyone else, who reach the whole home"),
  }),
);
export type UserView = z.infer<ReturnType<typeof UserView>>;

const Name = lazy(() =>
  z
    .string()
    .trim()
    .min(1, { error: 'a name cannot be empty' })
    .max(MAX_NAME, { error: `a name is at most ${MAX_NAME} characters` }),
);
const Role = lazy(() => z.enum(ROLES, { error: `a role is one of: ${ROLES.join(', ')}` }));
const Id = lazy(() => z.object({ id: z.string().min(1).max(64) }));
const Zones = lazy(() =>
  z
    .array(z.string().min(1).max(64))
    .max(MAX_ZONES, { error: `a guest is given at most ${MAX_ZONES} rooms` })
    .describe("a guest's rooms: zone ids, each with the zones inside it"),
);

/** A sign-in link for a person's phone: the code, its address, when it ends. */
export const Invite = lazy(() => z.object({ code: z.string(), url: z.string(), expiresAt: z.iso.datetime() }));
export type InviteView = z.infer<ReturnType<typeof Invite>>;

export const SessionView = lazy(() =>
  z.object({
    id: z.string(),
    name: z.string().describe('the browser it signed in from'),
    createdAt: z.string(),
    current: z.boolean().describe('the session asking'),
  }),
);
export type SessionView = z.infer<ReturnType<typeof SessionView>>;

/** A property's key, as Homey's clients keep their own per user. */
const PropertyId = lazy(() => z.object({ id: z.string().min(1).max(100) }));

export const usersContract = defineContract({
  name: 'users',
  eventScope: 'service.user.readonly',
  events: lazy(() => ({
    'user.create': [UserView()],
    'user.update': [UserView()],
    'user.delete': [z.object({ id: z.string() })],
  })),
  operations: {
    getState: stateOperation({
      summary: 'How many people the home has, how many are home and how many asleep',
      scope: 'service.user.readonly',
      output: () => z.object({ people: z.number().int(), home: z.number().int(), asleep: z.number().int() }),
    }),
    // The caller's own first: `/user/me` before `/user/:id`.
    getUserMe: op(
      {
        method: 'GET',
        path: '/user/me',
        // Any token: who am I needs no right.
        scope: null,
        summary: "Who the caller is, in Homey's User shape (a token that is no one's is its own user)",
      },
      () => ({ output: UserView() }),
    ),
    updateUserMe: op({ method: 'PUT', path: '/user/me', scope: 'service.user.self', summary: 'Change your own name' }, () => ({
      body: z.strictObject({ name: Name() }),
      output: UserView(),
    })),
    deleteUserMe: op(
      { method: 'DELETE', path: '/user/me', scope: 'service.user.self', summary: 'Leave the home: you and every session of yours are removed', status: 204 },
      () => ({}),
    ),
    updateUserMeProperties: op(
      { method: 'PUT', path: '/user/me/properties/:id', scope: 'service.user.self', summary: 'Keep a value of your own (a client’s setting) under a key' },
      () => ({ params: PropertyId(), body: z.strictObject({ value: z.unknown() }), output: UserView() }),
    ),
    deleteUserMeProperties: op(
      { method: 'DELETE', path: '/user/me/properties/:id', scope: 'service.user.self', summary: 'Forget a value of your own', status: 204 },
      () => ({ params: PropertyId() }),
    ),
    getUserMeAvatar: op(
      { method: 'GET', path: '/user/me/avatar', scope: 'service.user.self', extension: true, summary: 'Your picture', produces: 'image/*' },
      () => ({}),
    ),
    setUserMeAvatar: op(
      {
        method: 'PUT',
        path: '/user/me/avatar',
        scope: 'service.user.self',
        extension: true,
        summary: `Your picture: a JPEG, PNG, GIF or WebP (checked from its bytes) of at most ${MAX_AVATAR_BYTES / 1024} KiB, as the body`,
        upload: { types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'], maxBytes: MAX_AVATAR_BYTES },
      },
      () => ({ output: UserView() }),
    ),
    deleteUserMeAvatar: op(
      { method: 'DELETE', path: '/user/me/avatar', scope: 'service.user.self', extension: true, summary: 'Take your picture away', status: 204 },
      () => ({}),
    ),
    getUserMeSessions: op(
      {
        method: 'GET',
        path: '/user/me/session',
        scope: 'service.user.self',
        extension: true,
        summary: 'Your sessions: each browser signed in as you, by id',
      },
      () => ({ output: z.record(z.string(), SessionView()) }),
    ),
    deleteUserMeSession: op(
      {
        method: 'DELETE',
        path: '/user/me/session/:id',
        scope: 'service.user.self',
        extension: true,
        summary: 'End one of your sessions (a phone lost or given away) at once, its sockets too',
        status: 204,
      },
      () => ({ params: Id() }),
    ),
    getUsers: op({ method: 'GET', path: '/user', scope: 'service.user.readonly', summary: 'The people of the home, by id' }, () => ({
      output: z.record(z.string(), UserView()),
    })),
    getUser: op({ method: 'GET', path: '/user/:id', scope: 'service.user.readonly', summary: 'One person' }, () => ({
      params: Id(),
      output: UserView(),
    })),
    getUserAvatar: op(
      { method: 'GET', path: '/user/:id/avatar', scope: 'service.user.readonly', extension: true, summary: "A person's picture", produces: 'image/*' },
      () => ({ params: Id() }),
    ),
    createUser: op(
      {
        method: 'POST',
        path: '/user',
        scope: 'service.user',
        summary:
          'Add a person (a role below your own, unless you are an owner; a guest with the rooms they may use); the answer’s inviteUrl signs in their phone once, within 10 minutes',
        status: 201,
        bodyRoot: 'user',
      },
      () => ({ body: z.strictObject({ name: Name(), role: Role(), zones: Zones().optional() }), output: UserView() }),
    ),
    updateUser: op(
      {
        method: 'PUT',
        path: '/user/:id',
        scope: 'service.user',
        summary: 'Rename a person, change their role or disable them (which ends their sessions at once); never above your own role',
        bodyRoot: 'user',
      },
      () => ({
        params: Id(),
        body: z.strictObject({ name: Name().optional(), role: Role().optional(), enabled: z.boolean().optional(), zones: Zones().optional() }),
        output: UserView(),
      }),
    ),
    deleteUser: op({ method: 'DELETE', path: '/user/:id', scope: 'service.user', summary: 'Remove a person and every session of theirs', status: 204 }, () => ({
      params: Id(),
    })),
    createUserInvite: op(
      {
        method: 'POST',
        path: '/user/:id/invite',
        scope: 'service.user',
        extension: true,
        summary: 'A new one-time sign-in link for a person (their new phone), valid 10 minutes',
        status: 201,
      },
      () => ({ params: Id(), output: Invite() }),
    ),
  },
});
