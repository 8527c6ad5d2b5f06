/**
 * Static files: the built web app (dist/web) at `/`, each app's widget pages at
 * `/app/<appId>/widgets/<widgetId>/<path>` from `<apps-dir>/<appId>/widgets/<widgetId>/public/`,
 * each app's settings page at `/app/<appId>/settings/<path>` from `<apps-dir>/<appId>/settings/`,
 * and each driver's pairing views at `/app/<appId>/drivers/<driverId>/pair/<path>` from
 * `<apps-dir>/<appId>/drivers/<driverId>/pair/`.
 * No token is needed: the files hold no secrets (the page signs in with a pasted token kept in
 * the browser). App pages are app code, so they are served with a CSP sandbox: even opened on
 * their own they run in an opaque origin and cannot read the web app's stored token. Into each
 * of their HTML files the hub puts Homey's page API first (`/homey-widget.js`, `/homey.js` or `/homey-pair.js`,
 * which call the page's `onHomeyReady(Homey)`), Homey's stylesheet, and the app's strings.
 */
import { hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { AppGateway } from '../apps/host/gateway.js';
import { FOLDER_ID } from '../apps/manifest/drivers.js';
import { APP_ID, IMAGE_KINDS } from '../apps/manifest/manifest.js';
import { HearthError } from '../core/errors.js';
import { WEB_ROOT } from '../layout.js';
import { VERSION } from '../version.js';
import { injectFirst } from './html-inject.js';
import { answer, isHead } from './node-adapter.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
};
const contentType = (file: string): string => TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';

/** Built assets carry a content hash in their name (app-3F2A9C1B.js): cache them for a year. */
const HASHED = /-[A-Z0-9]{8}\.(js|css)$/;
/** The files an app may show as a picture of a driver or a device. */
const PICTURE = /\.(svg|png|jpe?g|webp|gif)$/i;
const WIDGET_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Segments of each kind of page's folder in its URL: `/app/<id>/settings`, `/app/<id>/widgets/<w>`, `/app/<id>/drivers/<d>/pair`. */
const PREFIX_SEGMENTS: Readonly<Record<PageKind, number>> = { settings: 3, widget: 4, pair: 5 };
/** The page API of each kind of app page (src/web/homey-widget.ts, homey-settings.ts, homey-pair.ts). */
const PAGE_SCRIPT = { widget: '/homey-widget.js', settings: '/homey.js', pair: '/homey-pair.js' } as const;
type PageKind = keyof typeof PAGE_SCRIPT;
const APP_PAGE_CSP = "sandbox allow-scripts allow-forms allow-popups allow-modals; frame-ancestors 'self'";
/** An app page is read whole to put the page API in: bound what one GET may make the hub read. */
const MAX_WIDGET_PAGE = 2 * 1024 * 1024;
/**
 * Bridged pages kept, per file version (path, size, mtime), so a page is rewritten once and not
 * on every GET; bounded in characters (about 16 MiB at most), oldest version out first.
 */
const BRIDGED_CHARS = 8 * 1024 * 1024;
const bridged = new Map<string, string>();
let bridgedChars = 0;

/**
 * Splits a URL path tail into safe segments, or null when any segment could leave the folder
 * (`..`, `.`, encoded slashes or backslashes, NUL) or is not valid percent-encoding.
 */
export function safeSegments(tail: string): string[] | null {
  const out: string[] = [];
  for (const raw of tail.split('/')) {
    if (raw === '') continue;
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (seg === '.' || seg === '..' || /[\\/\0]/.test(seg) || seg.startsWith('.')) return null;
    out.push(seg);
  }
  return out;
}

interface Found {
  file: string;
  size: number;
  mtimeMs: number;
}

/** Resolves a file inside root, following symlinks only while they stay inside root. */
async function findFile(root: string, segments: string[]): Promise<Found | null> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return null;
  }
  let file = join(realRoot, ...segments);
  try {
    let s = await stat(file);
    if (s.isDirectory()) {
      file = join(file, 'index.html');
      s = await stat(file);
    }
    const real = await realpath(file);
    if (!real.startsWith(realRoot + sep) || !s.isFile()) return null;
    return { file: real, size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return null;
  }
}

