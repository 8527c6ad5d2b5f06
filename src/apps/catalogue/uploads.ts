/**
 * Apps → Get apps → Upload: an app installed from an archive of its folder (a .tar.gz of what
 * `homey app build` leaves, or of the folder itself; Homey Compose is composed as the hub reads
 * any folder). Two steps, as a person installs: the upload is unpacked with the package bounds
 * and checked (nothing of it runs), and answered with what the app is and asks for (name, icon,
 * permissions, drivers); then Install puts it into the apps folder as a local app, or Discard
 * drops it. An upload not installed within HOLD_MS is dropped; at most MAX_HELD wait at once.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { conflict, HearthError, invalid, notFound } from '../../core/errors.js';
import type { App, AppRuntime } from '../host/runtime.js';
import { type AppFolder, loadAppFolder } from '../manifest/compose.js';
import { textOf } from '../manifest/manifest.js';
import { type PermissionDetail, permissionDetails } from '../manifest/permissions.js';
import { makeStaging, swapIntoPlace } from './install.js';
import { iconDataUrl } from './pack.js';
import { extract, saveBounded } from './package-extract.js';
import { downloadCommit, parseRepo, type RepoHost, repoText, resolveCommit } from './repository.js';
import { MAX_UPLOAD_BYTES } from './upload-limits.js';

/** How long an upload waits for Install, and how many may wait at once. */
export const HOLD_MS = 10 * 60_000;
export const MAX_HELD = 3;

/** What an uploaded app is and asks for, shown before it is installed. */
export interface UploadedApp {
  upload: string;
  id: string;
  name: string;
  version: string;
  description: string | null;
  icon: string | null;
  permissions: PermissionDetail[];
  drivers: Array<{ id: string; name: string }>;
  /** Installing it replaces the installed local app of the same id (its settings stay). */
  replaces: string | null;
  /** Where it came from when fetched from a repository: the commit installed, whatever the ref becomes. */
  source: { repo: string; ref: string | null; commit: string } | null;
  expiresAt: string;
}

interface Held {
  staging: string;
  dir: string;
  folder: AppFolder;
  source: UploadedApp['source'];
  timer: NodeJS.Timeout;
}

export class Uploads {
  private readonly held = new Map<string, Held>();

  constructor(private readonly rt: AppRuntime) {}

  /** Unpacks and checks an uploaded archive; answers what it is. Nothing of it runs. */
  stage(body: ReadableStream<Uint8Array>): Promise<UploadedApp> {
    return this.staged(null, (archive) => save(body, archive));
  }

  /**
   * Fetches the app at `repo` (owner/name[@ref]) as the commit its ref is now, and checks it as
   * an upload; answers what it is, with the commit it is pinned to. Nothing of it runs.
   */
  async fromRepository(repo: string, host: RepoHost): Promise<UploadedApp> {
    const r = parseRepo(repo);
    const commit = await resolveCommit(host, r);
    return this.staged({ repo: repoText(r), ref: r.ref, commit }, (archive) => downloadCommit(host, r, commit, archive, MAX_UPLOAD_BYTES));
  }

  private async staged(source: UploadedApp['source'], fill: (archive: string) => Promise<void>): Promise<UploadedApp> {
    if (this.held.size >= MAX_HELD) throw conflict(`${MAX_HELD} uploads wait to be installed or discarded already; install or discard one first`);
    const upload = randomBytes(9).toString('base64url');
    const staging = await makeStaging(this.rt.appsDir, `upload-${upload}`);
    try {
      const archive = join(staging, 'upload.tar.gz');
      await fill(archive);
      const unpacked = join(staging, 'unpacked');
      await mkdir(unpacked);
      await extract(archive, unpacked).catch((err: unknown) => {
        // The package's sentence, as the uploader's mistake rather than a store's.
        if (err instanceof HearthError) throw invalid(err.message.replace(/^the app package was refused/, 'the archive was refused'));
        throw err;
      });
      await rm(archive);
      const dir = await appFolderIn(unpacked);
      const loaded = await loadAppFolder(dir, { checkFolderName: false });
      if (!loaded.ok) throw invalid(`the archive holds no app hearth can run: ${loaded.message}`);
      await checkBuilt(dir);
      const { manifest } = loaded.folder;
      if (this.rt.has(manifest.id) && this.rt.get(manifest.id).origin !== 'local') {
        throw conflict(`'${manifest.id}' is installed from the app store: an upload would replace the store's app. Uninstall it first; nothing was changed`);
      }
      const timer = setTimeout(() => void this.discard(upload).catch(() => undefined), HOLD_MS);
      timer.unref();
      this.held.set(upload, { staging, dir, folder: loaded.folder, source, timer });
      const language = this.rt.locale().language;
      return {
        upload,
        id: manifest.id,
        name: textOf(manifest.name, language),
        version: manifest.version,
        description: manifest.description ? textOf(manifest.description, language) : null,
        icon: await iconDataUrl(dir, manifest.icon),
        permissions: permissionDetails(manifest.permissions),
        drivers: manifest.drivers.map((d) => ({ id: d.id, name: d.name ? textOf(d.name, language) : d.id })),
        replaces: this.rt.has(manifest.id) ? this.rt.get(manifest.id).version : null,
        source,
        expiresAt: new Date(Date.now() + HOLD_MS).toISOString(),
      };
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      throw err;
    }
  }

