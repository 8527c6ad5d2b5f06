// Bundles the `hearth` command (dist/cli.js as tsc emitted it, and everything it imports,
// node_modules included) into dist/hearth.cjs, writes the loader (scripts/bundle-loader.mjs) as
// dist/cli.js, and makes V8's code cache of the bundle, dist/hearth-<arch>.cache, by starting a hub
// once and answering one request. Why (docs/performance.md, "One bundle, with a code cache"):
// Node 20 resolved and compiled the daemon's ~300 ES modules one by one, and the hub took 2.3x a
// bare Hono server's time to its first answer; bundled and cached it takes about 1.8x.
// The bundle is CommonJS because V8's code cache is reachable from Node 20 only through
// vm.Script. It sits in dist/ itself: modules find the build's folders from their
// import.meta.url (src/layout.ts, src/version.ts), which in the bundle is the bundle's.
// The rest of dist/ stays unbundled: the app bootstrap and the SDK (run by apps), the tests.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const entry = join(dist, 'cli.js');
const bundle = join(dist, 'hearth.cjs');
// The cache is this architecture's: V8 accepts another's, and crashes (scripts/bundle-loader.mjs).
const cache = join(dist, `hearth-${process.arch}.cache`);
if (readFileSync(entry, 'utf8').includes('hearth.cjs')) {
  throw new Error('dist/cli.js is the loader already: run `npm run build`, which compiles src/cli.ts first');
}
for (const name of readdirSync(dist)) if (/^hearth(-\w+)?\.cache$/.test(name)) rmSync(join(dist, name));

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
  entryPoints: [entry],
  outfile: bundle,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // A native addon, the pretty printer loaded only on a terminal, tar, which only backups and
  // installs load (when they run), and socket.io with engine.io, which only Homey's clients load
  // (at their first request): they stay packages, out of the bundle's source the hub keeps.
  external: ['better-sqlite3', 'pino-pretty', 'tar', 'socket.io', 'engine.io'],
  // Every import() becomes a require(): V8 forgets a script's dynamic-import callback in the
  // functions it takes from the code cache ("A dynamic import callback was not specified"), and
  // the packages left outside all have a CommonJS entry. What the CLI and the daemon import()
  // inside the bundle is wrapped by esbuild and run only when first imported, as before.
  supported: { 'dynamic-import': false },
  plugins: [zodEnglishOnly],
  // The ES modules' import.meta.url, as the bundle's own file URL.
  define: { 'import.meta.url': '__hearthUrl' },
  // Strict, as the ES modules it is made of were.
  banner: { js: "'use strict'; const __hearthUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Less source for V8 to parse and keep (the source text stays in the heap). Identifiers are
  // not minified, so names read as in the source. Not keepNames: its __name() call on every
  // function made, closures of each request included, cost half again the CPU of an option GET
  // (docs/performance.md).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});
// The loader wraps the bundle in a function: no #! line inside it. The line is left empty, not
// removed, so the source map esbuild wrote still points at the right lines.
writeFileSync(bundle, readFileSync(bundle, 'utf8').replace(/^#!.*\n/, '\n'));
copyFileSync(join(root, 'scripts/bundle-loader.mjs'), entry);
// The build's id (src/layout.ts, buildId): the store trusts at start only what the same build
// wrote, whose schemas are this build's (src/core/store-trust.ts).
writeFileSync(join(dist, 'hearth.build'), `${createHash('sha256').update(readFileSync(bundle)).digest('hex').slice(0, 32)}\n`);
for (const name of readdirSync(dist)) if (name.startsWith('bundle-')) rmSync(join(dist, name)); // an older build's chunks

await train();

/**
 * Starts the built hub once (temp folders, port 0), asks it one authenticated GET, and stops it:
 * the loader writes the code cache as it exits. Without a cache the hub works, only slower to
 * start, so a failure here is a warning.
 */
async function train() {
  const data = mkdtempSync(join(tmpdir(), 'hearth-cache-data-'));
  const apps = mkdtempSync(join(tmpdir(), 'hearth-cache-apps-'));
  const token = `hth_${'0'.repeat(48)}`;
  const args = [entry, 'start', '--host', '127.0.0.1', '--port', '0', '--data-dir', data, '--apps-dir', apps, '--log-level', 'info'];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, HEARTH_OWNER_TOKEN: token, HEARTH_WRITE_CODE_CACHE: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise((resolvePort, reject) => {
      const timer = setTimeout(() => reject(new Error('no listening line in 20 s')), 20_000);
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (!line.includes('"listening"')) return;
        clearTimeout(timer);
        resolvePort(JSON.parse(line).port);
      });
      child.once('exit', (code) => reject(new Error(`the hub exited (${code})`)));
    });
    const res = await fetch(`http://127.0.0.1:${port}/api/manager/i18n/option/language`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    readFileSync(cache);
  } catch (err) {
    child.kill('SIGKILL');
    console.warn(`no code cache for the hub (it starts without one, only slower): ${err.message}`);
  } finally {
    rmSync(data, { recursive: true, force: true });
    rmSync(apps, { recursive: true, force: true });
  }
}
