/**
 * Static files over real HTTP from a real hub: the web app at /, the page APIs of app pages
 * (/homey-widget.js, /homey.js, /homey.css), widget and settings pages per app, content types,
 * caching headers, precompressed gzip, ETags, the CSP sandbox of app pages, what the hub puts
 * first into them, and path-traversal attempts (which must end as the API's JSON 404, never a file).
 */
import { cp, mkdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endOfStartTag, injectFirst } from '../../src/http/html-inject.js';
import { pageHead, safeSegments } from '../../src/http/static.js';
import { ROOT, type RunningHub, startHub, tempDir } from '../helpers/hub.js';

let hub: RunningHub;
let outside: string;
let pub: string;
/** What the hub puts first into each of greeter's widget pages (its English strings: the hub speaks English). */
let TAG: string;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-static-apps-');
  await cp(join(ROOT, 'examples'), appsDir, { recursive: true });
  outside = await tempDir('hearth-static-outside-');
  await writeFile(join(outside, 'secret.txt'), 'not for widgets');
  pub = join(appsDir, 'com.hearth.greeter/widgets/greeting/public');
  await mkdir(join(pub, 'img'), { recursive: true });
  await writeFile(join(pub, 'img/dot.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(pub, 'style.css'), 'body{}');
  const en = JSON.parse(await readFile(join(appsDir, 'com.hearth.greeter/locales/en.json'), 'utf8')) as Record<string, unknown>;
  TAG = pageHead('widget', { language: 'en', strings: en, english: en });
  hub = await startHub({ appsDir });
  // Made after the start: the hub refuses to load an app folder holding a link out of it, and
  // this checks that the page server would not follow one that appeared later.
  await symlink(join(outside, 'secret.txt'), join(pub, 'escape.txt'));
}, 60_000);

afterAll(async () => {
  await hub?.cleanup();
});

