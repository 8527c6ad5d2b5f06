/**
 * Signed catalogues. A catalogue's `index.json` lists every package with its sha256, so a
 * signature over the exact bytes of the index covers the packages too. The signature is
 * `index.json.sig` beside it: the base64 ed25519 signature (node:crypto) of those bytes. The hub
 * checks it against a public key pinned with `--store-key` when the store was configured:
 * whoever can tamper with the traffic to a plain-http store can no longer install code.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SIGNATURE_SUFFIX = '.sig';

/** The newest catalogue sequence the hub accepted from each store (catalogue-memory.ts). */
export interface CatalogueMemory {
  /** Throws when `sequence` is older than one accepted from `location` before; remembers a newer one. */
  check(location: string, sequence: number | null): Promise<void>;
}

/** Where the catalogue is and the key its index must be signed with (null: none pinned). */
export interface CatalogueSource {
  readonly location: string;
  readonly key: KeyObject | null;
  /** Refuses catalogues older than one already accepted (absent: no memory, e.g. `hearth app pack`). */
  readonly seen?: CatalogueMemory;
}

/** A location alone is a catalogue without a pinned key. */
export const sourceOf = (s: string | CatalogueSource): CatalogueSource => (typeof s === 'string' ? { location: s, key: null } : s);

export const isHttpOnly = (location: string): boolean => /^http:\/\//i.test(location);

/**
 * Whether the daily check may upgrade apps from this catalogue, and if not, why. Without a
 * pinned key, a plain-http catalogue is exactly what an attacker on the network can rewrite.
 */
export function automaticUpdates(source: CatalogueSource): { on: boolean; why: string | null } {
  if (source.key === null && isHttpOnly(source.location)) {
    return {
      on: false,
      why: 'automatic updates are off: the app store is plain http and its catalogue is not signed, so anyone on the network path could change what gets installed. Pin its key with --store-key, or use an https store',
    };
  }
  return { on: true, why: null };
}

/** Reads an ed25519 public key (PEM) for `--store-key`; throws a sentence naming the file. */
export function loadPublicKey(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(readFileSync(file));
  } catch (err) {
    throw new Error(`the store key ${file} cannot be read as a PEM public key (${(err as Error).message})`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the store key ${file} is a ${key.asymmetricKeyType} key; an ed25519 key is needed`);
  return key;
}

/** The `index.json.sig` text for `index` signed with the private key PEM in `privateKeyFile`. */
export function signIndex(index: Buffer, privateKeyFile: string): string {
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(privateKeyFile));
  } catch (err) {
    throw new Error(`the signing key ${privateKeyFile} cannot be read as a PEM private key (${(err as Error).message})`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the signing key ${privateKeyFile} is not an ed25519 key`);
  return `${sign(null, index, key).toString('base64')}\n`;
}

/** True when `signatureText` (base64) is `key`'s signature of exactly `index`. */
export function signatureHolds(index: Buffer, signatureText: string, key: KeyObject): boolean {
  const signature = Buffer.from(signatureText.trim(), 'base64');
  return signature.length === 64 && verify(null, index, key, signature);
}

/** Writes a new key pair into `dir`: `store-key.pem` (private, 0600) and `store-key.pub.pem`. */
export async function makeKeyPair(dir: string): Promise<{ privateFile: string; publicFile: string }> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const privateFile = join(dir, 'store-key.pem');
  const publicFile = join(dir, 'store-key.pub.pem');
  await writeFile(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  await writeFile(publicFile, publicKey.export({ type: 'spki', format: 'pem' }), { flag: 'wx' });
  return { privateFile, publicFile };
}
