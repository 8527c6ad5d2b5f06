/**
 * App store client: reads a catalogue (`index.json` in a folder or at an http(s) URL, signed when
 * a key is pinned), fetches an app package (tar.gz), checks its size and sha256, and extracts it
 * into a staging folder (package-extract.ts). Everything it writes goes into the staging folder
 * the caller removes, so a refused package leaves nothing.
 */

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { HearthError, notFound } from '../../core/errors.js';
import { safeRecord } from '../../core/null-prototype.js';
import { transient } from '../../core/transient.js';
import { describeIssues } from '../../core/zod-issues.js';
import { loadAppFolder } from '../manifest/compose.js';
import { AppId, type AppManifest, Version } from '../manifest/manifest.js';
import { permissionChange, permissionProblem } from '../manifest/permissions.js';
import { Localized } from '../manifest/settings.js';
import { type CatalogueSource, SIGNATURE_SUFFIX, signatureHolds, sourceOf } from './key.js';
import { extract, saveBounded } from './package-extract.js';

/** A release's permissions as its app.json lists them; repeats dropped, as the manifest drops them. */
const ListedPermissions = transient(() => z.array(z.string().refine((p) => permissionProblem(p) === null)).transform((p) => [...new Set(p)]));

export const ChannelEntry = transient(() =>
  z.object({
    version: Version(),
    /** Relative to the index, or absolute. */
    url: z.string().min(1),
    sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits'),
    /**
     * What the package's app.json asks for (`hearth app pack` writes it); optional for older
     * catalogues. A malformed list is dropped like a malformed name: the release then shows no
     * permissions before install, and the install is not held to a list.
     */
    permissions: ListedPermissions().optional().catch(undefined),
  }),
);
export type ChannelEntry = z.infer<ReturnType<typeof ChannelEntry>>;

