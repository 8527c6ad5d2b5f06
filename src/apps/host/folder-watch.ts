/**
 * The app folders in the apps folder, and noticing new ones placed there while the hub runs: a change in the folder
 * schedules a rescan shortly after (a copy in progress settles first). Where the file system
 * cannot be watched, listing the apps (GET /api/manager/apps/app) rescans too.
 */
import { type FSWatcher, watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { loadAppFolder } from '../manifest/compose.js';

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

/** App folders in the apps folder (dot-folders are installs in progress; node_modules holds the SDK link). */
export async function appFolderNames(appsDir: string): Promise<string[]> {
  return (await readdir(appsDir, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && d.name !== 'node_modules')
    .map((d) => d.name)
    .sort();
}

/**
 * Folders that hold an app not `known` yet. A folder still being copied (no app.json or
 * .homeycompose/ yet) is left out until the next look; a broken one is in (it is listed as such).
 */
export async function newAppFolders(appsDir: string, known: (id: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  for (const id of await appFolderNames(appsDir).catch(() => [])) {
    if (known(id)) continue;
    const loaded = await loadAppFolder(join(appsDir, id));
    if (!loaded.ok && /is missing/.test(loaded.message)) continue;
    out.push(id);
  }
  return out;
}
