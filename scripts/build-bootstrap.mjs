// Bundles the app bootstrap (dist/apps/child/bootstrap.js as tsc emitted it, and the modules it
// imports) into one CommonJS file, dist/apps/bootstrap.cjs, which every app process runs (in
// dist/apps, not dist/apps/child: src/layout.ts appRuntimeDirs says why). Why
// (docs/performance.md, "Where an app's memory goes"): an ES module entry makes Node 20 load its
// ES module loader, and import() of a CommonJS app runs the CommonJS export lexer (a WebAssembly
// module) as well: together about 0.5 MiB of private memory in each app process, and 2 MiB of
// the node binary's pages. The SDK (dist/homey) stays outside: the bootstrap requires it by its
// real path, so an app's require('homey') reaches the very same module instance.

import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const result = await build({
  entryPoints: [join(root, 'dist/apps/child/bootstrap.js')],
  outfile: join(root, 'dist/apps/bootstrap.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // The ES modules' import.meta.url, as the bundle's own file URL (it sits where bootstrap.js does).
  define: { 'import.meta.url': '__bootstrapUrl' },
  banner: { js: "'use strict'; const __bootstrapUrl = require('node:url').pathToFileURL(__filename).href;" },
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});
const inputs = Object.keys(result.metafile.inputs);
// What runs in an app process is its own code and the protocol both sides share: nothing of the hub.
const outside = inputs.filter((f) => !f.startsWith('dist/apps/child/') && !f.startsWith('dist/apps/wire/'));
if (outside.length) throw new Error(`the bootstrap bundle took in modules outside dist/apps/child and dist/apps/wire: ${outside.join(', ')}`);
