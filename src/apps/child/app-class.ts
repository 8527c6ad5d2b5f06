/**
 * Finding the Homey.App class an app's main module exports: `module.exports = MyApp`,
 * `export default MyApp`, or a transpiled `exports.default = MyApp`. Used by the bootstrap in
 * the app's process and by `hearth app pack`'s check that the main module loads.
 */
import { loadModule } from './load-module.js';

/** Why a main module is not an app: a sentence that names what to write instead. */
export class NotAnApp extends Error {}

/**
 * Loads `file` and returns the class it exports, which must extend `App` (the SDK's
 * Homey.App, as the app's `require('homey')` gives it).
 */
export async function loadAppClass<T>(file: string, App: abstract new () => T): Promise<new () => T> {
  const mod = await loadModule(file);
  let exported = mod.default;
  if (typeof exported === 'object' && exported !== null && 'default' in exported) exported = (exported as { default: unknown }).default;
  if (typeof exported !== 'function' || !(exported.prototype instanceof App)) {
    throw new NotAnApp(
      `${file} must export a class that extends Homey.App (const Homey = require('homey'); module.exports = class MyApp extends Homey.App { ... })`,
    );
  }
  return exported as new () => T;
}
