/**
 * API tokens: random 256-bit secrets, stored only as SHA-256 hashes, checked in constant time.
 * The owner token (every scope) is made on first start, or taken from HEARTH_OWNER_TOKEN.
 */
import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Actor } from './actor.js';
import { MiB } from './byte-bounds.js';
import { unavailable } from './errors.js';
import { nullRecord, safeRecord } from './null-prototype.js';
import type { PeopleService } from './people.js';
import { scopesOf } from './roles.js';
import { type GrantedScope, SCOPES } from './scopes.js';
import { type Section, type Store, StoreSectionError } from './store.js';

/**
 * The name prefix of the tokens the hub gives apps (`app:<appId>`, for Homey's client inside an
 * app: apps/host/api-socket.ts). They reach the managers' API only: apps cannot call each other,
 * so an app's token opens no app's Web API and no app's realtime channel.
 */
export const APP_TOKEN_NAME = 'app:';
export const isAppToken = (t: TokenInfo): boolean => t.id.startsWith(`internal:${APP_TOKEN_NAME}`);
export const APP_TOKEN_REFUSED = "an app's token reaches the managers' API only: apps cannot call each other";
/** The app an app's token was given to, or null for any other token. */
export const appOfToken = (t: TokenInfo | null): string | null => (t && isAppToken(t) ? t.id.slice(`internal:${APP_TOKEN_NAME}`.length) : null);

export interface TokenInfo {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly GrantedScope[];
  readonly createdAt: string;
  /** The owner token: every scope, replaced only by deleting <data-dir>/owner-token. */
  readonly owner: boolean;
  /** A browser's session, made from a one-time sign-in link (named after the browser). */
  readonly session: boolean;
  /**
   * The person it belongs to (the owner token: the first owner), or null: a script's token, a
   * session signed in for no one. A person's token holds what their role gives (`scopes` is
   * that, within what it was made with), and nothing once they are disabled or removed.
   */
  readonly userId: string | null;
  /**
   * The zones a guest's token is held to (each with the zones inside it: managers/zones/reach.ts),
   * or null: the whole home.
   */
  readonly zones: readonly string[] | null;
  /** Who acts with it, as events name them (`by`): its person, the app it was given to, or the token itself. */
  readonly actor: Actor;
}

const grantedScope = z.enum([...SCOPES, '*']);
const TokenRecord = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(grantedScope),
  createdAt: z.string(),
  /** sha256 of the secret, hex. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  owner: z.boolean().optional(),
  session: z.boolean().optional(),
  userId: z.string().optional(),
});
type TokenRecord = z.infer<typeof TokenRecord>;
const TokensSection = safeRecord(z.string(), TokenRecord);

// One-shot: createHash() builds a stream-capable Hash object per call, 4x the cost of the digest.
const hashOf = (secret: string): string => hash('sha256', secret, 'hex');

/** The prefix every secret this hub makes starts with, so a leaked token is recognisable. */
export const TOKEN_PREFIX = 'hth_';

/** A new random secret: 256 bits, base64url, with the hearth prefix. */
export const newSecret = (): string => TOKEN_PREFIX + randomBytes(32).toString('base64url');

interface IndexedToken {
  /** The stored hash as bytes, for the constant-time compare. */
  readonly bytes: Buffer;
  /** Frozen and shared by every request that presents this token. */
  readonly info: TokenInfo;
}

/** The id of the owner token while the section is broken (held in memory only; see `broken`). */
const BROKEN_OWNER_ID = 'owner';

export class TokenService {
  private readonly section: Section<Record<string, TokenRecord>> | null = null;
  /**
   * Why the `tokens` section could not be opened (it does not match its schema), or null. While
   * it is broken no token is listed or stored, and only the owner token (HEARTH_OWNER_TOKEN or
   * owner-token) is accepted, held in memory, so the owner can still reach the hub to repair it
   * or restore a backup.
   */
  readonly broken: string | null = null;
  /** hex hash -> the token, so a request costs one hash, one map get and one compare. */
  private byHash = new Map<string, IndexedToken>();
  /** The tokens of people who are turned off, by digest: their name. */
  private turnedOff = new Map<string, string>();
  /** Tokens the hub holds for itself: never stored, never listed, gone with the process. */
  private readonly internal = new Map<string, IndexedToken>();
  /** Called with the id of a revoked token (the WebSocket layer closes its sockets). */
  onRevoke: ((id: string) => void) | undefined;

