/**
 * What a restore through the API brings in of the backup's tokens (restore-rights.ts): a
 * person's token acts as that person, so only the owner's restore brings one in; otherwise a
 * manager could restore a token that is the owner's, with scopes the manager holds.
 */
import { describe, expect, it } from 'vitest';
import { composeStore } from '../../src/backup/restore-rights.js';
import type { StoreDocument } from '../../src/core/store.js';

const hash = (c: string) => c.repeat(64);
const token = (id: string, extra: Record<string, unknown>) => ({
  id,
  name: id,
  scopes: ['SYSTEM'],
  createdAt: '2026-01-01T00:00:00.000Z',
  hash: hash(id[0]!),
  ...extra,
});
const backup = {
  schemaVersion: 1,
  tokens: { a: token('a', {}), b: token('b', { userId: 'the-owner-person' }) },
} as unknown as StoreDocument;
const current = { schemaVersion: 1, tokens: {} } as unknown as StoreDocument;
const rights = (grants: string[]) => ({ grants, option: () => undefined }) as unknown as Parameters<typeof composeStore>[2];

describe("a restore's tokens", () => {
  it("a SYSTEM restore brings a script's token it could have made, never a person's", () => {
    const { doc, leftOut, tokensAdded } = composeStore(backup, current, rights(['SYSTEM']));
    expect(Object.keys(doc.tokens as object)).toEqual(['a']);
    expect(tokensAdded).toBe(1);
    expect(leftOut.join(' ')).toContain("a person's");
  });

  it("the owner's restore brings both", () => {
    const { doc } = composeStore(backup, current, rights(['*']));
    expect(Object.keys(doc.tokens as object).sort()).toEqual(['a', 'b']);
  });
});
