// Homey's own Web API client (npm `homey-api`), which the tests and the bench hold hearth to. Its
// licence is not an open-source one, so it is no dependency of hearth's: a pinned version is
// installed into `node_modules/.cache/hearth-homey-api/<version>/` (outside the repository, gone
// with `npm ci`) the first time it is needed, and loaded from there.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const HOMEY_API_VERSION = '3.20.0';

/** Installs the pinned homey-api once (into a temp folder, then renamed) and resolves with `require` from its folder. */
export async function installHomeyApi(root) {
  const cache = join(root, 'node_modules/.cache/hearth-homey-api');
  const installed = join(cache, HOMEY_API_VERSION);
  if (!existsSync(join(installed, 'node_modules/homey-api/package.json'))) {
    await mkdir(cache, { recursive: true });
    const staging = await mkdtemp(join(cache, '.staging-'));
    try {
      await writeFile(join(staging, 'package.json'), JSON.stringify({ private: true }));
      await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', `homey-api@${HOMEY_API_VERSION}`], {
        cwd: staging,
        timeout: 180_000,
      }).catch((err) => {
        throw new Error(`could not install homey-api@${HOMEY_API_VERSION} from the npm registry: ${err.message}`);
      });
      // Another process may have installed it meanwhile: the first rename wins.
      await rename(staging, installed).catch(() => undefined);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  return {
    // Its folder: node_modules/ holds homey-api and everything it needs (a test app copies it).
    dir: installed,
    homeyApi: () => createRequire(join(installed, 'package.json'))('homey-api'),
    // homey-api's own socket.io client (version 2), for talking the protocol by hand.
    socketIo2: () => createRequire(join(installed, 'node_modules/homey-api/package.json'))('socket.io-client'),
  };
}
