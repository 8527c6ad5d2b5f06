/**
 * Notices app folders placed in the apps folder while the hub runs: a change in the folder
 * schedules a rescan shortly after (a copy in progress settles first). Where the file system
 * cannot be watched, listing the apps (GET /api/manager/apps/app) rescans too.
 */
import { watch, type FSWatcher } from 'node:fs';
import type { Logger } from 'pino';

/** How long after the last change the folder is looked at. */
const SETTLE_MS = 500;

export class FolderWatch {
  private watcher: FSWatcher | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly dir: string,
    private readonly rescan: () => Promise<void>,
    private readonly log: Logger,
  ) {}

  start(): void {
    try {
      this.watcher = watch(this.dir, () => this.schedule());
      this.watcher.on('error', (err) => {
        this.log.warn({ err, dir: this.dir }, 'stopped watching the apps folder; new apps appear when the apps are listed');
        this.stop();
      });
    } catch (err) {
      this.log.warn({ err, dir: this.dir }, 'cannot watch the apps folder; new apps appear when the apps are listed');
    }
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.rescan().catch((err: unknown) => this.log.warn({ err }, 'rescanning the apps folder failed'));
    }, SETTLE_MS);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = null;
  }
}
