/**
 * `node dist/apps/child/check-main.js <main file>`: loads an app's main module as the hub will (from an
 * apps folder prepared like the hub's, with hearth's SDK as `homey`) and exits 0 when it exports
 * a Homey.App class, 1 with the reason on stderr otherwise. `hearth app pack` runs it so a package
 * whose main module cannot load is refused where it is made, not on the hub that installs it.
 * The module's top-level code runs (the packer's own app, on the packer's machine); onInit does not.
 */
import { createRequire } from 'node:module';
import { loadAppClass } from './app-class.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: check-main <main file>\n');
  process.exit(2);
}
const require = createRequire(import.meta.url);
const { App } = require('../../homey/app.cjs') as typeof import('../../homey/app.cjs');
loadAppClass(file, App).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
