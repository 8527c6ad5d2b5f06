/**
 * The hub: wires the store, the event bus, the option service and the managers; starts them in
 * order and stops them in reverse. A manager that fails to start is logged and its operations
 * answer 503; the others run on.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { APP_WEB_API_SCOPES, type HubApi } from './apps/host/hub-api.js';
import { keepAside } from './backup/pre-restore.js';
import { recoverRestore } from './backup/restore-journal.js';
import { cleanLeftovers } from './backup/swap.js';
import { type Config, OWNER_TOKEN_FILE } from './config.js';
import { acquireDataLock } from './core/data-lock.js';
import { writeFileDurable } from './core/durable-file.js';
import { checkEvents } from './core/event-check.js';
import { EventBus } from './core/events.js';
import { exists, makeDirs } from './core/files.js';
import { loadHubId } from './core/hub-id.js';
import { closeInheritedDescriptors } from './core/inherited-fds.js';
import { lanAddress } from './core/lan-address.js';
import type { Manager } from './core/managers.js';
import { checkSqliteAddon } from './core/native-module.js';
import { OptionService } from './core/options.js';
import { PeopleService } from './core/people.js';
import { checkWritable, folderError } from './core/startup-error.js';
import { Store } from './core/store.js';
import { DB_FILE } from './core/store-files.js';
import { newSecret, TokenService } from './core/tokens.js';
import { beginHostProbes } from './host-probes.js';
import { createHttpApp, type HttpApp } from './http/app.js';
import { Authenticator } from './http/auth.js';
import { checkPort, type HubServer, listen } from './http/listen.js';
import { localRequest, requestListener } from './http/node-adapter.js';
import { buildId } from './layout.js';
import { writeRestoreRecord } from './managers/backup/restore-record.js';
import type { HubBus, HubEventMaps } from './managers/bus.js';
import { createManagers } from './managers/create.js';
import type { Timeline } from './managers/notifications/service.js';

/** Work the daemon runs between stopping this hub and starting a new one (a restore). */
export type RestartWork = () => Promise<void>;

export interface HubOptions {
  /**
   * Asks the daemon to stop this hub, run `work`, and start a new hub on the same port; false
   * when it will not (already stopping or restarting). Absent: the hub cannot restart itself.
   */
  readonly restart?: (work: RestartWork) => boolean;
}

export class Hub {
  private releaseLock: (() => Promise<void>) | undefined;
  private listening: HubServer | undefined;
  private http: HttpApp | undefined;
  private started: Manager[] = [];
  private store: Store | undefined;
  /** The HTTP layer as apps reach it (their `homey.api` calls and sockets), once it is made. */
  private hubApi: HubApi | null = null;
  /** Ends the event check of --check-answers. */
  private uncheck: (() => void) | undefined;
  readonly failed = new Map<string, string>();
  readonly bus: HubBus = new EventBus<HubEventMaps>();
  /** The port it listens on, once it does. */
  port: number | undefined;

  constructor(
    readonly config: Config,
    private readonly log: Logger,
    private readonly options: HubOptions = {},
  ) {
    this.bus.onListenerError = (err, e) => log.error({ err, event: e.event, manager: e.manager }, 'event listener failed');
  }

