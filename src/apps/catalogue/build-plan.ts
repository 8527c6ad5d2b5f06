/**
 * What an app folder from a repository or an upload needs before it can run, as `homey app build`
 * would make it: its npm packages (production ones only, unless it compiles TypeScript, which
 * needs its development ones: the compiler and the types), and its TypeScript compiled. Homey
 * Compose needs nothing here: the hub composes any folder as it reads it. Decided from the
 * folder's files alone; nothing of it runs.
 */
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { invalid } from '../../core/errors.js';
import { exists } from '../../core/files.js';

/** package.json files larger than this are refused (a real one is a few KiB). */
const MAX_PACKAGE_JSON = 256 * 1024;

export interface BuildPlan {
  /** Which npm packages to install: the production ones, all (to compile), or none. */
  readonly packages: 'production' | 'all' | null;
  /** Whether TypeScript is compiled (with the app's own compiler and tsconfig.json). */
  readonly compile: boolean;
  /**
   * The names the app lists that the hub leaves out: `homey` (Athom's command-line tool, which
   * some apps list; the SDK it would give is the hub's own).
   */
  readonly leftOut: readonly string[];
}

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** Packages an app may list that are not installed for it. */
export const LEFT_OUT = ['homey'];

export async function readPackageJson(dir: string): Promise<PackageJson | null> {
  const file = join(dir, 'package.json');
  const info = await lstat(file).catch(() => null);
  if (!info) return null;
  if (!info.isFile()) throw invalid("the app's package.json is not a file");
  if (info.size > MAX_PACKAGE_JSON) throw invalid(`the app's package.json is larger than ${MAX_PACKAGE_JSON / 1024} KiB`);
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as PackageJson;
  } catch (err) {
    throw invalid(`the app's package.json cannot be read: ${(err as Error).message}`);
  }
}

/**
 * Whether the folder holds TypeScript it runs from and not the JavaScript made from it: its app
 * module, or a driver's, as .ts with no .js (or .mjs, .cjs) beside it.
 */
async function uncompiled(dir: string, drivers: readonly string[]): Promise<boolean> {
  const modules = [join(dir, 'app'), ...drivers.flatMap((d) => [join(dir, 'drivers', d, 'driver'), join(dir, 'drivers', d, 'device')])];
  for (const base of modules) {
    const ts = (await exists(`${base}.ts`)) || (await exists(`${base}.mts`));
    if (!ts) continue;
    const js = (await exists(`${base}.js`)) || (await exists(`${base}.mjs`)) || (await exists(`${base}.cjs`));
    if (!js) return true;
  }
  return false;
}

/** What the app in `dir` (whose manifest lists `drivers`) needs built, or why it cannot be. */
export async function planBuild(dir: string, drivers: readonly string[]): Promise<BuildPlan> {
  const pkg = await readPackageJson(dir);
  const names = (deps: Record<string, string> | undefined): string[] =>
    deps && typeof deps === 'object' ? Object.keys(deps).filter((d) => !LEFT_OUT.includes(d)) : [];
  const runtime = names(pkg?.dependencies);
  const development = names(pkg?.devDependencies);
  const listed = [...Object.keys(pkg?.dependencies ?? {}), ...Object.keys(pkg?.devDependencies ?? {})];
  const leftOut = LEFT_OUT.filter((d) => listed.includes(d));
  const shipped = await exists(join(dir, 'node_modules'));
  if (!(await uncompiled(dir, drivers))) {
    return { packages: runtime.length > 0 && !shipped ? 'production' : null, compile: false, leftOut };
  }
  if (!(await exists(join(dir, 'tsconfig.json')))) throw invalid('the app is TypeScript but has no tsconfig.json to compile it with');
  if (![...runtime, ...development].includes('typescript')) {
    throw invalid('the app is TypeScript but lists no typescript compiler in its package.json (devDependencies), as apps made with homey app create do');
  }
  if (shipped)
    throw invalid(
      'the app is TypeScript and ships a node_modules folder but no compiled JavaScript: archive the folder without node_modules, or what homey app build leaves in .homeybuild',
    );
  return { packages: 'all', compile: true, leftOut };
}