  constructor(
    store: Store,
    private readonly people: PeopleService | null = null,
  ) {
    try {
      this.section = store.section('tokens', TokensSection, () => ({}), { bytes: { section: 2 * MiB, items: 'tokens' }, records: [['*']] });
    } catch (err) {
      // The section stays in the file as it is; the tokens manager answers 503 with this reason.
      if (!(err instanceof StoreSectionError)) throw err;
      this.broken = err.message;
    }
    this.reindex();
    // A person's rights are their role's (and their name is who acts): read again when those
    // change, not at every presence change.
    people?.onChange(({ before, after }) => {
      const same =
        before &&
        after &&
        before.role === after.role &&
        before.enabled === after.enabled &&
        before.name === after.name &&
        before.zones.join('\0') === after.zones.join('\0');
      if (!same) this.reindex();
    });
  }

  private get records(): Record<string, TokenRecord> {
    return this.section?.value ?? nullRecord();
  }

  private mustSection(): Section<Record<string, TokenRecord>> {
    if (!this.section) throw unavailable(`tokens cannot be created or revoked: ${this.broken}; repair that section or restore a backup`);
    return this.section;
  }

  private reindex(): void {
    this.byHash = new Map();
    this.turnedOff = new Map();
    for (const r of Object.values(this.records)) {
      const info = this.info(r);
      // A disabled or removed person's tokens open nothing; a disabled one's are told why.
      if (info) this.byHash.set(r.hash, { bytes: Buffer.from(r.hash, 'hex'), info: Object.freeze(info) });
      else if (r.userId) {
        const person = this.people?.find(r.userId);
        if (person) this.turnedOff.set(r.hash, person.name);
      }
    }
  }

  /**
   * The name of the disabled person `secret` belongs to, or null: whoever holds a person's token
   * is that person, so telling them they are turned off (rather than "unknown") gives nothing away.
   */
  turnedOffPerson(secret: string): string | null {
    return this.turnedOff.get(hashOf(secret)) ?? null;
  }

  /** True when `secret` is the current owner token. */
  isOwner(secret: string): boolean {
    const owner = this.section ? Object.values(this.records).find((r) => r.owner) : this.byHash.values().next().value?.info;
    return owner !== undefined && this.verify(secret)?.id === owner.id;
  }

  /**
   * Makes `secret` the owner token (every scope), replacing the previous owner token. With a
   * broken section the owner token is held in memory only: the file is left for its repair.
   */
  async setOwner(secret: string): Promise<void> {
    if (!this.section) {
      const rec = { ...this.record('owner', ['*'], secret, true), id: BROKEN_OWNER_ID };
      const info: TokenInfo = { ...this.base(rec), userId: null, zones: null, actor: { kind: 'token', id: rec.id, name: 'owner' } };
      this.byHash = new Map([[rec.hash, { bytes: Buffer.from(rec.hash, 'hex'), info: Object.freeze(info) }]]);
      return;
    }
    await this.section.update((tokens) => {
      for (const r of Object.values(tokens)) if (r.owner) delete tokens[r.id];
      const rec = this.record('owner', ['*'], secret, true);
      tokens[rec.id] = rec;
    });
    this.reindex();
  }

  private record(name: string, scopes: GrantedScope[], secret: string, owner = false, session = false, userId?: string): TokenRecord {
    return {
      id: randomUUID(),
      name,
      scopes,
      createdAt: new Date().toISOString(),
      hash: hashOf(secret),
      ...(owner ? { owner } : {}),
      ...(session ? { session } : {}),
      ...(userId ? { userId } : {}),
    };
  }

  /** The token a secret belongs to, or null. Constant time in the secret's content. */
  verify(secret: string): TokenInfo | null {
    const digest = hashOf(secret);
    const token = this.byHash.get(digest) ?? this.internal.get(digest);
    if (!token) return null;
    // The map lookup already matched; compare again in constant time so no early-exit string
    // comparison inside the map is what decides.
    return timingSafeEqual(token.bytes, Buffer.from(digest, 'hex')) ? token.info : null;
  }

  private base(rec: TokenRecord): Omit<TokenInfo, 'userId' | 'zones' | 'actor'> {
    return { id: rec.id, name: rec.name, scopes: rec.scopes, createdAt: rec.createdAt, owner: rec.owner === true, session: rec.session === true };
  }

