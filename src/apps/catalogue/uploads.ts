/**
 * Apps → Get apps → Upload: an app installed from an archive of its folder (a .tar.gz of what
 * `homey app build` leaves, or of the folder itself; Homey Compose is composed as the hub reads
 * any folder). Two steps, as a person installs: the upload is unpacked with the package bounds
 * and checked (nothing of it runs), and answered with what the app is and asks for (name, icon,
 * permissions, drivers); then Install puts it into the apps folder as a local app, or Discard
 * drops it. An app that needs building (its npm packages, its TypeScript: build-plan.ts) is built
 * meanwhile, contained (build.ts), one at a time; Install waits for the build to have succeeded.
 * An upload not installed within HOLD_MS (of its build's end) is dropped; at most MAX_HELD wait
 * at once.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { conflict, HearthError, invalid, notFound } from '../../core/errors.js';
import type { App, AppRuntime } from '../host/runtime.js';
import { type AppFolder, loadAppFolder } from '../manifest/compose.js';
import { textOf } from '../manifest/manifest.js';
import { type PermissionDetail, permissionDetails } from '../manifest/permissions.js';
import { type BuildEnvironment, type BuildProgress, buildApp } from './build.js';
import { planBuild } from './build-plan.js';
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
  /** Null until its build ends (a build may take minutes). */
  expiresAt: string | null;
  /** Its build, when it needs one (npm packages, TypeScript); null when it runs as it came. */
  build: UploadBuild | null;
}

/** Where an upload's build is. */
export interface UploadBuild {
  state: 'building' | 'built' | 'failed';
  /** What it does now, or did last, for a person. */
  sentence: string;
  /** The last lines its current (or last) step printed. */
  lines: string[];
  /** Why it failed, in one sentence; null unless failed. */
  error: string | null;
  startedAt: string;
  endedAt: string | null;
}

interface Held {
  staging: string;
  dir: string;
  folder: AppFolder;
  answer: UploadedApp;
  timer: NodeJS.Timeout | null;
  /** Stops its build, while it builds. */
  abort: AbortController | null;
  building: Promise<void> | null;
}

export class Uploads {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly rt: AppRuntime,
    /** How apps are built (the registry, the limits); the containment is the runtime's. */
    private readonly builds: Omit<BuildEnvironment, 'sandbox'>,
  ) {}

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
      const { manifest } = loaded.folder;
      const plan = await planBuild(
        dir,
        manifest.drivers.map((d) => d.id),
      );
      const needsBuild = plan.packages !== null || plan.compile;
      if (needsBuild && [...this.held.values()].some((h) => h.building)) {
        throw conflict('another app is being built now (one at a time: a build takes the board for minutes); try again when it is done');
      }
      if (this.rt.has(manifest.id) && this.rt.get(manifest.id).origin !== 'local') {
        throw conflict(`'${manifest.id}' is installed from the app store: an upload would replace the store's app. Uninstall it first; nothing was changed`);
      }
      const language = this.rt.locale().language;
      const now = new Date().toISOString();
      const answer: UploadedApp = {
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
        expiresAt: null,
        build: needsBuild ? { state: 'building', sentence: 'Starting the build', lines: [], error: null, startedAt: now, endedAt: null } : null,
      };
      const held: Held = { staging, dir, folder: loaded.folder, answer, timer: null, abort: null, building: null };
      this.held.set(upload, held);
      if (needsBuild) {
        held.abort = new AbortController();
        const env = { ...this.builds, sandbox: this.rt.containment };
        held.building = buildApp(staging, dir, plan, env, (p) => this.progress(held, p), held.abort.signal)
          .then(
            () => this.built(held, null),
            (err: unknown) => this.built(held, err instanceof HearthError ? err.message : `the build failed: ${(err as Error).message}`),
          )
          .catch(() => undefined);
      } else this.expireLater(held);
      return this.view(held);
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      throw err;
    }
  }

  /** What an upload is now (its build goes on after it was staged). */
  get(upload: string): UploadedApp {
    const held = this.held.get(upload);
    if (!held) throw gone(upload);
    return this.view(held);
  }

  private view(held: Held): UploadedApp {
    const { answer } = held;
    return { ...answer, build: answer.build ? { ...answer.build, lines: [...answer.build.lines] } : null };
  }

  private progress(held: Held, p: BuildProgress): void {
    const build = held.answer.build;
    if (build?.state !== 'building') return;
    build.sentence = p.sentence;
    build.lines = [...p.lines];
  }

  /** A build ended: the upload now waits HOLD_MS for Install; a failed one keeps only its record. */
  private async built(held: Held, error: string | null): Promise<void> {
    const build = held.answer.build!;
    build.state = error ? 'failed' : 'built';
    build.error = error;
    build.sentence = error ? 'The build failed' : 'Built';
    build.endedAt = new Date().toISOString();
    held.abort = null;
    held.building = null;
    if (error) await rm(held.staging, { recursive: true, force: true });
    if (this.held.get(held.answer.upload) === held) this.expireLater(held);
  }

  private expireLater(held: Held): void {
    held.timer = setTimeout(() => void this.discard(held.answer.upload).catch(() => undefined), HOLD_MS);
    held.timer.unref();
    held.answer.expiresAt = new Date(Date.now() + HOLD_MS).toISOString();
  }

  /** Installs a staged upload as a local app (replacing a local app of its id, whose settings stay). */
  async install(upload: string, opts: { network?: boolean } = {}): Promise<App> {
    const waiting = this.held.get(upload);
    if (waiting?.answer.build?.state === 'building') throw conflict(`'${waiting.answer.id}' is still being built: install it once it is built`);
    if (waiting?.answer.build?.state === 'failed') throw invalid(`'${waiting.answer.id}' cannot be installed: ${waiting.answer.build.error}`);
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
      await this.rt.setSource(id, held.answer.source);
      await this.rt.resume(id);
      return this.rt.get(id);
    } finally {
      await rm(held.staging, { recursive: true, force: true });
    }
  }

  /** Drops an upload (stopping its build first, when it builds). */
  async discard(upload: string): Promise<void> {
    const held = this.take(upload);
    held.abort?.abort();
    await held.building;
    await rm(held.staging, { recursive: true, force: true });
  }

  /** Drops every waiting upload (the hub stops). */
  async stop(): Promise<void> {
    for (const upload of [...this.held.keys()]) await this.discard(upload).catch(() => undefined);
  }

  private take(upload: string): Held {
    const held = this.held.get(upload);
    if (!held) throw gone(upload);
    this.held.delete(upload);
    if (held.timer) clearTimeout(held.timer);
    return held;
  }
}

const gone = (upload: string): HearthError =>
  notFound(`upload '${upload}' is not waiting to be installed (it was installed, discarded, or waited more than ${HOLD_MS / 60_000} minutes)`);

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