  /** Installs a staged upload as a local app (replacing a local app of its id, whose settings stay). */
  async install(upload: string, opts: { network?: boolean } = {}): Promise<App> {
    const held = this.take(upload);
    const { id } = held.folder.manifest;
    try {
      if (this.rt.has(id) && this.rt.get(id).origin !== 'local') throw conflict(`'${id}' was installed from the app store meanwhile; nothing was changed`);
      await this.rt.pause(id);
      try {
        await swapIntoPlace(this.rt.appsDir, id, held.dir);
      } catch (err) {
        await this.rt.resume(id);
        throw err;
      }
      await this.rt.add(id, 'local', null, true, opts.network);
      // What it came from now (an upload replacing a fetched app is no longer that commit).
      await this.rt.setSource(id, held.source);
      await this.rt.resume(id);
      return this.rt.get(id);
    } finally {
      await rm(held.staging, { recursive: true, force: true });
    }
  }

  async discard(upload: string): Promise<void> {
    const held = this.take(upload);
    await rm(held.staging, { recursive: true, force: true });
  }

  /** Drops every waiting upload (the hub stops). */
  async stop(): Promise<void> {
    for (const upload of [...this.held.keys()]) await this.discard(upload).catch(() => undefined);
  }

  private take(upload: string): Held {
    const held = this.held.get(upload);
    if (!held)
      throw notFound(`upload '${upload}' is not waiting to be installed (it was installed, discarded, or waited more than ${HOLD_MS / 60_000} minutes)`);
    this.held.delete(upload);
    clearTimeout(held.timer);
    return held;
  }
}

/** Writes the upload to `file`, refusing one over MAX_UPLOAD_BYTES as it comes. */
async function save(body: ReadableStream<Uint8Array>, file: string): Promise<void> {
  const tooLarge = (): HearthError => invalid(`the archive is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB`);
  await saveBounded(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), file, {
    maxBytes: MAX_UPLOAD_BYTES,
    tooLarge,
    doing: 'while the app was uploaded',
  });
}

/**
 * An app folder as it runs, not its sources alone: npm packages it needs must be in the archive,
 * and a TypeScript app's compiled JavaScript (building both from a repository is Get apps' next
 * step; until then such an app is refused in a sentence that says so, not installed half-made).
 */
async function checkBuilt(dir: string): Promise<void> {
  const has = (name: string): Promise<boolean> =>
    stat(join(dir, name)).then(
      () => true,
      () => false,
    );
  const pkg = await readFile(join(dir, 'package.json'), 'utf8').then(
    (t) => JSON.parse(t) as { dependencies?: Record<string, string> },
    () => null,
  );
  const needs = Object.keys(pkg?.dependencies ?? {}).filter((d) => d !== 'homey');
  if (needs.length > 0 && !(await has('node_modules'))) {
    throw invalid(
      `the app needs npm packages (${needs.slice(0, 5).join(', ')}${needs.length > 5 ? ', ...' : ''}) that its archive does not hold: hearth does not build them yet, so archive the folder after npm install --omit=dev`,
    );
  }
  const compiled = (await has('app.js')) || (await has('app.mjs')) || (await has('app.cjs'));
  if (!compiled && ((await has('app.ts')) || (await has('app.mts')))) {
    throw invalid(
      'the app is TypeScript and its archive holds no compiled app.js: hearth does not compile it yet, so archive what homey app build leaves in .homeybuild',
    );
  }
}

/**
 * The app folder in an unpacked archive: its top when app.json (or .homeycompose) is there, else
 * the one folder it holds (an archive of the folder itself, as tar and GitHub make them).
 */
async function appFolderIn(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  if (entries.some((e) => e.name === 'app.json' || e.name === '.homeycompose')) return dir;
  const folders = entries.filter((e) => e.isDirectory());
  if (folders.length === 1 && entries.length === 1) return join(dir, folders[0]!.name);
  throw invalid('the archive holds no app.json (nor .homeycompose): archive the app folder, as homey app build leaves it');
}
