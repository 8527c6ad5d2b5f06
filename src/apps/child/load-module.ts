/**
 * Loading an app's module (its main module, an api.js) as Node would run it, at the least cost
 * to the app's process: require() for CommonJS, import() only for an ES module. import() of a
 * CommonJS file would start Node's ES module loader and its CommonJS export lexer (a WebAssembly
 * module) in every app process, about 0.5 MiB with the bootstrap's own ES module entry
 * (docs/performance.md, "Where an app's memory goes").
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** A module as import() gives it: CommonJS's module.exports is `default`, its keys named exports. */
export type ModuleNamespace = Record<string, unknown> & { default?: unknown };

/** Codes of require() refusing an ES module: Node 20 always, Node 22 when it awaits at top level. */
const ES_MODULE = new Set(['ERR_REQUIRE_ESM', 'ERR_REQUIRE_ASYNC_MODULE']);

export async function loadModule(file: string): Promise<ModuleNamespace> {
  let exported: unknown;
  try {
    exported = createRequire(file)(file);
  } catch (err) {
    if (!ES_MODULE.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
    return (await import(pathToFileURL(file).href)) as ModuleNamespace;
  }
  // Node 22 may require() an ES module: its namespace already has the import() shape.
  if (typeof exported === 'object' && exported !== null && Object.prototype.toString.call(exported) === '[object Module]') return exported as ModuleNamespace;
  return { ...(typeof exported === 'object' && exported !== null ? (exported as Record<string, unknown>) : {}), default: exported };
}