const etagOf = (f: Found, variant = ''): string => `W/"${f.size.toString(36)}-${Math.floor(f.mtimeMs).toString(36)}${variant}"`;

interface SendOptions {
  cache: string;
  headers?: Record<string, string>;
  /** The body to send instead of the file (an app page with its head put in); disables the gzip sibling. */
  transform?: { apply: (found: Found) => Promise<string>; version: string };
  /** Serve `<file>.gz` when the client accepts gzip and it exists (built web app only). */
  gzip?: boolean;
}

async function send(c: Context, found: Found, options: SendOptions): Promise<Response> {
  const headers: Record<string, string> = {
    'X-Hearth-Version': VERSION,
    'Content-Type': contentType(found.file),
    'Cache-Control': options.cache,
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept-Encoding',
    ...options.headers,
  };
  let gz: Found | null = null;
  if (options.gzip && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
    try {
      const s = await stat(`${found.file}.gz`);
      if (s.isFile()) gz = { file: `${found.file}.gz`, size: s.size, mtimeMs: s.mtimeMs };
    } catch {
      /* no precompressed sibling */
    }
  }
  const etag = etagOf(gz ?? found, gz ? '-gz' : options.transform ? `-w${options.transform.version}` : '');
  headers.ETag = etag;
  const inm = c.req.header('if-none-match');
  // split + trim, not split(/\s*,\s*/): that pattern backtracks quadratically on a long run of spaces.
  if (inm?.split(',').some((tag) => tag.trim() === etag)) return answer(null, { status: 304, headers });
  if (options.transform) {
    const body = await options.transform.apply(found);
    // Made either way: a HEAD's answer is this one's headers (its Content-Length too); Node drops the body.
    return answer(body, { status: 200, headers });
  }
  const source = gz ?? found;
  if (gz) headers['Content-Encoding'] = 'gzip';
  headers['Content-Length'] = String(source.size);
  if (isHead(c.req.raw)) return answer(null, { status: 200, headers });
  return answer(createReadStream(source.file), { status: 200, headers });
}

/** JSON inside a <script>: `<` escaped, so no text of the app's can end the script element. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * What goes first into an app page's <head>: the app's strings (for `Homey.__`), Homey's
 * stylesheet, and the page API, so `Homey` is ready before the page's own scripts run.
 */
export function pageHead(kind: PageKind, strings: ReturnType<AppGateway['strings']>): string {
  return `<script>window.__HOMEY_PAGE__=${scriptJson({ kind, ...strings })}</script><link rel="stylesheet" href="/homey.css"><script src="${PAGE_SCRIPT[kind]}"></script>`;
}

/** An app page with `head` put in first, from the cache while the file and the head are unchanged. */
async function bridgedPage(found: Found, head: string): Promise<string> {
  if (found.size > MAX_WIDGET_PAGE) {
    throw new HearthError('payload_too_large', `this page is larger than ${MAX_WIDGET_PAGE / 1024 / 1024} MiB; the app must ship a smaller page`);
  }
  const key = `${found.file}\0${found.size}\0${found.mtimeMs}\0${head}`;
  let page = bridged.get(key);
  if (page === undefined) {
    page = injectFirst(await readFile(found.file, 'utf8'), head);
    for (const [old, text] of bridged) {
      if (bridgedChars + page.length <= BRIDGED_CHARS) break;
      bridged.delete(old);
      bridgedChars -= text.length;
    }
    bridged.set(key, page);
    bridgedChars += page.length;
  }
  return page;
}

/** Answers a GET/HEAD for a file of the web app, or null when there is none. */
export type WebRootHandler = (c: Context) => Promise<Response | null>;

