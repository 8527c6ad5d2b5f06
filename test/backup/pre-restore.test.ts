/**
 * Where restores keep what they replaced: one folder per restore in the backup folder's
 * pre-restore/, the newest three, wherever the swap left them (beside the folders, or inside a
 * folder that is a mount point), including the copies older hearths left in the folder above.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { keepAside, listPreRestore, PRE_RESTORE_KEEP, removePreRestore } from '../../src/backup/pre-restore.js';
import { tempDir } from '../helpers/hub.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function folder(path: string, note: string): Promise<void> {
  await mkdir(path, { recursive: true });
  await writeFile(join(path, 'note.txt'), note);
}

it('moves every copy into pre-restore/<time>/{data,apps}, keeps the newest three and lists them newest first', async () => {
  const root = await tempDir();
  dirs.push(root);
  const dataDir = join(root, 'data');
  const appsDir = join(root, 'apps');
  const backups = join(dataDir, 'backups');
  await folder(dataDir, 'now');
  await folder(appsDir, 'now');
  // Five restores' copies, as the swap leaves them beside (the 10:01 one also of the apps)...
  const stamps = ['2026-11-20T10-00-00Z', '2026-11-21T10-00-00Z', '2026-11-22T10-00-00Z', '2026-11-23T10-00-00Z'];
  for (const s of stamps) await folder(`${dataDir}.pre-restore-${s}`, `data ${s}`);
  await folder(`${appsDir}.pre-restore-2026-11-23T10-00-00Z`, 'apps 23');
  // ...and one inside each folder (a mount point is swapped entry by entry).
  await folder(join(dataDir, 'pre-restore-2026-11-24T10-00-00Z'), 'data 24');
  await folder(join(appsDir, '.pre-restore-2026-11-24T10-00-00Z'), 'apps 24');
  // Not copies: another folder's, and a name that only looks like one.
  await folder(join(root, 'other.pre-restore-2026-11-24T10-00-00Z'), 'other');
  await folder(`${dataDir}.pre-restore-yesterday`, 'not a stamp');

  const kept = await keepAside({ dataDir, appsDir, backups });
  const copies = join(backups, 'pre-restore');
  expect(kept.moved.get(join(dataDir, 'pre-restore-2026-11-24T10-00-00Z'))).toBe(join(copies, '2026-11-24T10-00-00Z', 'data'));
  expect(kept.moved.get(`${appsDir}.pre-restore-2026-11-23T10-00-00Z`)).toBe(join(copies, '2026-11-23T10-00-00Z', 'apps'));
  expect([...kept.pruned].sort()).toEqual(['2026-11-20T10-00-00Z', '2026-11-21T10-00-00Z']);
  expect(PRE_RESTORE_KEEP).toBe(3);
  expect(await listPreRestore(backups)).toEqual([
    {
      name: '2026-11-24T10-00-00Z',
      at: '2026-11-24T10:00:00Z',
      data: join(copies, '2026-11-24T10-00-00Z', 'data'),
      apps: join(copies, '2026-11-24T10-00-00Z', 'apps'),
    },
    {
      name: '2026-11-23T10-00-00Z',
      at: '2026-11-23T10:00:00Z',
      data: join(copies, '2026-11-23T10-00-00Z', 'data'),
      apps: join(copies, '2026-11-23T10-00-00Z', 'apps'),
    },
    { name: '2026-11-22T10-00-00Z', at: '2026-11-22T10:00:00Z', data: join(copies, '2026-11-22T10-00-00Z', 'data'), apps: null },
  ]);
  expect(await readFile(join(copies, '2026-11-24T10-00-00Z', 'apps', 'note.txt'), 'utf8')).toBe('apps 24');
  expect((await readdir(root)).sort()).toEqual(['apps', 'data', 'data.pre-restore-yesterday', 'other.pre-restore-2026-11-24T10-00-00Z']);
  expect((await readdir(dataDir)).sort()).toEqual(['backups', 'note.txt']);
  expect(await readdir(appsDir)).toEqual(['note.txt']);

  // Run again: nothing left to move, nothing more to prune.
  expect(await keepAside({ dataDir, appsDir, backups })).toEqual({ moved: new Map(), pruned: [] });

  // Removed by name only: a path or a name that is not a restore's time removes nothing.
  expect(await removePreRestore(backups, '../..')).toBe(false);
  expect(await removePreRestore(backups, '2026-11-24T10-00-00Z/data')).toBe(false);
  expect(await removePreRestore(backups, '2026-01-01T00-00-00Z')).toBe(false);
  expect(await removePreRestore(backups, '2026-11-22T10-00-00Z')).toBe(true);
  expect((await listPreRestore(backups)).map((c) => c.name)).toEqual(['2026-11-24T10-00-00Z', '2026-11-23T10-00-00Z']);
});
