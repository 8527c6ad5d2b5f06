/**
 * The SDK as an app finds it: `require('homey')` in CommonJS and `import Homey from 'homey'` in
 * an ES module both reach hearth's SDK (dist/homey, through the link the runtime makes at
 * `<apps-dir>/node_modules/homey`), whether or not the app has a package.json of its own, and
 * it is the very module whose App class the hub constructs. Only an ES module app's process
 * starts Node's ES module loader.
 */
import { mkdir, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, removeAll, startRuntime, type TestRuntime, tempDir, writeApp } from './helpers.js';

/** What each app reports about the module it got, as its setting `sdk`. */
const REPORT = `{
  exports: Object.keys(Homey).filter((k) => ['App', 'Driver', 'Device', 'SimpleClass', 'FlowCardTrigger', 'InsightsLog', 'Widget'].includes(k)).sort(),
  isApp: this instanceof Homey.App,
  id: this.id,
  manifestId: this.homey.manifest.id,
  language: this.homey.i18n.getLanguage(),
  esModuleLoader: process.moduleLoadList.some((m) => /esm\\/translators|cjs-module-lexer/.test(m)),
}`;

const CJS = `const Homey = require('homey');
module.exports = class extends Homey.App { async onInit() { this.homey.settings.set('sdk', ${REPORT}); } };`;
const ESM = `import Homey from 'homey';
export default class extends Homey.App { async onInit() { this.homey.settings.set('sdk', ${REPORT}); } }`;

const APPS: Array<[id: string, what: string, app: Parameters<typeof writeApp>[2]]> = [
  ['com.test.cjs', 'CommonJS app.js without a package.json', { code: CJS }],
  ['com.test.cjspkg', 'CommonJS app.js with a package.json', { code: CJS, packageJson: { name: 'cjspkg', private: true, type: 'commonjs' } }],
  ['com.test.esm', 'ES module app.mjs ("esm": true) without a package.json', { code: ESM, manifest: { esm: true } }],
  [
    'com.test.esmpkg',
    'ES module app.mjs with a package.json',
    { code: ESM, manifest: { esm: true }, packageJson: { name: 'esmpkg', private: true, type: 'module' } },
  ],
  [
    'com.test.esmjs',
    'ES module app.js in a "type": "module" package',
    { code: ESM, manifest: { esm: true, main: 'app.js' }, packageJson: { name: 'esmjs', private: true, type: 'module' } },
  ],
];

describe('the homey module in an app', () => {
  let appsDir: string;
  let dataDir: string;
  let t: TestRuntime;

  beforeAll(async () => {
    assertBuilt();
    appsDir = await tempDir('hearth-apps-');
    dataDir = await tempDir('hearth-data-');
    for (const [id, , app] of APPS) await writeApp(appsDir, id, app);
    // A folder where the link goes (left by hand, or by an old hub): replaced by the link.
    await mkdir(join(appsDir, 'node_modules', 'homey'), { recursive: true });
    await writeFile(join(appsDir, 'node_modules', 'homey', 'index.js'), 'module.exports = { App: class NotHearths {} };');
    t = await startRuntime({ appsDir, dataDir });
  });
  afterAll(async () => {
    await t?.close();
    await removeAll(appsDir, dataDir);
  });

  it('is the link to the built SDK in the apps folder', async () => {
    expect(await readlink(join(appsDir, 'node_modules', 'homey'))).toBe(join(ROOT, 'dist', 'homey'));
  });

  it.each(APPS)('%s (%s) gets the SDK and runs as a Homey.App', async (id) => {
    await t.until(id, (a) => a.ready || a.crashed, 'started');
    expect(t.rt.get(id)).toMatchObject({ state: 'running', crashed: false, crashedMessage: null });
    expect(await t.setting(id, 'sdk')).toEqual({
      exports: ['App', 'Device', 'Driver', 'FlowCardTrigger', 'InsightsLog', 'SimpleClass', 'Widget'],
      isApp: true,
      id,
      manifestId: id,
      language: 'en',
      // A CommonJS app's process never starts the ES module loader (about 0.5 MiB per app).
      esModuleLoader: id.includes('esm'),
    });
  });
});
