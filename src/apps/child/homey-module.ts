/**
 * `require('homey')` is hearth's SDK in every app, as on Homey, whose runtime provides the module.
 * Some apps list Athom's `homey` npm package (the command-line tool) among their own dependencies,
 * and Node would find the app's copy before the apps folder's link to the SDK (sdk-link.ts): the
 * CommonJS resolver answers the SDK's own file for `homey`, whatever the app ships. (An ES module
 * app with its own `homey` package still gets that package: Node 20 resolves ES modules through
 * hooks on a thread of their own, which the permission model refuses to start.)
 */
import Module from 'node:module';

type Resolver = (request: string, parent: unknown, ...rest: unknown[]) => string;

/** Makes `require('homey')` resolve to `sdkMain` (the SDK's index.cjs, by its real path). */
export function resolveHomeyTo(sdkMain: string): void {
  const M = Module as unknown as { _resolveFilename: Resolver };
  const original = M._resolveFilename;
  M._resolveFilename = function resolveFilename(this: unknown, request, parent, ...rest) {
    return request === 'homey' ? sdkMain : original.call(this, request, parent, ...rest);
  };
}