/** A GET that sends the path exactly as written (fetch would normalise `..`). */
function rawGet(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: hub.port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the web app at /', () => {
  test('index.html revalidates; hashed assets are cached a year; gzip is precompressed', async () => {
    const index = await rawGet('/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['content-security-policy']).toContain("default-src 'self'");
    expect(index.headers['x-frame-options']).toBe('DENY');
    const js = /src="\/(app-[A-Z0-9]{8}\.js)"/.exec(index.body)?.[1];
    const css = /href="\/(app-[A-Z0-9]{8}\.css)"/.exec(index.body)?.[1];
    expect(js).toBeDefined();
    expect(css).toBeDefined();

    const script = await rawGet(`/${js}`);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['content-encoding']).toBeUndefined();
    const zipped = await rawGet(`/${js}`, { 'accept-encoding': 'gzip, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(Number(zipped.headers['content-length'])).toBeLessThan(Number(script.headers['content-length']));
    expect((await rawGet(`/${css}`)).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  test('the page APIs of app pages have fixed names, revalidate, and come gzipped', async () => {
    for (const [path, type, marker] of [
      ['/homey-widget.js', 'text/javascript; charset=utf-8', 'onHomeyReady'],
      ['/homey.js', 'text/javascript; charset=utf-8', 'onHomeyReady'],
      ['/homey.css', 'text/css; charset=utf-8', '--homey-background-color'],
    ] as const) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type'], path).toBe(type);
      expect(res.headers['cache-control'], path).toBe('no-cache');
      expect(res.body, path).toContain(marker);
      expect((await rawGet(path, { 'accept-encoding': 'gzip' })).headers['content-encoding'], path).toBe('gzip');
    }
    // The old bridge is gone.
    expect((await rawGet('/widget-bridge.js')).status).toBe(404);
  });

  test('an unchanged file answers 304 to its ETag', async () => {
    const first = await rawGet('/homey-widget.js');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await rawGet('/homey-widget.js', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  test('unknown paths, /api paths and traversal attempts are JSON 404s', async () => {
    for (const path of ['/nope.js', '/api/nope', '/api', '/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json', '/.hidden', '/index.html%00.js']) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toContain('application/json');
      expect(JSON.parse(res.body).error, path).toBe('not_found');
    }
  });
});

describe('widget pages under /app/<appId>/widgets/<widgetId>/', () => {
  const base = '/app/com.hearth.greeter/widgets/greeting';

  test("the page is served sandboxed with its strings, Homey's stylesheet and the widget API first", async () => {
    const res = await rawGet(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toMatch(/^sandbox allow-scripts/);
    expect(res.headers['content-security-policy']).not.toContain('allow-same-origin');
    expect(res.headers['cache-control']).toBe('no-cache');
    const at = (text: string): number => res.body.indexOf(text);
    expect(at('<head>')).toBeGreaterThan(0);
    expect(at(`<head>${TAG}`)).toBe(at('<head>'));
    expect(at('window.__HOMEY_PAGE__=')).toBeLessThan(at('<link rel="stylesheet" href="/homey.css">'));
    expect(at('<link rel="stylesheet" href="/homey.css">')).toBeLessThan(at('<script src="/homey-widget.js"></script>'));
    expect(at('<script src="/homey-widget.js"></script>')).toBeLessThan(at('function onHomeyReady'));
    const page = JSON.parse(/window\.__HOMEY_PAGE__=(.*?)<\/script>/.exec(res.body)![1]!) as {
      kind: string;
      language: string;
      strings: { widget: { say: string } };
    };
    expect(page).toMatchObject({ kind: 'widget', language: 'en', strings: { widget: { say: 'Say it' } } });
    expect(res.body).toContain('<div id="greeting" data-testid="greeting">');
  });

  test('a settings page is served sandboxed with the settings API first, before its own copy', async () => {
    const res = await rawGet('/app/com.hearth.sysmon/settings/');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(/^sandbox allow-scripts/);
    expect(res.headers['content-security-policy']).not.toContain('allow-same-origin');
    const injected = res.body.indexOf('<script src="/homey.js"></script>');
    expect(injected).toBeGreaterThan(0);
    expect(injected).toBeLessThan(res.body.indexOf('<script type="text/javascript" src="/homey.js" data-origin="settings">'));
    expect(res.body).not.toContain('/homey-widget.js');
    expect(res.body).toContain('"kind":"settings"');
    expect(res.body).toContain('"interval":"Sample every (seconds)"');
    // A HEAD of the page: the GET's headers, its length too (the page is made per request), no body.
    const head = await fetch(`${hub.url}/app/com.hearth.sysmon/settings/`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, String(res.body.length), '']);
    const bare = await rawGet('/app/com.hearth.sysmon/settings');
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe('/app/com.hearth.sysmon/settings/');
    // An app without a settings folder, and paths out of the folder, are JSON 404s.
    for (const path of ['/app/com.hearth.greeter/settings/', '/app/com.hearth.sysmon/settings/../app.json', '/app/com.hearth.sysmon/settings/%2e%2e/api.js']) {
      const miss = await rawGet(path);
      expect(miss.status, path).toBe(404);
      expect(miss.body, path).not.toContain('getReadings');
    }
  });

  test('the bare folder path redirects to the slash form; other files get their types', async () => {
    const bare = await rawGet(base);
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe(`${base}/`);
    expect((await rawGet(`${base}/img/dot.svg`)).headers['content-type']).toBe('image/svg+xml');
    expect((await rawGet(`${base}/style.css`)).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  test('nothing outside the public folder is reachable', async () => {
    for (const path of [
      `${base}/../../../app.json`,
      `${base}/%2e%2e/%2e%2e/%2e%2e/app.json`,
      `${base}/..%2f..%2f..%2fapp.json`,
      `${base}/..%5c..%5capp.json`,
      `${base}/escape.txt`,
      '/app/com.hearth.greeter/widgets/nope/',
      '/app/..%2f..%2fetc/widgets/x/',
      '/app/com.hearth.nope/widgets/greeting/',
    ]) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('not for widgets');
      expect(res.body, path).not.toContain('"permissions"');
    }
  });
});

describe('pure helpers', () => {
  test('safeSegments refuses every way out of a folder', () => {
    expect(safeSegments('/a/b%20c/d.js')).toEqual(['a', 'b c', 'd.js']);
    for (const bad of ['/../x', '/a/%2e%2e/x', '/a%2fb', '/a%5cb', '/.env', '/a%00', '/%E0%A4%A']) expect(safeSegments(bad), bad).toBeNull();
  });

  test('injectFirst puts the tag first in <head>, or first in the file without one', () => {
    const tag = '<script src="/homey-widget.js"></script>';
    expect(injectFirst('<html><head><title>x</title></head></html>', tag)).toBe(`<html><head>${tag}<title>x</title></head></html>`);
    expect(injectFirst('<!doctype html><p>hi', tag)).toBe(`<!doctype html>${tag}<p>hi`);
    expect(injectFirst('<p>hi', tag)).toBe(`${tag}<p>hi`);
  });

  test("pageHead: no text of the app's can end the strings' script element", () => {
    const head = pageHead('settings', { language: 'nl', strings: { x: '</script><script>alert(1)</script>' }, english: {} });
    expect(head.match(/<\/script>/g)).toHaveLength(2);
    expect(head).toContain('\\u003c/script>');
    expect(head.endsWith('<script src="/homey.js"></script>')).toBe(true);
  });

  test('endOfStartTag finds a start tag as the old pattern did, and not a longer name', () => {
    expect(endOfStartTag('<html><HEAD lang="en"><title>', 'head')).toBe(22);
    expect(endOfStartTag('<header><head>', 'head')).toBe(14);
    expect(endOfStartTag('<head\n\tlang=x>', 'head')).toBe(14);
    expect(endOfStartTag('<head', 'head')).toBe(-1);
    expect(endOfStartTag('<head lang="en"', 'head')).toBe(-1);
    expect(endOfStartTag('<headx>', 'head')).toBe(-1);
    expect(endOfStartTag('<!DOCTYPE html><p>', '!doctype', true)).toBe(15);
    expect(endOfStartTag('<!doctype', '!doctype', true)).toBe(-1);
    // Unicode before the tag does not shift the index (no lower-casing of the whole page).
    expect(endOfStartTag('\u0130\u0130<head>', 'head')).toBe(8);
  });
});

describe('widget pages an app can make hostile', () => {
  test('a page of 1.9 MiB of "<head " is served with the page API, and the hub answers others meanwhile', async () => {
    // The old pattern, /<head(\s[^>]*)?>/, took 12 s on 234 KiB of this and minutes on 1.9 MiB.
    const page = `${'<head '.repeat(330_000)}`;
    await writeFile(join(pub, 'hostile.html'), page);
    const served = rawGet('/app/com.hearth.greeter/widgets/greeting/hostile.html');
    const ping = await hub.call('GET', '/api/manager/system/ping', { token: null });
    expect(ping.status).toBe(200);
    const res = await served;
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(page.length + TAG.length);
    expect(res.body.startsWith(TAG)).toBe(true);
  });

  test('a page of 1.9 MiB of "<!doctype" is served with the page API first', async () => {
    const page = '<!doctype'.repeat(220_000);
    await writeFile(join(pub, 'doctypes.html'), page);
    const res = await rawGet('/app/com.hearth.greeter/widgets/greeting/doctypes.html');
    expect(res.status).toBe(200);
    expect(res.body.startsWith(TAG)).toBe(true);
  });

  test('a page over 2 MiB is refused with a sentence, not read', async () => {
    await writeFile(join(pub, 'huge.html'), Buffer.alloc(2 * 1024 * 1024 + 1, 'a'));
    const res = await rawGet('/app/com.hearth.greeter/widgets/greeting/huge.html');
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'payload_too_large', statusCode: 413 });
  });

  test('a changed page gets the page API again (the cache is per file version)', async () => {
    const file = join(pub, 'changing.html');
    await writeFile(file, '<head><title>one</title>');
    expect((await rawGet('/app/com.hearth.greeter/widgets/greeting/changing.html')).body).toBe(`<head>${TAG}<title>one</title>`);
    await writeFile(file, '<head><title>two</title>');
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    expect((await rawGet('/app/com.hearth.greeter/widgets/greeting/changing.html')).body).toBe(`<head>${TAG}<title>two</title>`);
  });

  test('If-None-Match holding a long run of spaces is read correctly', async () => {
    const first = await rawGet('/app/com.hearth.greeter/widgets/greeting/changing.html');
    const etag = String(first.headers.etag);
    const res = await rawGet('/app/com.hearth.greeter/widgets/greeting/changing.html', { 'If-None-Match': `"x",${' '.repeat(12_000)}${etag}` });
    expect(res.status).toBe(304);
    const miss = await rawGet('/app/com.hearth.greeter/widgets/greeting/changing.html', { 'If-None-Match': ' '.repeat(12_000) });
    expect(miss.status).toBe(200);
  });
});
