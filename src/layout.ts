/**
 * Where the build's folders are. The daemon runs bundled into one file at the root of dist/
 * (dist/hearthd.js, scripts/build-daemon.mjs), where every module's import.meta.url is the
 * bundle's: a folder is found from this module's place, the root of dist/ (or of src/ under
 * vitest), which bundled and unbundled code share. Never from a module's own import.meta.url.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/, or src/ when this is the .ts source (vitest). */
const ROOT = dirname(fileURLToPath(import.meta.url));

/** The web app's files: dist/web. */
export const WEB_ROOT = join(ROOT, 'web');

/**
 * The built bootstrap's folder (dist/apps/child, where scripts/build-bootstrap.mjs puts bootstrap.cjs). Under vitest this module is the .ts source, so
 * the child is pointed at the build output instead (tests run after `npm run build`).
 */
export function runtimeDir(): string {
  const here = join(ROOT, 'apps', 'child');
  if (existsSync(join(here, 'bootstrap.cjs'))) return here;
  return join(dirname(ROOT), 'dist', 'apps', 'child');
}

/**
 * What an app process reads of hearth, read-only: the bootstrap's folder (dist/apps/child), the
 * protocol and rules both sides share (dist/apps/wire), and the SDK (dist/homey). Nothing else of
 * the hub's code.
 */
export function appRuntimeDirs(): { readonly bootstrap: string; readonly wire: string; readonly sdk: string } {
  const bootstrap = runtimeDir();
  return { bootstrap, wire: join(bootstrap, '..', 'wire'), sdk: join(bootstrap, '..', '..', 'homey') };
}
