/**
 * Apps → From a file, in Chromium: an archive of an app folder chosen, shown as the hub read it
 * (name, permissions, the devices it adds) before Install, then installed and running.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OWNER, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { writeHomeyApp } from '../homey/apps.js';
import { screenshots, signedIn, startWebHub, type WebHub } from './browser.js';

let web: WebHub;
let archive: string;
/** GitHub's stand-in on 127.0.0.1: any ref is this commit, whose tarball is the porch app's. */
let github: Server;
const COMMIT = 'abcdef1'.padEnd(40, '2');
beforeAll(async () => {
  github = createServer((req, res) => {
    if (/^\/repos\/family\/porch\/commits\//.test(req.url ?? '')) res.writeHead(200, { 'content-type': 'text/plain' }).end(COMMIT);
    else if (req.url === `/family/porch/tar.gz/${COMMIT}`) res.writeHead(200).end(readFileSync(archive));
    else if (req.url === '/repos/family/porch/releases/latest')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tag_name: 'v3', name: 'Warmer light' }));
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => github.listen(0, '127.0.0.1', r));
  web = await startWebHub([], { args: ['--repo-host', `http://127.0.0.1:${(github.address() as AddressInfo).port}`] });
  const work = await tempDir('hearth-web-upload-');
  const dir = await writeHomeyApp(work, 'com.example.porch', {
    json: {
      name: { en: 'Porch light' },
      permissions: ['homey:manager:speech-output'],
      drivers: [{ id: 'porch', name: { en: 'Porch light' }, class: 'light', capabilities: ['onoff'], platforms: ['local'], connectivity: ['lan'] }],
    },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      'drivers/porch/driver.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.Driver {};\n",
      'drivers/porch/device.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.Device {};\n",
    },
  });
  archive = join(work, 'porch.tar.gz');
  execFileSync('tar', ['-czf', archive, '-C', dir, '.']);
}, 90_000);
afterAll(async () => {
  await web?.close();
  github?.close();
});

describe('getting an app from a file', { timeout: 90_000 }, () => {
  test('shows what the uploaded app is and asks for, then installs it', async () => {
    const { hub, browser } = web;
    const page = await signedIn(browser.context, hub.url, OWNER, '#/apps');
    await page.getByTestId('get-from-file').locator('summary').click();
    await page.getByTestId('upload-app-file').setInputFiles(archive);
    await page.getByTestId('upload-app').click();
    const review = page.getByTestId('upload-review');
    await review.waitFor();
    expect(await review.getByTestId('upload-name').textContent()).toBe('Porch light');
    expect(await review.getByTestId('upload-drivers').textContent()).toBe('Adds devices: Porch light');
    expect(await review.locator('[data-permission="homey:manager:speech-output"]').count()).toBe(1);
    await screenshots(page, 'apps-upload');
    await page.getByTestId('upload-install').click();
    await page.getByTestId('upload-installed').waitFor();
    const app = await poll(
      () => hub.call<{ state: string; origin: string }>('GET', '/api/manager/apps/app/com.example.porch'),
      (r) => r.status === 200 && r.body.state === 'running',
      'the uploaded app running',
    );
    expect(app.body.origin).toBe('local');
    await page.close();
  });

  test('fetches an app from its repository, says the commit it installs, and installs it', async () => {
    const { hub, browser } = web;
    expect((await hub.call('DELETE', '/api/manager/apps/app/com.example.porch')).status).toBe(204);
    const page = await signedIn(browser.context, hub.url, OWNER, '#/apps');
    await page.getByTestId('get-from-file').locator('summary').click();
    await page.getByTestId('repo').fill('family/porch@v2');
    await page.getByTestId('repo-fetch').click();
    const review = page.getByTestId('upload-review');
    await review.waitFor();
    expect(await review.getByTestId('upload-source').textContent()).toBe('From family/porch v2, commit abcdef1: this commit is what gets installed.');
    await page.getByTestId('upload-install').click();
    await page.getByTestId('upload-installed').waitFor();
    await poll(
      () => hub.call<{ state: string }>('GET', '/api/manager/apps/app/com.example.porch'),
      (r) => r.status === 200 && r.body.state === 'running',
      'the fetched app running',
    );
    // Its card says where it came from, at which commit, and that a newer release is out.
    await expect.poll(() => page.getByTestId('app-source').textContent()).toBe('from family/porch v2 at abcdef1');
    const update = page.getByTestId('source-update');
    await expect.poll(() => update.textContent()).toContain('Warmer light (v3) is out.');
    await screenshots(page, 'apps-source-update');
    // Upgraded when asked, after saying what it asks for.
    page.once('dialog', (d) => {
      expect(d.message()).toContain('Upgrade Porch light to 1.0.0 (v3, commit abcdef1)? It asks for: speak through the hub');
      void d.accept();
    });
    await update.getByTestId('source-upgrade').click();
    await poll(
      () => hub.call<{ source: { ref: string } | null }>('GET', '/api/manager/apps/app/com.example.porch'),
      (r) => r.body.source?.ref === 'v3',
      'the app upgraded to v3',
    );
    await page.close();
  });
});
