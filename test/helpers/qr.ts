/**
 * Reading QR codes back in tests: the half-block picture `hearth login` prints, and zbar's
 * decoding of modules drawn as a picture.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from './hub.js';

/** The modules of a QR code printed with half blocks (two rows per line; a block is a light module). */
export function modulesOfBlocks(printed: string): boolean[][] {
  const light: Record<string, [boolean, boolean]> = { '█': [true, true], '▀': [true, false], '▄': [false, true], ' ': [false, false] };
  const rows: boolean[][] = [];
  for (const line of printed.split('\n')) {
    const pairs = [...line].map((c) => light[c]);
    if (pairs.some((p) => p === undefined)) throw new Error(`not a QR line: ${line}`);
    rows.push(
      pairs.map((p) => !p![0]),
      pairs.map((p) => !p![1]),
    );
  }
  return rows;
}

/** Decodes dark/light modules with zbar: a PGM picture, 4 pixels a module. */
export async function decode(modules: readonly (readonly boolean[])[]): Promise<string> {
  const s = 4;
  const size = Math.max(...modules.map((r) => r.length)) * s;
  const height = modules.length * s;
  const px = Buffer.alloc(size * height, 255);
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) for (let a = 0; a < s; a++) px.fill(0, (y * s + a) * size + x * s, (y * s + a) * size + (x + 1) * s);
    });
  });
  const file = join(await tempDir('hearth-qr-'), 'q.pgm');
  await writeFile(file, Buffer.concat([Buffer.from(`P5 ${size} ${height} 255\n`), px]));
  return spawnSync('/usr/bin/zbarimg', ['-q', '--raw', file], { encoding: 'utf8' }).stdout.trim();
}
