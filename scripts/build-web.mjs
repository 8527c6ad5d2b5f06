// Builds the web app into dist/web: esbuild bundles src/web (Preact, uPlot in a chunk of its own
// loaded by the insights page) with content-hashed names, writes index.html pointing at them,
// the page APIs of app pages under the fixed names the hub puts into those pages (homey-widget.js,
// homey.js, homey.css), and a .gz beside every text file so the hub sends ~3x fewer bytes
// without compressing per request on a Pi.

import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'dist/web');
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });

// The web app's route table, made from the managers' contracts (compiled into dist by tsc before
// this runs): each operation's method and full path, and each event namespace's path. The typed
// client (src/web/client.ts) reads it; no API path is written by hand in src/web.
const { CONTRACTS } = await import(join(root, 'dist/managers/contracts.js'));
const { contractOperations } = await import(join(root, 'dist/core/contract.js'));
const routes = Object.fromEntries(
  Object.values(CONTRACTS).map((c) => [
    c.name,
    {
      operations: Object.fromEntries(Object.entries(contractOperations(c)).map(([id, op]) => [id, [op.method, `/api/manager/${c.name}${op.path}`]])),
      events: c.eventScope ? `/api/manager/${c.name}` : null,
    },
  ]),
);

const common = {
  bundle: true,
  minify: true,
  target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
  legalComments: 'none',
  logLevel: 'warning',
  define: { __HEARTH_ROUTES__: JSON.stringify(routes) },
};
const app = await build({
  ...common,
  entryPoints: { app: join(root, 'src/web/main.tsx') },
  outdir: out,
  format: 'esm',
  splitting: true,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  tsconfig: join(root, 'src/web/tsconfig.json'),
});
// App pages load these by fixed names (the hub writes the tags into every page): no hash.
const pageApi = { ...common, format: 'iife', tsconfig: join(root, 'src/web/tsconfig.json') };
await build({ ...pageApi, entryPoints: [join(root, 'src/web/homey-widget.ts')], outfile: join(out, 'homey-widget.js') });
await build({ ...pageApi, entryPoints: [join(root, 'src/web/homey-settings.ts')], outfile: join(out, 'homey.js') });
await build({ ...pageApi, entryPoints: [join(root, 'src/web/homey-pair.ts')], outfile: join(out, 'homey-pair.js') });
await build({ ...common, entryPoints: [join(root, 'src/web/homey.css')], outfile: join(out, 'homey.css') });

const outputs = Object.entries(app.metafile.outputs);
const entry = outputs.find(([, o]) => o.entryPoint?.endsWith('src/web/main.tsx'));
if (!entry) throw new Error('build-web: no app entry in the esbuild output');
const js = relative(out, join(root, entry[0]));
const css = entry[1].cssBundle ? relative(out, join(root, entry[1].cssBundle)) : null;
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>hearth</title>
<link rel="icon" href="data:,">
${css ? `<link rel="stylesheet" href="/${css}">\n` : ''}<script type="module" src="/${js}"></script>
</head>
<body>
<div id="root"></div>
<noscript>The hearth web app needs JavaScript.</noscript>
</body>
</html>
`;
await writeFile(join(out, 'index.html'), html);

let total = 0;
for (const name of await readdir(out)) {
  if (!/\.(js|css|html)$/.test(name)) continue;
  const body = await readFile(join(out, name));
  const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
  await writeFile(join(out, `${name}.gz`), gz);
  total += gz.length;
}
console.log(`web app built into dist/web (${(total / 1024).toFixed(1)} KB gzipped in all)`);
