/**
 * Real hubs for the backup tests that back up and restore through the API: started with a
 * cleanup that also removes the `<data-dir>.pre-restore-*` copies a restore leaves beside the
 * temp folders, and a backup made and waited for.
 */
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type HubOptions, type RunningHub, startHub } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';

/** Starts a hub; `cleanups` gets what removes it and what its restores left beside its folders. */
export async function restorableHub(cleanups: (() => Promise<void>)[], options: HubOptions = {}): Promise<RunningHub> {
  const h = await startHub(options);
  cleanups.push(async () => {
    await h.cleanup();
    for (const n of await readdir(dirname(h.dataDir))) {
      if (n.startsWith(`${basename(h.dataDir)}.pre-restore-`) || n.startsWith(`${basename(h.appsDir)}.pre-restore-`)) {
        await rm(join(dirname(h.dataDir), n), { recursive: true, force: true });
      }
    }
  });
  return h;
}

/** Makes a backup through the API and waits for it; answers the archive's name. */
export async function backUp(h: Pick<RunningHub, 'call'>): Promise<string> {
  await h.call('POST', '/api/manager/backup/backup/');
  const s = await poll(
    () => h.call<{ running: boolean; job: { state: string; file: string | null } | null }>('GET', '/api/manager/backup/state').then((r) => r.body),
    (x) => !x.running && x.job?.state === 'done',
    'backup done',
  );
  return s.job!.file!;
}
