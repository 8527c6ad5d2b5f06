#!/usr/bin/env node
// Makes test/fixtures/zigbee2mqtt/models.json: the "exposes" of real Zigbee device models as
// zigbee2mqtt publishes them in bridge/devices, from zigbee-herdsman-converters (MIT) at a pinned
// version, without hardware. Run once when the models change (it installs the package into a
// temporary folder: it is not a dependency of hearth):
//   node scripts/zigbee-fixtures.mjs
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const VERSION = '26.112.0';
/** A bulb with colour, two white bulbs' ranges, plugs with metering, sensors, a valve, a cover, remotes, a lock, a two-gang switch. */
const MODELS = [
  '9290012573A',
  'LED1545G12',
  'TS011F_plug_1',
  'ZNCZ02LM',
  'MCCGQ11LM',
  'RTCGQ11LM',
  'WSDCGQ11LM',
  'SJCGQ11LM',
  '014G2461',
  'TS0601_thermostat',
  'E1757',
  'E1743',
  'E1524/E1810',
  'YRD426NRSC',
  'TS0012',
];

const dir = await mkdtemp(join(tmpdir(), 'hearth-zhc-'));
try {
  execFileSync('npm', ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', `zigbee-herdsman-converters@${VERSION}`], {
    cwd: dir,
    stdio: 'inherit',
  });
  const require = createRequire(join(dir, 'index.js'));
  const zhc = require('zigbee-herdsman-converters');
  const devicesDir = join(dir, 'node_modules/zigbee-herdsman-converters/dist/devices');
  // A device with nothing known of it: enough for the definitions whose exposes depend on the device.
  const device = {
    ieeeAddr: '0x0000000000000001',
    type: 'Router',
    endpoints: [],
    getEndpoint: () => undefined,
    modelID: 'x',
    manufacturerName: 'x',
    meta: {},
    customClusters: {},
  };
  const found = new Map();
  for (const file of (await readdir(devicesDir)).filter((f) => f.endsWith('.js') && f !== 'index.js')) {
    let defs;
    try {
      defs = require(join(devicesDir, file)).definitions;
    } catch {
      continue;
    }
    for (const d of Array.isArray(defs) ? defs : []) if (MODELS.includes(d.model) && !found.has(d.model)) found.set(d.model, d);
  }
  const models = {};
  for (const model of MODELS) {
    const d = found.get(model);
    if (!d) throw new Error(`${model}: not in zigbee-herdsman-converters ${VERSION}`);
    const def = zhc.prepareDefinition(d);
    const exposes = typeof def.exposes === 'function' ? def.exposes(device, {}) : def.exposes;
    models[model] = {
      model: def.model,
      vendor: def.vendor,
      description: def.description,
      zigbeeModel: (def.zigbeeModel ?? [])[0] ?? def.model,
      // As zigbee2mqtt serialises them (its own Home Assistant hints left out).
      exposes: JSON.parse(JSON.stringify(exposes, (k, v) => (k === 'homeassistant' ? undefined : v))),
    };
  }
  const out = { generator: 'scripts/zigbee-fixtures.mjs', source: `zigbee-herdsman-converters ${VERSION} (MIT)`, models };
  await writeFile(join(import.meta.dirname, '../test/fixtures/zigbee2mqtt/models.json'), `${JSON.stringify(out, null, 1)}\n`);
  console.log(`wrote ${MODELS.length} models`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
