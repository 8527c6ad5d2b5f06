#!/usr/bin/env node
// The `hearth` command as built: scripts/build-daemon.mjs copies this file to dist/cli.js. It
// runs the bundle dist/hearth.cjs (src/cli.ts and everything it imports) through V8's code cache
// dist/hearth-<arch>.cache, made by the build from a hub it started once: V8 then neither parses
// the bundle nor compiles the functions a start runs, which took a fifth of the hub's time to its
// first answer (docs/performance.md, "One bundle, with a code cache"). A cache V8 does not
// accept (another node, another bundle) is ignored, and the bundle is compiled as usual. V8 does
// not check the architecture, though: an x86-64 cache was accepted by arm64's V8, which then
// crashed (SIGSEGV before the first line ran), so each architecture has a cache of its own.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const file = fileURLToPath(new URL('./hearth.cjs', import.meta.url));
const cacheFile = fileURLToPath(new URL(`./hearth-${process.arch}.cache`, import.meta.url));
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  // No cache (a build that could not make one): compiled as usual.
}
// Node's own CommonJS wrapper, so the bundle sees require, module and __filename as a module does.
const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`;
const script = new vm.Script(source, { filename: file, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
// The build's training start: the cache is written as the hub exits, with what the start compiled.
if (process.env.HEARTH_WRITE_CODE_CACHE === '1') process.once('exit', () => writeFileSync(cacheFile, script.createCachedData()));
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