/** Largest icon file `hearth app pack` inlines into the catalogue. */
export const ICON_MAX_BYTES = 16 * 1024;
const ICON_MAX_URL = 40 + Math.ceil(ICON_MAX_BYTES / 3) * 4;
/** A picture as a data URL, nothing else (an <img> of one runs no script, even an SVG). */
export const ICON_DATA_URL = /^data:image\/(?:png|jpeg|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/;

export const Catalogue = transient(() =>
  z.object({
    /**
     * How new this catalogue is: `hearth app pack` adds one with each change. The hub remembers the
     * highest it accepted from each store and refuses a lower one (an old, validly signed index
     * served again to bring back old versions). Absent in catalogues made before it existed.
     */
    sequence: z.number().int().nonnegative().optional(),
    /** When it was made (informative; the sequence decides). */
    publishedAt: z.iso.datetime({ offset: true }).optional().catch(undefined),
    apps: safeRecord(
      AppId(),
      z.object({
        /** From the app's manifest (`hearth app pack` writes them); optional for older catalogues. */
        // A bad name must not make the whole store unusable: it is dropped, the app shows its id.
        name: Localized().optional().catch(undefined),
        description: Localized().optional().catch(undefined),
        /**
         * The app's icon as a data URL (`hearth app pack` inlines it, up to ICON_MAX_BYTES), so the
         * web app shows it before install without fetching from the store. Anything else is dropped.
         */
        icon: z.string().max(ICON_MAX_URL).regex(ICON_DATA_URL).optional().catch(undefined),
        brandColor: z
          .string()
          .regex(/^#[0-9a-fA-F]{6}$/)
          .optional()
          .catch(undefined),
        channels: safeRecord(z.string(), ChannelEntry()),
      }),
    ),
  }),
);
export type Catalogue = z.infer<ReturnType<typeof Catalogue>>;

export const INDEX_FILE = 'index.json';
export const MAX_PACKAGE_BYTES = 50 * 1024 * 1024;
const MAX_INDEX_BYTES = 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

const badGateway = (what: string): HearthError => new HearthError('bad_gateway', what);
const isHttp = (location: string): boolean => /^https?:\/\//i.test(location);

/** Where index.json of a store location is. */
export function indexUrl(location: string): URL {
  if (isHttp(location)) return new URL(location.endsWith('.json') ? location : `${location.replace(/\/?$/, '/')}${INDEX_FILE}`);
  if (!isAbsolute(location)) location = resolve(location);
  return pathToFileURL(location.endsWith('.json') ? location : join(location, INDEX_FILE));
}

async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number, what: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  if (!body) return Buffer.alloc(0);
  for await (const chunk of Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>)) {
    size += (chunk as Buffer).length;
    if (size > limit) throw badGateway(`${what} is larger than ${limit} bytes`);
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

/**
 * Reads and validates the catalogue. A local store without index.json is an empty store. With a
 * pinned key, the index must carry a valid `index.json.sig` (catalogue-key.ts), or nothing of it
 * is used (502).
 */
export async function readCatalogue(from: string | CatalogueSource): Promise<{ catalogue: Catalogue; base: URL }> {
  const source = sourceOf(from);
  const url = indexUrl(source.location);
  const bytes = await readIndexFile(url, MAX_INDEX_BYTES, 'index');
  if (bytes === null) return { catalogue: { apps: {} }, base: url };
  if (source.key) {
    const sigUrl = new URL(`${url.href}${SIGNATURE_SUFFIX}`);
    const signature = await readIndexFile(sigUrl, 4096, 'signature');
    if (signature === null)
      throw badGateway(`the app store index ${url.href} is not signed (no ${sigUrl.href}), but a store key is pinned; nothing from it is used`);
    if (!signatureHolds(bytes, signature.toString('utf8'), source.key)) {
      throw badGateway(`the app store index ${url.href} is not signed by the pinned store key; nothing from it is used`);
    }
  }
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw badGateway(`the app store index ${url.href} is not valid JSON`);
  }
  const parsed = Catalogue().safeParse(raw);
  if (!parsed.success) throw badGateway(`the app store index ${url.href} is malformed: ${describeIssues(parsed.error, 'index.json')}`);
  // Only after its signature held: the sequence of an index nobody vouches for proves nothing.
  await source.seen?.check(source.location, parsed.data.sequence ?? null);
  return { catalogue: parsed.data, base: url };
}

/** The bytes of the index (or its signature) at `url`; null when a local one does not exist. */
async function readIndexFile(url: URL, limit: number, what: 'index' | 'signature'): Promise<Buffer | null> {
  const name = what === 'index' ? 'the app store index' : 'the app store signature';
  if (url.protocol === 'file:') {
    try {
      const bytes = await readFile(fileURLToPath(url));
      if (bytes.length > limit) throw badGateway(`${name} ${fileURLToPath(url)} is larger than ${limit} bytes`);
      return bytes;
    } catch (err) {
      if (err instanceof HearthError) throw err;
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw badGateway(`${name} ${fileURLToPath(url)} cannot be read (${(err as NodeJS.ErrnoException).code})`);
    }
  }
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  } catch (err) {
    throw badGateway(`the app store at ${url.href} is unreachable: ${(err as Error).message}`);
  }
  if (what === 'signature' && res.status === 404) return null;
  if (!res.ok) throw badGateway(`the app store answered ${res.status} for ${url.href}`);
  return readLimited(res.body, limit, `${name} ${url.href}`);
}

/** Picks the channel entry of an app, with 404s that name what exists. */
export function pickRelease(catalogue: Catalogue, id: string, channel: string, location: string): ChannelEntry {
  const app = catalogue.apps[id];
  if (!app) throw notFound(`app '${id}' is not in the app store at ${location}`);
  const entry = app.channels[channel];
  if (!entry) {
    throw notFound(`app '${id}' has no '${channel}' channel in the app store; channels: ${Object.keys(app.channels).join(', ') || 'none'}`);
  }
  return entry;
}

/** The package URL; an http catalogue may only point at http(s), never at local files. */
export function packageUrl(entry: ChannelEntry, base: URL): URL {
  let url: URL;
  try {
    url = new URL(entry.url, base);
  } catch {
    throw badGateway(`the app store lists an invalid package url '${entry.url}'`);
  }
  const allowed = base.protocol === 'file:' ? ['file:', 'http:', 'https:'] : ['http:', 'https:'];
  if (!allowed.includes(url.protocol)) throw badGateway(`the app store lists a package url with a forbidden scheme: ${url.protocol}`);
  return url;
}

/**
 * A local catalogue (a folder, or a file: URL) may only point at packages inside its own folder:
 * otherwise a catalogue entry could make the hub read, and report on, any file it can read.
 */
