// How the compatibility run (run.mjs) gets each app of its corpus: exported from its repository's
// snapshot at the pinned commit, then built as `homey app build` builds it (its dependencies
// installed without install scripts, TypeScript compiled with the app's own tsconfig, a
// placeholder env.json where the app reads one it does not ship).
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const quiet = { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 };

/** The git directory of `repo` under the snapshots folder, cloned when it is not there. */
async function gitDir(snapshots, repo, log) {
  const dir = join(resolve(snapshots), repo.replace('/', '+'));
  if (!existsSync(dir)) {
    log(`  cloning ${repo}`);
    await run('git', ['clone', '--bare', '--quiet', `https://github.com/${repo}.git`, dir], { timeout: 300_000 });
  }
  // A snapshot may hold the repository one level down.
  const candidates = [dir, join(dir, '.git'), ...(await readdir(dir)).map((n) => join(dir, n))];
  for (const c of candidates) if (existsSync(join(c, 'HEAD')) && existsSync(join(c, 'objects'))) return c;
  throw new Error(`${dir} holds no git repository`);
}

/**
 * Files of the commit whose blobs the snapshot lacks (a snapshot may leave its largest files out:
 * pictures of a documentation site, say), as pathspecs that leave them out of the export.
 */
async function missingBlobs(git, commit) {
  const { stdout: tree } = await run('git', ['--git-dir', git, 'ls-tree', '-r', '--format=%(objectname) %(path)', commit], quiet);
  const entries = tree
    .split('\n')
    .filter(Boolean)
    .map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1)]);
  const check = spawn('git', ['--git-dir', git, 'cat-file', '--batch-check'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const answers = [];
  createInterface({ input: check.stdout }).on('line', (l) => answers.push(l));
  check.stdin.end(entries.map(([sha]) => `${sha}\n`).join(''));
  await new Promise((r) => check.once('exit', r));
  return entries.filter((_, i) => answers[i]?.endsWith(' missing')).map(([, path]) => `:(exclude,literal)${path}`);
}

/** Exports `app` at its commit (from its snapshot under `snapshots`) into `into`; resolves with the app's folder there. */
export async function exportApp(snapshots, app, into, log) {
  const git = await gitDir(snapshots, app.repo, log);
  const missing = await missingBlobs(git, app.commit);
  if (missing.length > 0) log(`  the snapshot lacks ${missing.length} file(s); exported without them`);
  const paths = missing.length > 0 ? ['--', app.path || '.', ...missing] : app.path ? [app.path] : [];
  const tar = spawn('git', ['--git-dir', git, 'archive', '--format=tar', app.commit, ...paths], { stdio: ['ignore', 'pipe', 'pipe'] });
  const untar = spawn('tar', ['-x', '-C', into], { stdio: ['pipe', 'ignore', 'pipe'] });
  tar.stdout.pipe(untar.stdin);
  const failed = (child, what) => new Promise((ok, no) => child.once('exit', (code) => (code === 0 ? ok() : no(new Error(`${what} exited ${code}`)))));
  await Promise.all([failed(tar, `git archive of ${app.repo}@${app.commit}`), failed(untar, 'tar')]);
  return join(into, app.path ?? '');
}

/**
 * An app's env.json holds its developer's secrets (OAuth2 client ids, API keys) and is kept out of
 * its repository; a person building it from source writes their own, or the app cannot start (on
 * Homey as here). When the source has none, one is written with a placeholder for each key the
 * app's own code reads (`env.KEY`), and Homey's OAuth2 library's two when the app uses it: the app
 * then starts, and only what needs the real service fails. Answers the keys written.
 */
async function placeholderEnv(src, out) {
  if (existsSync(join(src, 'env.json'))) return [];
  const keys = new Set();
  const walk = async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/\.(c|m)?(j|t)s$/.test(entry.name))
        for (const m of (await readFile(path, 'utf8')).matchAll(/(?<!process\.)\benv\.([A-Z][A-Z0-9_]*)\b/g)) keys.add(m[1]);
    }
  };
  await walk(src);
  if (existsSync(join(src, 'node_modules/homey-oauth2app'))) keys.add('CLIENT_ID').add('CLIENT_SECRET');
  if (keys.size === 0) return [];
  const env = Object.fromEntries([...keys].sort().map((k) => [k, `compat-placeholder-${k.toLowerCase()}`]));
  await writeFile(join(out, 'env.json'), `${JSON.stringify(env, null, 2)}\n`);
  return Object.keys(env);
}

/** Builds the app in `src` as `homey app build` would, into `out`; answers the env.json keys it had to make up. */
export async function build(app, src, out) {
  if (existsSync(join(src, 'package.json'))) {
    const install = (extra) => run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...extra], { cwd: src, ...quiet });
    // A JavaScript app needs only what it runs with; a TypeScript app also its compiler and types,
    // unless a development dependency cannot be had (one from GitHub, say): then hearth's compiler.
    await (app.language === 'ts' ? install([]).catch(() => install(['--omit=dev'])) : install(['--omit=dev'])).catch((err) => {
      const why = String(err.stderr ?? '')
        .split('\n')
        .find((l) => /npm error (code|404|network|notarget)/.test(l));
      throw new Error(`npm install failed: ${why ?? String(err.message).split('\n')[0]}`);
    });
  }
  await cp(src, out, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (p) => !relative(src, p).startsWith('.homeybuild') && !/(^|\/)\.git(\/|$)/.test(relative(src, p)),
  });
  const envKeys = await placeholderEnv(src, out);
  if (app.language !== 'ts') return envKeys;
  const types = join(src, 'node_modules/@types/homey');
  if (!existsSync(types)) {
    await mkdir(join(src, 'node_modules/@types'), { recursive: true });
    await cp(join(root, 'node_modules/homey-apps-sdk-v3-types'), types, { recursive: true });
  }
  const local = join(src, 'node_modules/typescript/bin/tsc');
  const tsc = existsSync(local) ? local : join(root, 'node_modules/typescript/bin/tsc');
  const config = JSON.parse((await readFile(join(src, 'tsconfig.json'), 'utf8')).replace(/^\s*\/\/.*$/gm, ''));
  const outDir = config.compilerOptions?.outDir ?? '.homeybuild';
  // Type errors do not stop `homey app build` from emitting JavaScript (noEmitOnError is off): the same here.
  await run(process.execPath, [tsc, '-p', src, '--outDir', join(src, outDir)], { cwd: src, ...quiet }).catch((err) => {
    if (!existsSync(join(src, outDir))) throw new Error(`tsc emitted nothing: ${String(err.stdout ?? err.message).slice(0, 400)}`);
  });
  await cp(join(src, outDir), out, { recursive: true, force: true });
  return envKeys;
}
