/**
 * API tokens: random 256-bit secrets, stored only as SHA-256 hashes, checked in constant time.
 * The owner token (every scope) is made on first start, or taken from HEARTH_OWNER_TOKEN.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { SCOPES, type GrantedScope } from './scopes.js';
import type { Section, Store } from './store.js';

export interface TokenInfo {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly GrantedScope[];
  readonly createdAt: string;
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

const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** The prefix every secret this hub makes starts with, so a leaked token is recognisable. */
export const TOKEN_PREFIX = 'hth_';

export class TokenService {
  private readonly section: Section<Record<string, TokenRecord>>;
  /** hash -> record, so a lookup costs one hash and one map get. */
  private byHash = new Map<string, TokenRecord>();
  /** Called with the id of a revoked token (the WebSocket layer closes its sockets). */
  onRevoke: ((id: string) => void) | undefined;

  constructor(store: Store) {
    this.section = store.section('tokens', TokensSection, () => ({}));
    this.reindex();
  }

  private reindex(): void {
    this.byHash = new Map(Object.values(this.section.value).map((r) => [r.hash, r]));
  }

  /**
   * Makes sure an owner token exists. Returns the new secret when one was made (to be written
   * to the owner-token file), or null when the existing owner token stays.
   */
  async ensureOwner(provided: string | undefined): Promise<string | null> {
    const owner = Object.values(this.section.value).find((r) => r.owner);
    if (provided !== undefined) {
      if (owner?.hash === hashOf(provided)) return null;
      await this.section.update((tokens) => {
        if (owner) delete tokens[owner.id];
        const rec = this.record('owner', ['*'], provided, true);
        tokens[rec.id] = rec;
      });
      this.reindex();
      return null;
    }
    if (owner) return null;
    const secret = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    await this.section.update((tokens) => {
      const rec = this.record('owner', ['*'], secret, true);
      tokens[rec.id] = rec;
    });
    this.reindex();
    return secret;
  }

  private record(name: string, scopes: GrantedScope[], secret: string, owner = false): TokenRecord {
    return { id: randomUUID(), name, scopes, createdAt: new Date().toISOString(), hash: hashOf(secret), ...(owner ? { owner } : {}) };
  }

  /** The token a secret belongs to, or null. Constant time in the secret's content. */
  verify(secret: string): TokenInfo | null {
    const hash = hashOf(secret);
    const rec = this.byHash.get(hash);
    if (!rec) return null;
    // The map lookup already matched; compare again in constant time so no early-exit string
    // comparison inside the map is what decides.
    return timingSafeEqual(Buffer.from(rec.hash, 'hex'), Buffer.from(hash, 'hex')) ? this.info(rec) : null;
  }

  private info(rec: TokenRecord): TokenInfo {
    return { id: rec.id, name: rec.name, scopes: rec.scopes, createdAt: rec.createdAt };
  }

  list(): TokenInfo[] {
    return Object.values(this.section.value).map((r) => this.info(r));
  }

  /** Creates a token; the secret is returned only here. */
  async create(name: string, scopes: GrantedScope[]): Promise<TokenInfo & { token: string }> {
    const secret = TOKEN_PREFIX + randomBytes(32).toString('base64url');
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