async function checkInsideCatalogue(url: URL, base: URL): Promise<void> {
  if (url.protocol !== 'file:') return;
  const folder = await realpath(dirname(fileURLToPath(base)));
  const file = await realpath(fileURLToPath(url)).catch(() => null);
  if (file === null || !file.startsWith(folder + sep)) {
    throw badGateway(`the app store lists a package outside its own folder (${folder}); a local store's packages must be inside it`);
  }
}

/** Streams the package to `dest`, enforcing the size limit and returning its sha256. */
export async function download(url: URL, dest: string, maxBytes = MAX_PACKAGE_BYTES): Promise<{ sha256: string; size: number }> {
  let source: Readable;
  if (url.protocol === 'file:') {
    source = createReadStream(fileURLToPath(url));
  } else {
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    } catch (err) {
      throw badGateway(`the app package at ${url.href} is unreachable: ${(err as Error).message}`);
    }
    if (!res.ok || !res.body) throw badGateway(`the app store answered ${res.status} for ${url.href}`);
    if (Number(res.headers.get('content-length') ?? 0) > maxBytes) throw badGateway(`the app package is larger than ${maxBytes} bytes`);
    source = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
  }
  const hash = createHash('sha256');
  let size: number;
  try {
    const tooLarge = (): HearthError => badGateway(`the app package is larger than ${maxBytes} bytes`);
    size = await saveBounded(source, dest, { maxBytes, tooLarge, doing: 'while the app package was downloaded' }, (chunk) => hash.update(chunk));
  } catch (err) {
    if (err instanceof HearthError) throw err;
    throw badGateway(`the app package at ${url.href} could not be fetched: ${(err as Error).message}`);
  }
  return { sha256: hash.digest('hex'), size };
}

export interface StagedApp {
  dir: string;
  manifest: AppManifest;
  version: string;
  channel: string;
  sha256: string;
}

/**
 * Fetches, verifies and extracts app `id` from the store into `<staging>/app`, and checks
 * its manifest. `staging` must be an empty folder on the apps folder's file system.
 */
export async function stageFromCatalogue(from: string | CatalogueSource, id: string, channel: string, staging: string): Promise<StagedApp> {
  const { catalogue, base } = await readCatalogue(from);
  const entry = pickRelease(catalogue, id, channel, sourceOf(from).location);
  const url = packageUrl(entry, base);
  await checkInsideCatalogue(url, base);
  const tarball = join(staging, 'package.tar.gz');
  const { sha256 } = await download(url, tarball);
  // The hash of what was fetched is not repeated: it would tell a reader about a file's content.
  if (sha256 !== entry.sha256.toLowerCase()) {
    throw badGateway(`the app package of '${id}' failed its checksum: it is not the package the catalogue lists (sha256 ${entry.sha256.toLowerCase()})`);
  }
  const dir = join(staging, 'app');
  await mkdir(dir, { mode: 0o755 });
  await extract(tarball, dir);
  const loaded = await loadAppFolder(dir, { checkFolderName: false });
  if (!loaded.ok) throw badGateway(`the app package of '${id}' has a bad manifest: ${loaded.message}`);
  const { manifest } = loaded.folder;
  if (manifest.id !== id) throw badGateway(`the app store served '${manifest.id}' when asked for '${id}'`);
  checkListedPermissions(entry, manifest);
  return { dir, manifest, version: manifest.version, channel, sha256 };
}

/**
 * The person approved the permissions the catalogue showed: a package asking for others (more,
 * or fewer: the catalogue is then not about this package) is refused, before anything of it runs.
 */
function checkListedPermissions(entry: ChannelEntry, manifest: AppManifest): void {
  if (!entry.permissions) return; // an older catalogue lists none; there is nothing to hold it to
  const change = permissionChange(entry.permissions, manifest.permissions);
  if (!change) return;
  const parts = [
    ...(change.added.length ? [`it also asks for ${change.added.join(', ')}`] : []),
    ...(change.removed.length ? [`it does not ask for ${change.removed.join(', ')}`] : []),
  ];
  throw badGateway(
    `the app package of '${manifest.id}' ${manifest.version} asks for other permissions than the app store lists for it: ${parts.join('; ')}. ` +
      'Nothing was installed; the store must list what the package asks for (repack it with hearth app pack)',
  );
}
