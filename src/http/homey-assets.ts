/**
 * The files Homey serves every app's pages at `/manager/webserver/assets/`, which older settings
 * pages load by those paths: Homey's page API (`js/homey.js`, the same as `/homey.js`), its
 * stylesheet (`css/homey.css`, the same as `/homey.css`) and jQuery (`js/jquery.js`, from the npm
 * package). AngularJS (`js/angular.js`) is not served: it reached its end of life in 2022 and gets
 * no fixes, and no page of the apps we run needs it; its path answers a sentence saying so.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { HearthError } from '../core/errors.js';
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
  };
}

export function mountHomeyAssets(app: Hono, webRoot: string = WEB_ROOT): void {
  const files = assetFiles(webRoot);
  const cache = new Map<string, Promise<Buffer>>();
  app.on(['GET', 'HEAD'], `${HOMEY_ASSETS}/*`, async (c, next) => {
    const name = c.req.path.slice(HOMEY_ASSETS.length + 1);
    if (name === 'js/angular.js') {
      throw new HearthError('not_found', 'hearth does not serve AngularJS (end of life since 2022): a settings page that needs it can ship its own copy');
    }
    const asset = files[name];
    if (!asset) return next();
    let body = cache.get(name);
    if (!body) {
      body = readFile(asset.file());
      cache.set(name, body);
      body.catch(() => cache.delete(name));
    }
    return answer(new Uint8Array(await body), {
      headers: { 'content-type': asset.type, 'cache-control': 'no-cache', 'x-hearth-version': VERSION },
    });
  });
}
