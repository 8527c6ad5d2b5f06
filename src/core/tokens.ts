/**
 * API tokens: random 256-bit secrets, stored only as SHA-256 hashes, checked in constant time.
 * The owner token (every scope) is made on first start, or taken from HEARTH_OWNER_TOKEN.
 */
import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { SCOPES, type GrantedScope } from './scopes.js';
import type { Section, Store } from './store.js';

export interface TokenInfo {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly GrantedScope[];
  readonly createdAt: string;
  /** The owner token: every scope, replaced only by deleting <data-dir>/owner-token. */
  readonly owner: boolean;
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
});
type TokenRecord = z.infer<typeof TokenRecord>;
const TokensSection = z.record(z.string(), TokenRecord);

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

export class TokenService {
  private readonly section: Section<Record<string, TokenRecord>>;
  /** hex hash -> the token, so a request costs one hash, one map get and one compare. */
  private byHash = new Map<string, IndexedToken>();
  /** Called with the id of a revoked token (the WebSocket layer closes its sockets). */
  onRevoke: ((id: string) => void) | undefined;

  constructor(store: Store) {
    this.section = store.section('tokens', TokensSection, () => ({}));
    this.reindex();
  }

  private reindex(): void {
    this.byHash = new Map(
      Object.values(this.section.value).map((r) => [r.hash, { bytes: Buffer.from(r.hash, 'hex'), info: Object.freeze(this.info(r)) }]),
    );
  }

  /** True when `secret` is the current owner token. */
  isOwner(secret: string): boolean {
    const owner = Object.values(this.section.value).find((r) => r.owner);
    return owner !== undefined && this.verify(secret)?.id === owner.id;
  }

  /** Makes `secret` the owner token (every scope), replacing the previous owner token. */
  async setOwner(secret: string): Promise<void> {
    await this.section.update((tokens) => {
      for (const r of Object.values(tokens)) if (r.owner) delete tokens[r.id];
      const rec = this.record('owner', ['*'], secret, true);
      tokens[rec.id] = rec;
    });
    this.reindex();
  }

  private record(name: string, scopes: GrantedScope[], secret: string, owner = false): TokenRecord {
    return { id: randomUUID(), name, scopes, createdAt: new Date().toISOString(), hash: hashOf(secret), ...(owner ? { owner } : {}) };
  }

  /** The token a secret belongs to, or null. Constant time in the secret's content. */
  verify(secret: string): TokenInfo | null {
    const digest = hashOf(secret);
    const token = this.byHash.get(digest);
    if (!token) return null;
    // The map lookup already matched; compare again in constant time so no early-exit string
    // comparison inside the map is what decides.
    return timingSafeEqual(token.bytes, Buffer.from(digest, 'hex')) ? token.info : null;
  }

  private info(rec: TokenRecord): TokenInfo {
    return { id: rec.id, name: rec.name, scopes: rec.scopes, createdAt: rec.createdAt, owner: rec.owner === true };
  }

  list(): TokenInfo[] {
    return Object.values(this.section.value).map((r) => this.info(r));
  }

  /** Creates a token; the secret is returned only here. */
  async create(name: string, scopes: GrantedScope[]): Promise<TokenInfo & { token: string }> {
    const secret = newSecret();
    const rec = this.record(name, scopes, secret);
    await this.section.update((tokens) => {
      tokens[rec.id] = rec;
    });
    this.reindex();
    return { ...this.info(rec), token: secret };
  }

  /** Revokes at once; false when no such token. */
  async revoke(id: string): Promise<boolean> {
    if (!this.section.value[id]) return false;
    await this.section.update((tokens) => {
      delete tokens[id];
    });
    this.reindex();
    this.onRevoke?.(id);
    return true;
  }
}
