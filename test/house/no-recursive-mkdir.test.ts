/**
 * Folders are made with `makeDirs` (src/core/files.ts), never Node's recursive mkdir: that never
 * returns for a path under /proc (it retries its ENOENT for ever), and a backup folder set there
 * held every backup of the hub "running" for good. And `makeDirs` itself: it makes what is
 * missing, leaves what is there, and fails with the system's reason where recursive mkdir hung.
 */

import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirs, makeDirsSync } from '../../src/core/files.js';
import { linesMatching } from './lines.js';

const SRC = join(import.meta.dirname, '../../src');
const RECURSIVE = /\bmkdir(Sync)?\([^)]*recursive/;

describe('making folders', () => {
  it('src makes no folder with recursive mkdir', () => {
    const found = linesMatching(SRC, RECURSIVE, (rel) => /\.(c|m)?tsx?$/.test(rel));
    expect(found).toEqual([]);
  });

  it('makeDirs makes what is missing with its mode, leaves what is there, and fails with the reason', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hearth-makedirs-'));
    try {
      const deep = join(root, 'a', 'b', 'c');
      await makeDirs(deep, 0o700);
      expect(((await stat(deep)).mode & 0o777).toString(8)).toBe('700');
      expect(((await stat(join(root, 'a'))).mode & 0o777).toString(8)).toBe('700');
      await makeDirs(deep); // there already: nothing happens
      makeDirsSync(join(root, 'a', 'x', 'y'));
      expect((await stat(join(root, 'a', 'x', 'y'))).isDirectory()).toBe(true);
      await writeFile(join(root, 'file'), '');
      await expect(makeDirs(join(root, 'file', 'inside'))).rejects.toMatchObject({ code: 'ENOTDIR' });
      expect(() => makeDirsSync(join(root, 'file', 'inside'))).toThrow(/ENOTDIR/);
      // Ten at once on one tree: each one finds the others' folders made, none fails.
      await Promise.all(Array.from({ length: 10 }, (_, i) => makeDirs(join(root, 'p', 'q', String(i)))));
      expect(readdirSync(join(root, 'p', 'q'))).toHaveLength(10);
      // Where recursive mkdir never returned: an error (ENOENT: /proc makes no folders).
      await expect(makeDirs('/proc/hearth-cannot-make-this')).rejects.toMatchObject({ code: 'ENOENT' });
      expect(() => makeDirsSync('/proc/hearth-cannot-make-this/either')).toThrow();
      await mkdir(join(root, 'plain'));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
