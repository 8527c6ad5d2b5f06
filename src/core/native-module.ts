/**
 * The hub's one native module, better-sqlite3's `better_sqlite3.node`, checked before the hub
 * starts: a release made for another board (an arm64 tarball on an armhf Raspberry Pi OS) or a
 * checkout built for another Node (`npm ci` on Node 22, started with Node 20) would otherwise
 * fail deep inside the insights' storage with dlopen's words. What the module is built for is
 * read from its ELF header's bytes, not from the name of the tarball it came in.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { StartupError } from './startup-error.js';

/** ELF e_machine values, as Node names the architecture (process.arch). */
const MACHINES: Readonly<Record<number, string>> = { 3: 'ia32', 40: 'arm', 62: 'x64', 183: 'arm64', 243: 'riscv64' };

/**
 * The architecture a shared object is built for, from its ELF header (process.arch's names);
 * `unknown (e_machine N)` for another machine; null when the file is not an ELF file.
 */
export function elfArch(file: string): string | null {
  const header = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try {
    if (readSync(fd, header, 0, 20, 0) < 20) return null;
  } finally {
    closeSync(fd);
  }
  if (header.readUInt32BE(0) !== 0x7f454c46) return null;
  const machine = header[5] === 2 ? header.readUInt16BE(18) : header.readUInt16LE(18);
  return MACHINES[machine] ?? `unknown (e_machine ${machine})`;
}

/** Where better-sqlite3's native module is (the file its `bindings` loads). */
export function sqliteAddonPath(): string {
  const pkg = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  return join(dirname(pkg), 'build', 'Release', 'better_sqlite3.node');
}

const REMEDY = 'install the hearth release made for this machine (hearth-<version>-linux-<arch>.tgz), or in a checkout run npm rebuild better-sqlite3';

/**
 * Throws a StartupError, one sentence, when better-sqlite3's native module is missing, built for
 * another architecture, or for another Node ABI; loads it otherwise (the hub loads it anyway).
 */
export function checkSqliteAddon(file = sqliteAddonPath()): void {
  let arch: string | null;
  try {
    arch = elfArch(file);
  } catch (err) {
    throw new StartupError(`better-sqlite3's native module is missing (${file}): ${REMEDY}`, { cause: err });
  }
  if (arch !== process.arch) {
    const built = arch ? `built for ${arch}` : 'not a native module';
    throw new StartupError(`better-sqlite3's native module ${file} is ${built}, and this Node.js runs on ${process.arch}: ${REMEDY}`);
  }
  try {
    createRequire(import.meta.url)(file);
  } catch (err) {
    throw new StartupError(`better-sqlite3's native module ${file} ${whyNotLoaded((err as Error).message ?? String(err))}: ${REMEDY}`, { cause: err });
  }
}

/** Why dlopen refused a module, from Node's message (which names both ABIs when they differ). */
export function whyNotLoaded(message: string): string {
  const abi = /NODE_MODULE_VERSION (\d+)[\s\S]*NODE_MODULE_VERSION (\d+)/.exec(message);
  return abi ? `is built for Node's ABI ${abi[1]}, and this Node.js (${process.version}) needs ABI ${abi[2]}` : `cannot be loaded (${message.split('\n')[0]})`;
}
