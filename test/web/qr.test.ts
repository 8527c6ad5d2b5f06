/**
 * The sign-in link as a QR code in the terminal (`hearth login` prints it on stderr with uqr):
 * the printed blocks, read back as modules and drawn as a picture, decode to the printed link
 * (where zbar is installed). The web app's QR code is read back from a screenshot in login.test.ts.
 */
import { existsSync } from 'node:fs';
import { renderUnicodeCompact } from 'uqr';
import { describe, expect, it } from 'vitest';
import { decode, modulesOfBlocks } from '../helpers/qr.js';

describe('QR codes of sign-in links in a terminal', () => {
  it('reads the printed blocks back as the modules uqr encoded', () => {
    const printed = renderUnicodeCompact('http://hub.local:8720/#login=abc', { ecc: 'M', border: 2 });
    const modules = modulesOfBlocks(printed);
    // Version 3 (29 modules) with a 2-module quiet zone, drawn two rows a line.
    expect(modules[0]!.length).toBe(33);
    expect(
      modules
        .slice(0, 2)
        .flat()
        .every((dark) => !dark),
    ).toBe(true);
    expect(modules[2]!.slice(2, 9)).toEqual([true, true, true, true, true, true, true]);
  });

  it.skipIf(!existsSync('/usr/bin/zbarimg'))(
    `decodes back to the link (zbar)${existsSync('/usr/bin/zbarimg') ? '' : ' (skipped: zbarimg is not installed)'}`,
    async () => {
      for (const text of ['hi', `http://192.168.1.20:8720/#login=${'Ab_-'.repeat(8)}`]) {
        expect(await decode(modulesOfBlocks(renderUnicodeCompact(text, { ecc: 'M', border: 2 })))).toBe(text);
      }
    },
  );
});
