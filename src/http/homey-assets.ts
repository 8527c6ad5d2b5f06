/**
 * The files Homey serves every app's pages at `/manager/webserver/assets/`, which older settings
 * pages load by those paths: Homey's page API (`js/homey.js`, the same as `/homey.js`), its
 * stylesheet (`css/homey.css`, the same as `/homey.css`), jQuery (`js/jquery.js`) and AngularJS
 * (`js/angular.js`), both from their npm packages. AngularJS reached its end of life in 2022;
 * older settings pages, Athom's own among them, cannot run without it, and the risk is the page's
 * own: it runs in a sandboxed frame with an opaque origin, with no access to the hub's.
 * Any origin may read them (an app page's origin is opaque: `null`), as it may read the files.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { WEB_ROOT } from '../layout.js';
import { VERSION } from '../version.js';
import { answer } from './node-adapter.js';

export const HOMEY_ASSETS = '/manager/webserver/assets';

/** Each served path and where its file is (resolved when first asked for). */
function assetFiles(webRoot: string): Record<string, { file: () => string; type: string }> {
  const require = createRequire(import.meta.url);
  return {
    'js/homey.js': { file: () => join(webRoot, 'homey.js'), type: 'text/javascript; charset=utf-8' },
    'css/homey.css': { file: () => join(webRoot, 'homey.css'), type: 'text/css; charset=utf-8' },
    'js/jquery.js': { file: () => require.resolve('jquery/dist/jquery.min.js'), type: 'text/javascript; charset=utf-8' },
    'js/angular.js': { file: () => require.resolve('angular/angular.min.js'), type: 'text/javascript; charset=utf-8' },
  };
}

export function mountHomeyAssets(app: Hono, webRoot: string = WEB_ROOT): void {
  const files = assetFiles(webRoot);
  const cache = new Map<string, Promise<Buffer>>();
  app.on(['GET', 'HEAD'], `${HOMEY_ASSETS}/*`, async (c, next) => {
    const name = c.req.path.slice(HOMEY_ASSETS.length + 1);
    const asset = files[name];
    if (!asset) return next();
    let body = cache.get(name);
    if (!body) {
      body = readFile(asset.file());
      cache.set(name, body);
      body.catch(() => cache.delete(name));
    }
    return answer(new Uint8Array(await body), {
      headers: { 'content-type': asset.type, 'cache-control': 'no-cache', 'x-hearth-version': VERSION, 'access-control-allow-origin': '*' },
    });
  });
}