  /** The token as a request holds it, or null when it belongs to a person who is disabled or gone. */
  private info(rec: TokenRecord): TokenInfo | null {
    const base = this.base(rec);
    const self: Actor = { kind: 'token', id: rec.id, name: rec.name };
    if (rec.owner) {
      const owner = this.people?.tokenOwner();
      return { ...base, userId: owner?.id ?? null, zones: null, actor: owner ? { kind: 'person', id: owner.id, name: owner.name } : self };
    }
    if (!rec.userId) return { ...base, userId: null, zones: null, actor: self };
    const person = this.people?.find(rec.userId);
    if (!person?.enabled) return null;
    // Frozen with the token: shared by every request, and the key reach.ts caches a guest's rooms by.
    const zones = person.role === 'guest' ? Object.freeze([...person.zones]) : null;
    return { ...base, scopes: scopesOf(person.role, rec.scopes), userId: person.id, zones, actor: { kind: 'person', id: person.id, name: person.name } };
  }

  /** As listed: a disabled person's tokens too (their rights are none while disabled). */
  private listed(rec: TokenRecord): TokenInfo {
    return this.info(rec) ?? { ...this.base(rec), scopes: [], userId: rec.userId ?? null, zones: null, actor: { kind: 'token', id: rec.id, name: rec.name } };
  }

  /**
   * A token only this process knows, for requests the hub makes on someone's behalf through its
   * own HTTP layer (apps' `this.homey.api` calls), so they pass the same scope checks as anyone's.
   */
  issueInternal(name: string, scopes: GrantedScope[]): string {
    const secret = newSecret();
    const digest = hashOf(secret);
    const info: TokenInfo = Object.freeze({
      id: `internal:${name}`,
      name,
      scopes,
      createdAt: new Date().toISOString(),
      owner: false,
      session: false,
      userId: null,
      zones: null,
      // An app's token (apps' `this.homey.api` calls) acts as the app.
      actor: name.startsWith(APP_TOKEN_NAME)
        ? { kind: 'app' as const, id: name.slice(APP_TOKEN_NAME.length), name: name.slice(APP_TOKEN_NAME.length) }
        : { kind: 'token' as const, id: `internal:${name}`, name },
    });
    this.internal.set(digest, { bytes: Buffer.from(digest, 'hex'), info });
    return secret;
  }

  /** Forgets the internal tokens issued to `name` (an app that was removed). */
  dropInternal(name: string): void {
    for (const [digest, entry] of this.internal) if (entry.info.name === name) this.internal.delete(digest);
  }

  list(): TokenInfo[] {
    return Object.values(this.records).map((r) => this.listed(r));
  }

  /**
   * Creates a token (a browser's session when `session`; `userId`'s when given, holding what
   * their role gives within `scopes`); the secret is returned only here.
   */
  async create(name: string, scopes: GrantedScope[], session = false, userId?: string): Promise<TokenInfo & { token: string }> {
    const secret = newSecret();
    const rec = this.record(name, scopes, secret, false, session, userId);
    await this.mustSection().update((tokens) => {
      tokens[rec.id] = rec;
    });
    this.reindex();
    return { ...this.listed(rec), token: secret };
  }

  /** The ids of `userId`'s tokens (the owner token is never among them: it is the home's). */
  ofPerson(userId: string): string[] {
    return Object.values(this.records)
      .filter((r) => r.userId === userId)
      .map((r) => r.id);
  }

  /** Revokes every token of `userId` at once (they were removed from the home). */
  async revokePerson(userId: string): Promise<void> {
    const ids = this.ofPerson(userId);
    if (ids.length === 0) return;
    await this.mustSection().update((tokens) => {
      for (const id of ids) delete tokens[id];
    });
    this.reindex();
    for (const id of ids) this.onRevoke?.(id);
  }

  /** Ends every open socket of `userId`'s tokens (their rights changed: they connect again with the new ones). */
  closeSockets(userId: string): void {
    for (const id of this.ofPerson(userId)) this.onRevoke?.(id);
  }

  /** Revokes at once; false when no such token. */
  async revoke(id: string): Promise<boolean> {
    if (!this.records[id]) return false;
    await this.mustSection().update((tokens) => {
      delete tokens[id];
    });
    this.reindex();
    this.onRevoke?.(id);
    return true;
  }
}
