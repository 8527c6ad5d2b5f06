/**
 * Apps → Get apps in Chromium, for an app that must be built: a TypeScript driver app with an npm
 * package, fetched from its repository, built (its packages from the registry, compiled with its
 * own TypeScript, the real compiler), shown building, then built, installed and a device of it
 * paired. GitHub and the npm registry are stand-ins on 127.0.0.1.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type GitHub, startGitHub } from '../helpers/github.js';
import { OWNER, ROOT, tempDir } from '../helpers/hub.js';
import { type Registry, startRegistry } from '../helpers/npm-registry.js';
import { poll } from '../helpers/poll.js';
import { writeHomeyApp } from '../homey/apps.js';
import { waitAppRunning } from '../managers/dashboards/helpers.js';
import { screenshots, shown, signedIn, startWebHub, type WebHub } from './browser.js';

const APP = 'com.example.garden';
let web: WebHub;
let github: GitHub;
let registry: Registry;

beforeAll(async () => {
  const work = await tempDir('hearth-web-build-');
  github = await startGitHub(join(work, 'github'));
  const colours = await writeHomeyApp(join(work, 'packages'), 'garden-colours', {
    json: {},
    files: { 'package.json': { name: 'garden-colours', version: '2.0.1', main: 'index.js' }, 'index.js': "module.exports = { shade: 'moss' };\n" },
  });
  const typescript = join(ROOT, 'node_modules', 'typescript');
  const { version } = JSON.parse(await readFile(join(typescript, 'package.json'), 'utf8')) as { version: string };
  registry = await startRegistry(join(work, 'registry'), [
    { name: 'garden-colours', version: '2.0.1', dir: colours },
    { name: 'typescript', version, dir: typescript },
  ]);
  // An app as `homey app create` makes a TypeScript one: its sources, tsconfig.json, the compiler
  // among its development packages; nothing compiled.
  const dir = await writeHomeyApp(join(work, 'src'), APP, {
    json: {
      name: { en: 'Garden' },
      drivers: [
        {
          id: 'lamp',
          name: { en: 'Garden lamp' },
          class: 'light',
          capabilities: ['onoff'],
          platforms: ['local'],
          connectivity: ['lan'],
          pair: [
            { id: 'list_devices', template: 'list_devices', navigation: { next: 'add_devices' } },
            { id: 'add_devices', template: 'add_devices' },
          ],
        },
      ],
    },
    files: {
      'package.json': { name: APP, dependencies: { 'garden-colours': '^2.0.0' }, devDependencies: { typescript: `^${version}` } },
      'tsconfig.json': { compilerOptions: { target: 'es2019', module: 'commonjs', esModuleInterop: true, skipLibCheck: true, outDir: '.homeybuild/' } },
      'app.ts': [
        "import Homey from 'homey';",
        "import { shade } from 'garden-colours';",
        'class GardenApp extends Homey.App {',
        '  async onInit(): Promise<void> {',
        "    this.log('the garden is', shade);",
        '  }',
        '}',
        'module.exports = GardenApp;',
        '',
      ].join('\n'),
      'drivers/lamp/driver.ts': [
        "import Homey from 'homey';",
        'class LampDriver extends Homey.Driver {',
        '  async onPairListDevices(): Promise<Array<{ name: string; data: { id: string } }>> {',
        "    return [{ name: 'Lamp by the pond', data: { id: 'pond' } }];",
        '  }',
        '}',
        'module.exports = LampDriver;',
        '',
      ].join('\n'),
      'drivers/lamp/device.ts': ["import Homey from 'homey';", 'class Lamp extends Homey.Device {}', 'module.exports = Lamp;', ''].join('\n'),
    },
  });
  await github.publish('family/garden', dir);
  web = await startWebHub([], { args: ['--repo-host', github.url, '--npm-registry', registry.url] });
}, 90_000);
afterAll(async () => {
  await web?.close();
  github?.close();
  registry?.close();
});

describe('getting an app that must be built', { timeout: 180_000 }, () => {
  test('fetches a TypeScript app, shows its build, installs it once built, and pairs a device of it', async () => {
    const { hub, browser } = web;
    const page = await signedIn(browser.context, hub.url, OWNER, '#/apps');
    await page.getByTestId('get-from-file').locator('summary').click();
    await page.getByTestId('repo').fill('family/garden');
    await page.getByTestId('repo-fetch').click();
    const review = page.getByTestId('upload-review');
    await review.waitFor();
    expect(await review.getByTestId('upload-name').textContent()).toBe('Garden');
    // Not installable until built; the build says where it is.
    const build = review.getByTestId('upload-build');
    await build.waitFor();
    await expect.poll(() => build.getAttribute('data-state'), { timeout: 150_000 }).not.toBe('building');
    expect(await build.getAttribute('data-state')).toBe('built');
    expect(await build.getByRole('status').textContent()).toBe('Built: ready to install.');
    expect(registry.asked).toContain('/garden-colours');
    await screenshots(page, 'apps-build');
    await review.getByTestId('upload-install').click();
    await page.getByTestId('upload-installed').waitFor();
    await waitAppRunning(hub, APP);
    // Its compiled module ran with its package: the app said so in its log.
    const log = await poll(
      () => hub.call<{ stdout: { text: string } }>('GET', `/api/manager/apps/app/${APP}/log`),
      (r) => r.status === 200 && r.body.stdout.text.includes('the garden is moss'),
      "the app's log line",
    );
    expect(log.status).toBe(200);

    await page.goto(`${hub.url}/#/devices`);
    await page.getByTestId('add-device').click();
    await page.getByTestId('pair-driver').selectOption({ label: `Garden lamp (${APP})` });
    await page.getByTestId('pair-start').click();
    await shown(page, 'pair-device-Lamp by the pond');
    await page.getByTestId('pair-add').click();
    await shown(page, 'pair-done');
    expect(await page.getByTestId('pair-done').textContent()).toBe('Added Lamp by the pond.');
    await page.close();
  });
});
