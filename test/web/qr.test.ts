/**
 * The QR encoder of the sign-in links (src/web/qr.ts), checked part by part against ISO/IEC
 * 18004: the Reed-Solomon codewords of the standard's worked example, the size chosen for the
 * length, the finder and timing patterns, and format bits that read back as level M with a valid
 * BCH code. Where zbar is installed, whole symbols are decoded back to their text.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qrModules, rsRemainder } from '../../src/web/qr.js';
import { tempDir } from '../helpers/hub.js';

/** Generator polynomial coefficients (without the leading 1), computed independently of the module. */
function generator(degree: number): number[] {
  const mul = (x: number, y: number): number => {
    let z = 0;
    for (let i = 7; i >= 0; i--) {
      z = (z << 1) ^ ((z >>> 7) * 0x11d);
      z ^= ((y >>> i) & 1) * x;
    }
    return z & 0xff;
  };
  let poly = [1];
  let root = 1;
  for (let i = 0; i < degree; i++) {
    const next = new Array<number>(poly.length + 1).fill(0);
    poly.forEach((c, j) => {
      next[j]! ^= c;
      next[j + 1]! ^= mul(c, root);
    });
    poly = next;
    root = mul(root, 2);
  }
  return poly.slice(1);
}

describe('QR encoder', () => {
  it('computes the error correction codewords of the standard’s example (01234567, version 1-M)', () => {
    const data = [0x10, 0x20, 0x0c, 0x56, 0x61, 0x80, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11];
    expect(rsRemainder(data, generator(10))).toEqual([0xa5, 0x24, 0xd4, 0xc1, 0xed, 0x36, 0xc7, 0x87, 0x2c, 0x55]);
  });

  it('picks the smallest version that holds the text, and refuses what none holds', () => {
    expect(qrModules('a'.repeat(14)).length).toBe(21); // version 1-M: 14 bytes
    expect(qrModules('a'.repeat(15)).length).toBe(25);
    expect(qrModules('a'.repeat(62)).length).toBe(33); // version 4-M: 62 bytes
    expect(qrModules(`http://192.168.1.20:8720/#login=${'x'.repeat(32)}`).length).toBe(37); // a sign-in link, 64 bytes: version 5
    expect(qrModules('a'.repeat(213)).length).toBe(57);
    expect(() => qrModules('a'.repeat(214))).toThrow(/too long/);
  });

  it('draws finder and timing patterns, and format bits of level M with a valid BCH code', () => {
    const m = qrModules('http://hub.local:8720/#login=abc');
    const n = m.length;
    const finder = (x0: number, y0: number): boolean[] => Array.from({ length: 7 }, (_, i) => m[y0 + 3]![x0 + i]!);
    for (const [x, y] of [[0, 0], [n - 7, 0], [0, n - 7]] as const) expect(finder(x, y)).toEqual([true, false, true, true, true, false, true]);
    for (let i = 8; i < n - 8; i++) expect(m[6]![i]).toBe(i % 2 === 0);
    // Format bits, first copy: (8,0..5), (8,7), (8,8), (7,8), (5..0,8) -> bits 0..14.
    const at = (x: number, y: number): number => (m[y]![x] ? 1 : 0);
    const bits = [...[0, 1, 2, 3, 4, 5].map((i) => at(8, i)), at(8, 7), at(8, 8), at(7, 8), ...[5, 4, 3, 2, 1, 0].map((i) => at(i, 8))];
    const word = bits.reduce((acc, b, i) => acc | (b << i), 0) ^ 0x5412;
    const data = word >>> 10;
    expect(data >>> 3).toBe(0); // level M
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    expect(word & 0x3ff).toBe(rem & 0x3ff);
    expect(m[n - 8]![8]).toBe(true); // the dark module
  });

  it.skipIf(!existsSync('/usr/bin/zbarimg'))('decodes back to the text (zbar)', async () => {
    const dir = await tempDir('hearth-qr-');
    for (const text of ['hi', `http://192.168.1.20:8720/#login=${'Ab_-'.repeat(8)}`, 'z'.repeat(150)]) {
      const m = qrModules(text);
      const s = 4;
      const size = (m.length + 8) * s;
      const px = Buffer.alloc(size * size, 255);
      m.forEach((row, y) => row.forEach((dark, x) => {
        if (dark) for (let a = 0; a < s; a++) px.fill(0, ((y + 4) * s + a) * size + (x + 4) * s, ((y + 4) * s + a) * size + (x + 5) * s);
      }));
      const file = join(dir, 'q.pgm');
      await writeFile(file, Buffer.concat([Buffer.from(`P5 ${size} ${size} 255\n`), px]));
      expect(spawnSync('/usr/bin/zbarimg', ['-q', '--raw', file], { encoding: 'utf8' }).stdout.trim()).toBe(text);
    }
  });
});
