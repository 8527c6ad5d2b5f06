// Bundles the `hearth` command (dist/cli.js as tsc emitted it, and everything it imports,
// node_modules included) into dist/cli.js itself. Why (docs/performance.md, "One bundle"):
// Node 20 resolves and compiles the ~300 ES modules of the daemon one by one, which took half
// of the hub's time to its first answer; one file loads in half the time and holds less memory.
// What the daemon imports with import() (the daemon itself, and in it the OpenAPI generator,
// the backup library, tar) becomes a chunk beside it, loaded when first used. The chunks
// sit in dist/ itself, not a subfolder: modules find the build's folders from their
// import.meta.url (src/layout.ts, src/version.ts), which in a chunk is the chunk's.
// The rest of dist/ stays unbundled: the app bootstrap, the SDK and the tests use it.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const entry = join(dist, 'cli.js');
const MARK = '/* hearth bundle */';
if (readFileSync(entry, 'utf8').includes(MARK)) {
  throw new Error('dist/cli.js is a bundle already: run `npm run build`, which compiles it first');
}
for (const name of readdirSync(dist)) if (name.startsWith('bundle-')) rmSync(join(dist, name));

// The offline commands (backup, restore, app pack, keygen) stay the unbundled modules beside
// it: in the bundle their code shared chunks with the daemon's, and esbuild then imported tar
// with the daemon at start, which the daemon loads only for a backup or an install.
const OFFLINE = /^\.\/(managers\/backup\/offline|apps\/pack|apps\/catalogue-key)\.js$/;
const offlineUnbundled = {
  name: 'offline-commands-unbundled',
  setup(b) {
    b.onResolve({ filter: OFFLINE }, (args) => (args.importer === entry ? { path: args.path, external: true } : undefined));
  },
};
// zod's `locales` namespace imports its 40-odd message languages, 0.3 MB of source parsed and
// kept at every start; the hub never calls z.config() with one, so the bundle keeps English only.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: join(args.resolveDir, '../locales/index.js'), namespace: 'zod-locales' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
    }));
  },
};

await build({
  entryPoints: { cli: entry },
  outdir: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: 'bundle-[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // A native addon, and the pretty printer loaded only on a terminal: both stay packages.
  external: ['better-sqlite3', 'pino-pretty'],
  // The CommonJS packages in the bundle (pino, ws, semver) call require() for node's modules.
  banner: { js: `${MARK} import { createRequire as __hearthRequire } from 'node:module'; const require = __hearthRequire(import.meta.url);` },
  plugins: [offlineUnbundled, zodEnglishOnly],
  // Less source for V8 to parse and keep (the source text stays in the heap); names are kept
  // for error messages and stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});
