/**
 * The hub's start refuses a better-sqlite3 native module that does not fit this machine or this
 * Node, in one sentence, judged by the module's ELF header (not its file name) and by Node's own
 * refusal of another ABI.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { addonCacheFile } from '../../scripts/release/native.mjs';
import { hostTarget } from '../../scripts/release/targets.mjs';
import { checkSqliteAddon, elfArch, sqliteAddonPath, whyNotLoaded } from '../../src/core/native-module.js';
import { ROOT, tempDir } from '../helpers/hub.js';

/** The first 20 bytes of an ELF shared object for `machine` (e_machine), 64-bit little-endian. */
function elfHeader(machine: number): Buffer {
  const header = Buffer.alloc(64);
  header.writeUInt32BE(0x7f454c46, 0);
  header[4] = 2; // 64-bit
  header[5] = 1; // little-endian
  header.writeUInt16LE(3, 16); // a shared object
  header.writeUInt16LE(machine, 18);
  return header;
}

it("loads this checkout's module, which is built for this machine", () => {
  expect(elfArch(sqliteAddonPath())).toBe(process.arch);
  expect(() => checkSqliteAddon()).not.toThrow();
});

it('refuses a module for another architecture, a file that is no module, and a missing one, saying which', async () => {
  const dir = await tempDir('hearth-native-');
  const other = process.arch === 'arm64' ? { machine: 0x3e, arch: 'x64' } : { machine: 0xb7, arch: 'arm64' };
  const foreign = join(dir, 'foreign.node');
  await writeFile(foreign, elfHeader(other.machine));
  expect(elfArch(foreign)).toBe(other.arch);
  expect(() => checkSqliteAddon(foreign)).toThrow(
    `better-sqlite3's native module ${foreign} is built for ${other.arch}, and this Node.js runs on ${process.arch}: install the hearth release made for this machine`,
  );
  const text = join(dir, 'text.node');
  await writeFile(text, 'not an ELF file, but long enough');
  expect(() => checkSqliteAddon(text)).toThrow(`${text} is not a native module, and this Node.js runs on ${process.arch}`);
  const missing = join(dir, 'missing.node');
  expect(() => checkSqliteAddon(missing)).toThrow(`better-sqlite3's native module is missing (${missing})`);
  try {
    checkSqliteAddon(missing);
  } catch (err) {
    expect((err as Error).name).toBe('StartupError');
  }
});

it('names both ABIs when Node refuses a module built for another Node', () => {
  const message = `The module '/x/better_sqlite3.node'
was compiled against a different Node.js version using
NODE_MODULE_VERSION 127. This version of Node.js requires
NODE_MODULE_VERSION 115. Please try re-compiling or re-installing
the module (for instance, using \`npm rebuild\` or \`npm install\`).`;
  expect(whyNotLoaded(message)).toBe(`is built for Node's ABI 127, and this Node.js (${process.version}) needs ABI 115`);
  expect(whyNotLoaded('libfoo.so: cannot open shared object file')).toBe('cannot be loaded (libfoo.so: cannot open shared object file)');
});

// The release's module for this machine's architecture and Node 20, when one was built here:
// under another Node (CI's second run, on Node 22) the real dlopen refuses it by its ABI.
const release = addonCacheFile(hostTarget(), { root: ROOT });
it.skipIf(!existsSync(release) || process.versions.node.startsWith('20.'))(
  `refuses, through dlopen itself, a module built for Node 20 under another Node${!existsSync(release) ? ' (skipped: no release module was built here)' : process.versions.node.startsWith('20.') ? ' (skipped: this is Node 20)' : ''}`,
  () => {
    expect(() => checkSqliteAddon(release)).toThrow(`is built for Node's ABI 115, and this Node.js (${process.version}) needs ABI ${process.versions.modules}`);
  },
);