  /** Opens the data dir, starts every manager and listens. Resolves with the bound port. */
  async start(): Promise<number> {
    const { config, log } = this;
    // First: the probes' process spawns then run while the data dir opens and the managers start.
    const probes = beginHostProbes(config);
    const inherited = closeInheritedDescriptors();
    if (inherited.length > 0) log.debug({ fds: inherited }, 'closed descriptors the hub inherited, so no app inherits them');
    // What can fail is checked before anything is made (a data dir, an owner token, an app
    // started): the data dir's lock (which makes nothing where there is no data dir yet), the
    // port (free now; listened on once the hub is ready), and that the folders the hub writes
    // can be written, and that the native module fits this machine and Node. Each says one sentence.
    const dataDirError = (err: unknown): never => {
      throw folderError(err, 'data dir', config.dataDir, '--data-dir') ?? err;
    };
    this.releaseLock = await acquireDataLock(config.dataDir).catch(dataDirError);
    await checkPort(config.host, config.port);
    checkSqliteAddon();
    await checkWritable(config.dataDir, 'data dir', '--data-dir');
    await checkWritable(config.appsDir, 'apps folder', '--apps-dir');
    const recovered = await this.openDataDir().catch(dataDirError);
    // Copies a restore left beside the folders it replaced go to the backup folder (a stop
    // between the swap and that move, a restore finished just now, or an older hearth's).
    const kept = await keepAside({ dataDir: config.dataDir, appsDir: config.appsDir, backups: config.backupLocation }).catch(dataDirError);
    if (kept.moved.size > 0 || kept.pruned.length > 0)
      log.info({ moved: Object.fromEntries(kept.moved), pruned: kept.pruned }, 'pre-restore copies are kept in the backup folder');
    if (recovered) {
      log.warn(
        { archive: recovered.archive, previousData: recovered.previousData, carried: recovered.carried },
        recovered.restored
          ? 'a restore was stopped half-way; it is finished now'
          : 'a restore was stopped half-way and its staged data was gone; the hub starts on the data it had',
      );
      const { archive, createdAt, leftOut, tokensAdded } = recovered;
      const previousData = recovered.previousData && (kept.moved.get(recovered.previousData) ?? recovered.previousData);
      const previousApps = recovered.previousApps && (kept.moved.get(recovered.previousApps) ?? recovered.previousApps);
      const at = new Date().toISOString();
      await writeRestoreRecord(config.dataDir, {
        file: archive,
        createdAt,
        at,
        // Reported done only when the data dir holds the restored data (restore-journal.ts).
        ok: recovered.restored,
        previousData,
        previousApps,
        error: recovered.restored ? null : 'the restore was stopped half-way and its staged data was gone: the hub started on the data it had',
        leftOut,
        tokensAdded,
        completedAtStart: true,
      });
    }
    const hubId = await loadHubId(config.dataDir).catch(dataDirError);
    // The tests' hubs (--check-answers on) parse trusted sections too, and say when that differs.
    const store = await Store.open(config.dataDir, { build: buildId(), verify: config.checkAnswers === 'on' }).catch(dataDirError);
    this.store = store;
    store.onCompactionError = (err) => log.error({ err }, 'the data file could not be written whole; its journal keeps every change, and it is tried again');
    const people = new PeopleService(store);
    const tokens = new TokenService(store, people);
    if (tokens.broken) {
      this.failed.set('tokens', tokens.broken);
      log.error({ reason: tokens.broken }, 'the tokens section is unusable: only the owner token is accepted until it is repaired');
    }
    await this.provisionOwner(tokens).catch(dataDirError);
    // The first owner, for a new home or one from before people: the owner token is theirs.
    await people.start().catch(dataDirError);
    const options = new OptionService(store, this.bus);
    options.onListenerError = (err, manager, name) => log.error({ err, manager, option: name }, 'option change listener failed; the change is stored');
    if (options.broken) log.error({ reason: options.broken }, 'the options section is unusable: managers run on defaults and option operations answer 503');
    const managers = createManagers(
      { config, store, bus: this.bus, log, hubId, options, probes, localAddress: () => (this.port === undefined ? null : lanAddress(config.host, this.port)) },
      { tokens, people },
      this.options.restart,
      () => this.hubApi,
    );
    // Before any manager starts: the events of their start are checked too.
    if (config.checkAnswers === 'on') this.uncheck = checkEvents(this.bus, managers.all, log);

    for (const manager of managers.all) {
      try {
        await manager.start();
        this.started.push(manager);
      } catch (err) {
        this.failed.set(manager.name, (err as Error).message);
        log.error({ err, manager: manager.name }, 'manager failed to start; its operations answer 503');
      }
    }

    this.sayWhatWasSetAside(store, log, managers.notifications.service);

    const auth = new Authenticator(tokens, config.authFailureLimit);
    this.http = createHttpApp({
      managers: managers.all,
      auth,
      bus: this.bus,
      log,
      bodyLimit: config.bodyLimit,
      failed: this.failed,
      checkAnswers: config.checkAnswers === 'on',
      gateway: managers.apps.appGateway,
      reach: managers.reach,
    });
    if (config.checkAnswers === 'on')
      log.info('every answer is checked against its operation schema, and every event against its contract (--check-answers on)');
    tokens.onRevoke = (id) => {
      this.http?.sockets.closeToken(id);
      this.http?.realtime.closeToken(id);
    };
    // Apps' this.homey.api calls go through the HTTP layer too, each app with a token of its own.
    const http = this.http;
    this.hubApi = {
      fetch: (url, init) => http.app.fetch(localRequest(url, init) as unknown as Request),
      serve: {
        request: requestListener(http.fetch),
        upgrade: http.upgrade,
        issueToken: (name) => tokens.issueInternal(name, APP_WEB_API_SCOPES),
        dropToken: (name) => tokens.dropInternal(name),
      },
    };
    this.listening = await listen(this.http, config.host, config.port);
    const port = this.listening.port;
    this.port = port;
    log.info({ port, host: config.host, dataDir: config.dataDir }, 'listening');
    for (const manager of this.started) {
      try {
        manager.listening?.();
      } catch (err) {
        log.error({ err, manager: manager.name }, 'a manager failed at what it does once the hub listens');
      }
    }
    return port;
  }