/** Where each kind of app page lives in the app's folder, below the URL `/app/<appId>/<...>`. */
function pageFolder(appsDir: string, appId: string, kind: PageKind, widgetId: string | undefined): string {
  if (kind === 'widget') return join(appsDir, appId, 'widgets', widgetId!, 'public');
  return kind === 'pair' ? join(appsDir, appId, 'drivers', widgetId!, 'pair') : join(appsDir, appId, 'settings');
}

/**
 * Routes GET/HEAD for app pages, and returns the handler of the web app's own files. That one
 * is not a route: a catch-all route would sit in the handler chain of every API request, so the
 * HTTP layer calls it only once nothing else matched (its not-found handler).
 */
export function mountStatic(app: Hono, gateway: AppGateway | undefined, webRoot: string = WEB_ROOT): WebRootHandler {
  const page =
    (kind: PageKind): MiddlewareHandler =>
    async (c, next) => {
      const { appId, widgetId } = c.req.param() as { appId: string; widgetId?: string };
      const idRule = kind === 'pair' ? FOLDER_ID : WIDGET_ID;
      if (!gateway || !APP_ID.test(appId) || (kind !== 'settings' && !idRule.test(widgetId ?? ''))) return next();
      // The raw path (with strict: false Hono's c.req.path drops the trailing slash), split after
      // the page's folder by counting segments: a driver id may be encoded any way a client likes.
      const path = new URL(c.req.url).pathname;
      const parts = path.split('/');
      const depth = PREFIX_SEGMENTS[kind];
      const prefix = parts.slice(0, depth + 1).join('/');
      // The page's relative URLs need the trailing slash: redirect the bare folder path.
      if (parts.length === depth + 1) return answer(null, { status: 301, headers: { location: `${prefix}/${new URL(c.req.url).search}` } });
      const segments = safeSegments(path.slice(prefix.length));
      if (!segments) return next();
      const found = await findFile(pageFolder(gateway.appsDir, appId, kind, widgetId), segments);
      if (!found) return next();
      let transform: SendOptions['transform'];
      if (found.file.toLowerCase().endsWith('.html')) {
        const head = pageHead(kind, gateway.installed(appId) ? gateway.strings(appId) : { language: 'en', strings: {}, english: {} });
        transform = { apply: (f) => bridgedPage(f, head), version: hash('sha1', head, 'hex').slice(0, 8) };
      }
      return send(c, found, {
        // Apps change on install/update: revalidate every time (cheap: a 304 on the LAN).
        cache: 'no-cache',
        // Any origin may read an app's page files: its pages run in an opaque origin (`null`), and
        // a module script or a `crossorigin` stylesheet of its own is fetched with CORS. Only
        // these files: never the Web API.
        headers: { 'Content-Security-Policy': APP_PAGE_CSP, 'Access-Control-Allow-Origin': '*' },
        ...(transform ? { transform } : {}),
      });
    };
  // An app's pictures, only the files its manifest names as such (never any other file of its folder).
  app.get('/app/:appId/image/:kind', async (c, next) => {
    const { appId, kind } = c.req.param();
    const manifest = gateway && APP_ID.test(appId) ? gateway.manifest(appId) : null;
    const rel = !manifest
      ? undefined
      : kind === 'icon'
        ? manifest.icon
        : (IMAGE_KINDS as readonly string[]).includes(kind)
          ? manifest.images?.[kind as 'small']
          : undefined;
    const segments = rel ? safeSegments(`/${rel}`) : null;
    const found = segments && gateway ? await findFile(join(gateway.appsDir, appId), segments) : null;
    if (!found) return next();
    // An SVG is app content that could hold script: sandboxed like the app's pages if opened alone.
    return send(c, found, { cache: 'no-cache', headers: { 'Content-Security-Policy': 'sandbox', 'X-Content-Type-Options': 'nosniff' } });
  });
  // A driver's icon (its manifest's, else Homey's default place) and the pictures of its assets
  // folder, where a device's own icon is named from. The driver is found in the app's manifest by
  // its id, so the folder is the manifest's, never the URL's; only picture files are served.
  const driverOf = (appId: string, driverId: string) =>
    gateway && APP_ID.test(appId) ? (gateway.manifest(appId)?.drivers.find((d) => d.id === driverId) ?? null) : null;
  const picture = async (c: Context, appId: string, segments: string[] | null): Promise<Response | null> => {
    const file = segments?.at(-1);
    const found = segments && file && PICTURE.test(file) && gateway ? await findFile(join(gateway.appsDir, appId), segments) : null;
    // An SVG is app content that could hold script: sandboxed if opened alone.
    return found ? send(c, found, { cache: 'no-cache', headers: { 'Content-Security-Policy': 'sandbox', 'X-Content-Type-Options': 'nosniff' } }) : null;
  };
  // A path a manifest gives (not URL-encoded), checked as a URL's would be.
  const manifestPath = (rel: string): string[] | null => safeSegments(rel.split('/').map(encodeURIComponent).join('/'));
  app.get('/app/:appId/drivers/:driverId/icon', async (c, next) => {
    const { appId, driverId } = c.req.param();
    const driver = driverOf(appId, driverId);
    if (!driver) return next();
    return (await picture(c, appId, manifestPath(driver.icon ?? `drivers/${driver.id}/assets/icon.svg`))) ?? next();
  });
  app.get('/app/:appId/drivers/:driverId/assets/*', async (c, next) => {
    const { appId, driverId } = c.req.param();
    const driver = driverOf(appId, driverId);
    // What follows `assets/` in the raw path: a driver id may be encoded any way a client likes.
    const tail = safeSegments(new URL(c.req.url).pathname.split('/').slice(6).join('/'));
    const folder = driver ? manifestPath(`drivers/${driver.id}/assets`) : null;
    if (!folder || !tail || tail.length === 0) return next();
    return (await picture(c, appId, [...folder, ...tail])) ?? next();
  });
  // A widget's preview pictures, as the manifest found them (compose.ts), for the add-widget picker.
  app.get('/app/:appId/widget-preview/:widgetId/:theme', async (c, next) => {
    const { appId, widgetId, theme } = c.req.param();
    const manifest = gateway && APP_ID.test(appId) ? gateway.manifest(appId) : null;
    const rel = theme === 'light' || theme === 'dark' ? manifest?.widgetPreviews?.[widgetId]?.[theme] : undefined;
    const segments = rel ? safeSegments(`/${rel}`) : null;
    const found = segments && gateway ? await findFile(join(gateway.appsDir, appId), segments) : null;
    if (!found) return next();
    return send(c, found, { cache: 'no-cache', headers: { 'X-Content-Type-Options': 'nosniff' } });
  });
  app.get('/app/:appId/widgets/:widgetId', page('widget'));
  app.get('/app/:appId/widgets/:widgetId/*', page('widget'));
  app.get('/app/:appId/settings', page('settings'));
  app.get('/app/:appId/settings/*', page('settings'));
  // A driver's own pairing views (`drivers/<id>/pair/<view>.html`) and their files.
  app.get('/app/:appId/drivers/:widgetId/pair', page('pair'));
  app.get('/app/:appId/drivers/:widgetId/pair/*', page('pair'));

  return async (c) => {
    if (c.req.method !== 'GET') return null;
    const path = new URL(c.req.url).pathname;
    if (path === '/api' || path.startsWith('/api/') || path.startsWith('/app/')) return null;
    const segments = safeSegments(path);
    if (!segments) return null;
    const found = await findFile(webRoot, segments.length ? segments : ['index.html']);
    if (!found) return null;
    const name = found.file.slice(found.file.lastIndexOf(sep) + 1);
    return send(c, found, {
      cache: HASHED.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache',
      gzip: true,
      headers: name.endsWith('.html')
        ? {
            // blob: the pictures devices show, fetched with the token; https: those an app gives by URL.
            'Content-Security-Policy':
              "default-src 'self'; img-src 'self' data: blob: https:; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; frame-src 'self'; object-src 'none'; base-uri 'none'",
            'X-Frame-Options': 'DENY',
            'Referrer-Policy': 'no-referrer',
          }
        : {},
    });
  };
}
