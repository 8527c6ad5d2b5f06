// Puts the package file of hearth's Homey SDK (src/homey/package.json) beside its build in
// dist/homey, so `require('homey')` in an app finds its main module (src/apps/host/sdk-link.ts links
// <apps-dir>/node_modules/homey there). tsc compiles the .cts sources but copies no JSON.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
mkdirSync(join(root, 'dist/homey'), { recursive: true });
copyFileSync(join(root, 'src/homey/package.json'), join(root, 'dist/homey/package.json'));