  /** Records the store set aside at open (they did not parse): in the log and on the timeline, each section once. */
  private sayWhatWasSetAside(store: Store, log: Logger, timeline: Timeline): void {
    log.debug({ sections: store.trustedAtOpen }, 'sections of the data file opened as this build wrote them, unchecked');
    for (const name of store.mistrusted) {
      log.error(
        { section: name },
        'a section trusted as this build wrote it differs from what its schema makes of it: a fault of hearth (the parsed one is used)',
      );
    }
    for (const part of store.ignored) {
      log.warn(
        { journal: part.file, bytes: part.bytes, keptIn: part.keptIn },
        "the end of the data file's journal could not be read (a write cut off by a power cut, or damage); the hub starts on what could",
      );
    }
    for (const aside of store.setAside) {
      const where = aside.records.map((r) => r.path.join('.'));
      log.warn(
        { section: aside.section, records: where, reasons: aside.records.map((r) => r.reason), keptIn: aside.file },
        'records in the data file did not parse and were set aside',
      );
      void timeline.notify(
        { uri: 'homey:manager:system', id: 'system', name: 'hearth' },
        `${aside.records.length} record${aside.records.length === 1 ? '' : 's'} of '${aside.section}' in the data file could not be read and ${aside.records.length === 1 ? 'was' : 'were'} set aside (kept in ${aside.file} in the data folder): ${where.slice(0, 5).join(', ')}`,
      );
    }
  }

  /**
   * Makes the data dir, first finishing a restore stopped half-way, so the hub never starts on an
   * empty data dir while the pre-restore copy holds the home. Resolves with what was finished.
   */
  private async openDataDir(): Promise<Awaited<ReturnType<typeof recoverRestore>>> {
    const { dataDir } = this.config;
    await makeDirs(dirname(dataDir));
    const recovered = await recoverRestore(dataDir);
    // What a killed restore staged and the journal no longer needs (its process is gone).
    await cleanLeftovers(dataDir);
    // A data dir with no data is a new home with a new owner token: loudly, so a mistyped
    // --data-dir is seen at once rather than as a home that lost everything.
    const home: string[] = await readdir(dataDir).catch(() => []);
    if (!home.includes(DB_FILE)) {
      this.log.warn(
        { dataDir: resolve(dataDir) },
        `made a new, empty home in ${resolve(dataDir)} (there was no home there): if your home is in another folder, stop the hub and start it with --data-dir <that folder>`,
      );
    }
    await makeDirs(dataDir, 0o750);
    return recovered;
  }

  /**
   * The owner token comes from HEARTH_OWNER_TOKEN, or is made and written to
   * <data-dir>/owner-token (0600). Deleting that file and restarting replaces a lost owner token.
   */
  private async provisionOwner(tokens: TokenService): Promise<void> {
    const { ownerToken, dataDir } = this.config;
    if (ownerToken !== undefined) {
      if (!tokens.isOwner(ownerToken)) await tokens.setOwner(ownerToken);
      return;
    }
    const file = join(dataDir, OWNER_TOKEN_FILE);
    const present = await exists(file);
    if (present && tokens.broken) {
      // The owner's token stays the one in the file: the hub must not replace it while it
      // cannot store tokens, or the owner would be locked out once the section is repaired.
      await tokens.setOwner((await readFile(file, 'utf8')).trim());
      return;
    }
    if (present) {
      // The file is the owner's token. After a restore the store's owner hash is the backup's,
      // which may be of an owner token replaced since: the file wins, or the owner is locked out.
      const secret = (await readFile(file, 'utf8')).trim();
      if (secret !== '' && tokens.isOwner(secret)) return;
      if (secret !== '' && tokens.list().some((t) => t.owner)) {
        await tokens.setOwner(secret);
        this.log.warn({ file }, 'the stored owner token differed from the owner-token file (a restore of an older backup?); the file is the owner token');
        return;
      }
    }
    const secret = newSecret();
    await tokens.setOwner(secret);
    await writeFileDurable(file, `${secret}\n`);
    this.log.info({ file }, 'created the owner token; read it from this file');
  }

  async stop(): Promise<void> {
    this.uncheck?.();
    this.http?.sockets.close();
    await this.http?.realtime.close();
    await this.listening?.close();
    for (const manager of [...this.started].reverse()) {
      try {
        await manager.stop();
      } catch (err) {
        this.log.error({ err, manager: manager.name }, 'manager failed to stop');
      }
    }
    this.started = [];
    // The data file written whole, the journals removed: a stopped hub's db.json is the home.
    await this.store
      ?.close()
      .catch((err: unknown) => this.log.error({ err }, 'the data file could not be written whole at stop; its journal keeps every change'));
    await this.releaseLock?.();
  }
}
