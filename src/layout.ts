/**
 * Where the build's folders are. The daemon runs bundled into one file at the root of dist/
 * (dist/hearthd.js, scripts/build-daemon.mjs), where every module's import.meta.url is the
 * bundle's: a folder is found from this module's place, the root of dist/ (or of src/ under
 * vitest), which bundled and unbundled code share. Never from a module's own import.meta.url.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/, or src/ when this is the .ts source (vitest). */
const ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * The example apps hearth ships (examples/ beside dist/, in a checkout and in a release): copied
 * into an apps folder the hub makes (src/apps/host/examples.ts), never run from here.
 */
export const EXAMPLES_ROOT = join(dirname(ROOT), 'examples');

/** The hub's own node_modules (beside dist/, in a checkout and in a release): what it lends apps (apps/host/lent-packages.ts). */
export const HUB_MODULES = join(dirname(ROOT), 'node_modules');

/** The web app's files: dist/web. */
export const WEB_ROOT = join(ROOT, 'web');

/**
 * The built apps folder (dist/apps, where scripts/build-bootstrap.mjs puts bootstrap.cjs). Under
 * vitest this module is the .ts source, so the child is pointed at the build output instead
 * (tests run after `npm run build`).
 */
function appsBuild(): string {
  const here = join(ROOT, 'apps');
  if (existsSync(join(here, 'bootstrap.cjs'))) return here;
  return join(dirname(ROOT), 'dist', 'apps');
}

/** The compiled code of the app process's side (dist/apps/child): `check-main.js` for `hearth app pack`. */
export function runtimeDir(): string {
  return join(appsBuild(), 'child');
}

/**
 * What an app process reads of hearth, read-only: the bootstrap bundle (dist/apps/bootstrap.cjs:
 * src/apps/child bundled), the protocol and rules both sides share (dist/apps/wire), and the SDK
 * (dist/homey). Nothing else of the hub's code.
 *
 * The bundle sits in dist/apps, not beside its sources in dist/apps/child: measured, an idle app
 * started from dist/apps/child mapped 3.6 MiB more of the node binary and 1.1 MiB more heap
 * (PSS +1.4 MiB an app, the whole home 1.44x instead of 1.33x); why is not known
 * (docs/performance.md).
 */
export function appRuntimeDirs(): { readonly bootstrap: string; readonly wire: string; readonly sdk: string } {
  const apps = appsBuild();
  return { bootstrap: join(apps, 'bootstrap.cjs'), wire: join(apps, 'wire'), sdk: join(apps, '..', 'homey') };
}

/**
 * This build's id: the digest of the daemon's bundle (dist/hearth.build, written by
 * scripts/build-daemon.mjs), or null when there is none (the .ts sources under vitest). The store
 * trusts only what the same build wrote (core/store-trust.ts): another build's schemas may differ.
 */
export function buildId(): string | null {
  try {
    return readFileSync(join(ROOT, 'hearth.build'), 'utf8').trim() || null;
  } catch {
    return null;
  }
}
