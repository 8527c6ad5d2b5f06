import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import vm from 'node:vm';
const r = await build({ entryPoints: { 'x-hearth': 'dist/cli.js' }, outdir: 'dist', outExtension: { '.js': '.cjs' }, bundle: true, format: 'cjs', platform: 'node', target: 'node20',
  external: ['better-sqlite3', 'pino-pretty', './managers/backup/offline.js', './apps/pack.js', './apps/catalogue-key.js'],
  define: { 'import.meta.url': '__hearthUrl' }, banner: { js: "const __hearthUrl = require('node:url').pathToFileURL(__filename).href;" },
  minifyWhitespace: true, minifySyntax: true, keepNames: true, logLevel: 'warning', metafile: true });
const src = readFileSync('dist/x-hearth.cjs', 'utf8').replace(/^#!.*/, ''); writeFileSync('dist/x-hearth.cjs', src);
const wrapped = `(function (exports, require, module, __filename, __dirname) {${src}\n})`;
const script = new vm.Script(wrapped, { filename: '/work/wt-foot/dist/x-hearth.cjs' });
writeFileSync('dist/x-hearth.cache', script.createCachedData());
writeFileSync('dist/x-loader.mjs', `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
const file = new URL('./x-hearth.cjs', import.meta.url).pathname;
const src = readFileSync(file, 'utf8');
let cachedData; if (!process.env.NOCACHE) try { cachedData = readFileSync(new URL('./x-hearth.cache', import.meta.url)); } catch {}
const script = new vm.Script('(function (exports, require, module, __filename, __dirname) {' + src + '\\n})', { filename: file, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
if (process.env.SHOWCACHE) console.error('rejected', script.cachedDataRejected);
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, new URL('.', import.meta.url).pathname);
`);
