/**
 * The users handlers: the people of the home and the caller's own account. Who may add, change
 * or remove whom is the caller's role against the person's (roles.ts `mayManage`), read from the
 * caller's token, never from the body. A token that is no one's (a script's) is its own user, as
 * before hearth had people: its id a uuid made from the hub and the token.
 */
import { createHash } from 'node:crypto';
import { conflict, HearthError, invalid, notFound } from '../../core/errors.js';
import { implement, type Operation, RawResult } from '../../core/operation.js';
import type { PeopleService, PersonRecord } from '../../core/people.js';
import { MAX_AVATAR_BYTES, mayManage, type Role } from '../../core/roles.js';
import type { TokenInfo, TokenService } from '../../core/tokens.js';
import { MAX_LOGIN_TTL_S } from '../tokens/contract.js';
import type { LoginCodes } from '../tokens/login-codes.js';
import { type InviteView, type UserView, usersContract } from './contract.js';

/** A uuid (version 8: made from a hash) for `token` on hub `hubId`. */
function userId(hubId: string, token: TokenInfo): string {
  const h = createHash('sha256').update(`hearth-user\0${hubId}\0${token.id}`).digest('hex');
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A person in Homey's User shape. */
export function personView(p: PersonRecord, inviteUrl: string | null = null): UserView {
  return {
    id: p.id,
    name: p.name,
    role: p.role,
    properties: p.properties,
    athomId: null,
    enabled: p.enabled,
    enabledUntil: null,
    present: p.present,
    asleep: p.asleep,
    avatar: p.avatar ? `/api/manager/users/user/${p.id}/avatar?v=${p.avatar}` : null,
    verified: true,
    inviteUrl,
    localUsername: null,
    zones: p.zones,
  };
}

/** A token that is no one's, as its own user. */
function tokenUser(hubId: string, token: TokenInfo): UserView {
  const role = token.owner ? 'owner' : token.scopes.includes('*') || token.scopes.includes('service.system') ? 'manager' : 'user';
  return {
    id: userId(hubId, token),
    name: token.owner ? 'Owner' : token.name,
    role,
    properties: {},
    athomId: null,
    enabled: true,
    enabledUntil: null,
    present: null,
    asleep: null,
    avatar: null,
    verified: true,
    inviteUrl: null,
    localUsername: null,
    zones: [],
  };
}

export interface UsersDeps {
  readonly hubId: string;
  readonly people: PeopleService;
  readonly tokens: TokenService;
  readonly codes: LoginCodes;
  /** Where phones on the LAN reach the hub (`host:port`), or null before it listens. */
  readonly localAddress: () => string | null;
  /** Whether zone `id` exists (a guest's rooms are checked). */
  readonly zoneExists: (id: string) => boolean;
  /** Says on the home's timeline who changed the family (resolves once kept; never rejects). */
  readonly notify: (text: string) => Promise<void>;
}

/** The token of a request that has one (every operation with a scope, and getUserMe). */
const tokenOf = (request: { token: TokenInfo | null }): TokenInfo => {
  if (!request.token) throw new Error('a users operation was called without a token');
  return request.token;
};

/** The role the caller acts with: their person's; a token that is no one's by what it holds. */
function actorRole(d: UsersDeps, token: TokenInfo): Role {
  if (token.owner || token.scopes.includes('*')) return 'owner';
  const person = token.userId ? d.people.find(token.userId) : undefined;
  return person?.role ?? 'manager';
}

/** The caller's own person, or a sentence why there is none. */
function me(d: UsersDeps, token: TokenInfo): PersonRecord {
  const person = token.userId ? d.people.find(token.userId) : undefined;
  if (!person) throw conflict(`this token ('${token.name}') belongs to no person of the home: sign in with a person's link to have an account`);
  return person;
}

function mustManage(d: UsersDeps, token: TokenInfo, role: Role, what: string): void {
  const actor = actorRole(d, token);
  if (!mayManage(actor, role))
    throw new HearthError('missing_scope', `a ${actor} cannot ${what} ${role === 'owner' || role === 'user' ? 'an' : 'a'} ${role}: only roles below your own`);
}

/** A one-time sign-in link for `person`'s phone. */
function invite(d: UsersDeps, person: PersonRecord): InviteView {
  const { code, expiresAt } = d.codes.issue(['*'], MAX_LOGIN_TTL_S, person.id);
  const at = d.localAddress();
  return { code, expiresAt, url: `${at ? `http://${at}` : ''}/#login=${code}` };
}

export function usersOperations(d: UsersDeps): Operation[] {
  const { people } = d;
  return implement(usersContract.operations, {
    getState: () => {
      const all = people.list();
      return { people: all.length, home: all.filter((p) => p.present).length, asleep: all.filter((p) => p.asleep).length };
    },
    getUserMe: (_input, request) => {
      const token = tokenOf(request);
      const person = token.userId ? people.find(token.userId) : undefined;
      return person ? personView(person) : tokenUser(d.hubId, token);
    },
    updateUserMe: async ({ body }, request) => {
      const person = me(d, tokenOf(request));
      return personView(
        await people.update(person.id, (p) => {
          p.name = body.name;
        }),
      );
    },
    deleteUserMe: async (_input, request) => {
      const person = me(d, tokenOf(request));
      await people.remove(person.id);
      await d.tokens.revokePerson(person.id);
    },
    updateUserMeProperties: async ({ params, body }, request) => {
      const person = me(d, tokenOf(request));
      return personView(
        await people.update(person.id, (p) => {
          p.properties[params.id] = body.value;
        }),
      );
    },
    deleteUserMeProperties: async ({ params }, request) => {
      const person = me(d, tokenOf(request));
      if (!Object.hasOwn(person.properties, params.id)) throw notFound(`you keep no property '${params.id}'`);
      await people.update(person.id, (p) => {
        delete p.properties[params.id];
      });
    },
    getUserMeAvatar: (_input, request) => picture(people, me(d, tokenOf(request)).id),
    setUserMeAvatar: async ({ upload }, request) => {
      const person = me(d, tokenOf(request));
      return personView(await people.setAvatar(person.id, await bytesOf(upload, MAX_AVATAR_BYTES)));
    },
    deleteUserMeAvatar: async (_input, request) => {
      await people.setAvatar(me(d, tokenOf(request)).id, null);
    },
    getUserAvatar: ({ params }) => picture(people, people.get(params.id).id),
    getUserMeSessions: (_input, request) => {
      const token = tokenOf(request);
      const person = me(d, token);
      const ids = new Set(d.tokens.ofPerson(person.id));
      return Object.fromEntries(
        d.tokens
          .list()
          .filter((t) => ids.has(t.id))
          .map((t) => [t.id, { id: t.id, name: t.name, createdAt: t.createdAt, current: t.id === token.id }]),
      );
    },
    deleteUserMeSession: async ({ params }, request) => {
      const person = me(d, tokenOf(request));
      if (!d.tokens.ofPerson(person.id).includes(params.id)) throw notFound(`you have no session '${params.id}'`);
      await d.tokens.revoke(params.id);
    },
    getUsers: () => Object.fromEntries(people.list().map((p) => [p.id, personView(p)])),
    getUser: ({ params }) => personView(people.get(params.id)),
    createUser: async ({ body }, request) => {
      mustManage(d, tokenOf(request), body.role, 'add');
      const zones = rooms(d, body.role, body.zones ?? []);
      const person = await people.create({ name: body.name, role: body.role, zones });
      await d.notify(`${tokenOf(request).actor.name} added ${person.name} as ${article(person.role)} ${person.role}`);
      return personView(person, invite(d, person).url);
    },
    updateUser: async ({ params, body }, request) => {
      const token = tokenOf(request);
      const target = people.get(params.id);
      mustManage(d, token, target.role, 'change');
      if (body.role !== undefined) mustManage(d, token, body.role, 'make someone');
      const role = body.role ?? target.role;
      const zones = body.zones !== undefined || role !== target.role ? rooms(d, role, body.zones ?? target.zones) : undefined;
      const after = await people.update(target.id, (p) => {
        if (body.name !== undefined) p.name = body.name;
        if (body.role !== undefined) p.role = body.role;
        if (body.enabled !== undefined) p.enabled = body.enabled;
        if (zones !== undefined) p.zones = zones;
      });
      // What changes someone's rights is said on the timeline, with who did it.
      const who = token.actor.name;
      if (after.enabled !== target.enabled) await d.notify(`${who} ${after.enabled ? 'enabled' : 'disabled'} ${after.name}`);
      if (after.role !== target.role) await d.notify(`${who} made ${after.name} ${article(after.role)} ${after.role}`);
      return personView(after);
    },
    deleteUser: async ({ params }, request) => {
      const target = people.get(params.id);
      mustManage(d, tokenOf(request), target.role, 'remove');
      await people.remove(target.id);
      await d.tokens.revokePerson(target.id);
      await d.notify(`${tokenOf(request).actor.name} removed ${target.name} from the home`);
    },
    createUserInvite: ({ params }, request) => {
      const target = people.get(params.id);
      mustManage(d, tokenOf(request), target.role, 'sign in');
      if (!target.enabled) throw conflict(`${target.name} is disabled: enable them first`);
      return invite(d, target);
    },
  });
}

/** A person's picture as the hub serves an image it checked: its own type, nothing run, no sniffing. */
function picture(people: PeopleService, id: string): RawResult {
  const a = people.avatar(id);
  if (!a) throw notFound('no picture');
  return new RawResult(a.type, a.bytes, 200, {
    'cache-control': 'private, max-age=86400',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
  });
}

/** An upload's bytes, read to `max` (the HTTP layer bounds it too). */
async function bytesOf(upload: ReadableStream<Uint8Array> | undefined, max: number): Promise<Uint8Array> {
  if (!upload) throw invalid('send the picture as the body');
  const parts: Uint8Array[] = [];
  let n = 0;
  for await (const part of upload) {
    n += part.length;
    if (n > max) throw new HearthError('payload_too_large', `a picture is at most ${max / 1024} KiB`);
    parts.push(part);
  }
  return Buffer.concat(parts);
}

const article = (role: Role): string => (role === 'owner' ? 'an' : 'a');

/**
 * The rooms a person of `role` keeps: a guest at least one, each a zone that exists (named once);
 * anyone else none (they reach the whole home).
 */
function rooms(d: UsersDeps, role: Role, zones: readonly string[]): string[] {
  if (role !== 'guest') return [];
  const unique = [...new Set(zones)];
  if (unique.length === 0) throw invalid('a guest is given at least one room: name the zones they may use in `zones`');
  const missing = unique.filter((id) => !d.zoneExists(id));
  if (missing.length > 0) throw invalid(`no such zone: ${missing.join(', ')}`);
  return unique;
}
