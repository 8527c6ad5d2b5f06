/**
 * Every class, manager and member Homey's SDK declares (the npm package homey-apps-sdk-v3-types),
 * read from its declaration files at test time, is there at run time in hearth's SDK (dist/homey):
 * the module's exports, each class's methods and properties, each manager's. What hearth cannot
 * back throws one sentence naming what it lacks, with the code `not_available`. The type check
 * (contract.ts) compares instance types only; this is what an app meets when it runs. Also the
 * members that existed but did less than Homey's docs say: a device's default
 * onDiscoveryResult, a token or image unregistered, a device trigger card asked for after the
 * plain one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const TYPES = join(import.meta.dirname, '../../node_modules/homey-apps-sdk-v3-types');
const SDK = join(import.meta.dirname, '../../dist/homey');
const require = createRequire(import.meta.url);

interface Declared {
  file: string;
  name: string;
  members: Array<{ name: string; static: boolean; method: boolean }>;
}

/** The classes of a declaration folder with their public members (comments blanked first). */
function declarations(folder: 'lib' | 'manager'): Declared[] {
  const out: Declared[] = [];
  for (const file of readdirSync(join(TYPES, folder)).filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(join(TYPES, folder, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
    let depth = 0;
    let cls: Declared | null = null;
    for (const line of text.split('\n')) {
      const head = depth === 0 ? /^declare class (\w+)/.exec(line) : null;
      if (head) out.push((cls = { file: `${folder}/${file}`, name: head[1] ?? '', members: [] }));
      const member = cls && depth === 1 ? /^\s*(static\s+)?(get\s+)?([A-Za-z$][\w$]*)\??\s*([(:<])/.exec(line) : null;
      const name = member?.[3];
      if (cls && member && name && !cls.members.some((m) => m.name === name && m.static === Boolean(member[1]))) {
        cls.members.push({ name, static: Boolean(member[1]), method: member[4] !== ':' && !member[2] });
      }
      for (const c of line) depth += c === '{' ? 1 : c === '}' ? -1 : 0;
    }
  }
  return out;
}

/** Fields of typedefs the parser takes for members (autocomplete results, stream metadata, speech results). */
const NOT_MEMBERS: Record<string, string[]> = {
  FlowCard: ['name', 'description', 'icon', 'image'],
  Image: ['filename', 'contentType', 'contentLength'],
  Widget: ['name', 'description', 'image'],
  ManagerSpeechInput: ['transcript', 'startWord', 'endWord', 'type', 'time', 'word', 'posTag', 'chunks', 'locations', 'times', 'devices'],
};

/** An app's SDK as the bootstrap makes it, with a channel that records calls and answers as the hub would. */
async function sdkOfAnApp() {
  const calls: Array<[string, unknown]> = [];
  const answers: Record<string, unknown> = {
    'insights.createLog': { id: 'l' },
    'oauth2.callback': { id: 'cb' },
    'flow.argumentValues': [],
    'cloud.localAddress': { address: '192.0.2.1:8720' },
  };
  const ctx = {
    transport: {
      call: async (method: string, args: unknown) => {
        calls.push([method, args]);
        return answers[method] ?? null;
      },
    },
    app: { id: 'com.example.surface', version: '1.0.0', dir: TYPES, userdata: TYPES },
    manifest: {
      id: 'com.example.surface',
      drivers: [{ id: 'lamp', discovery: 'lan' }],
      discovery: { lan: { type: 'mdns-sd' } },
      flow: { triggers: [{ id: 'rang' }, { id: 'tripped' }], conditions: [{ id: 'is_on' }], actions: [{ id: 'ring' }] },
      widgets: { clock: { settings: [{ id: 'zone' }] } },
    },
    permissions: ['homey:manager:api', 'homey:manager:geolocation', 'homey:manager:speech-output'],
    state: {
      language: 'en',
      units: 'metric',
      strings: {},
      english: {},
      settings: {},
      defaults: {},
      location: null,
      timezone: 'UTC',
      homeyVersion: '12.3.0',
      hubId: 'hub',
    },
    env: {},
  };
  const { Homey } = require(join(SDK, 'homey.cjs'));
  const { App, constructing } = require(join(SDK, 'app.cjs'));
  const { Driver, constructingDriver } = require(join(SDK, 'driver.cjs'));
  const { Device, constructingDevice } = require(join(SDK, 'device.cjs'));
  const { PairSession } = require(join(SDK, 'pair-session.cjs'));
  const found = require(join(SDK, 'managers/discovery.cjs'));
  const homey = new Homey(ctx);
  homey.app = constructing(homey, () => new App());
  const driver = constructingDriver({ homey, id: 'lamp', manifest: { id: 'lamp', discovery: 'lan' } }, () => new Driver());
  const state = {
    id: 'd1',
    driverId: 'lamp',
    name: 'Lamp',
    class: 'light',
    data: { id: 'lamp-1' },
    store: {},
    settings: {},
    capabilities: ['onoff'],
    capabilitiesOptions: {},
    values: { onoff: null },
    available: true,
    energy: null,
  };
  const device = constructingDevice({ ctx, homey, driver, state }, () => new Device());
  const seen = { id: 'lamp-1', lastSeen: Date.now(), address: '192.0.2.9' };
  const flow = homey.flow;
  const objects: Record<string, unknown> = {
    Homey: homey,
    SimpleClass: homey,
    App: homey.app,
    Driver: driver,
    Device: device,
    PairSession: new PairSession(ctx, 's'),
    FlowCard: flow.getActionCard('ring'),
    FlowCardAction: flow.getActionCard('ring'),
    FlowCardCondition: flow.getConditionCard('is_on'),
    FlowCardTrigger: flow.getTriggerCard('rang'),
    FlowCardTriggerDevice: flow.getDeviceTriggerCard('tripped'),
    FlowArgument: flow.getActionCard('ring').getArgument('volume'),
    FlowToken: await flow.createToken('doorbell', { type: 'string', title: 'Doorbell' }),
    Image: await homey.images.createImage(),
    InsightsLog: await homey.insights.createLog('rings', { type: 'number', title: 'Rings' }),
    Widget: homey.dashboards.getWidget('clock'),
    CloudOAuth2Callback: await homey.cloud.createOAuth2Callback('https://example.com/authorize'),
    DiscoveryStrategy: homey.discovery.getStrategy('lan'),
    ApiApp: homey.api.getApiApp('com.example.other'),
    DiscoveryResult: new found.DiscoveryResultMAC({ ...seen, type: 'mac', mac: '00:11:22:33:44:55' }),
    DiscoveryResultMAC: new found.DiscoveryResultMAC({ ...seen, type: 'mac', mac: '00:11:22:33:44:55' }),
    DiscoveryResultMDNSSD: new found.DiscoveryResultMDNSSD({
      ...seen,
      type: 'mdns-sd',
      port: 80,
      name: 'lamp',
      fullname: 'lamp._http._tcp.local',
      host: 'lamp.local',
      txt: {},
    }),
    DiscoveryResultSSDP: new found.DiscoveryResultSSDP({ ...seen, type: 'ssdp', port: 80, headers: {} }),
  };
  return { homey, device, flow, objects, calls, found };
}

/** The managers' declaration names and where an app finds each. */
const MANAGERS: Record<string, string> = {
  ManagerApi: 'api',
  ManagerApps: 'apps',
  ManagerArp: 'arp',
  ManagerAudio: 'audio',
  ManagerBLE: 'ble',
  ManagerClock: 'clock',
  ManagerCloud: 'cloud',
  ManagerDashboards: 'dashboards',
  ManagerDiscovery: 'discovery',
  ManagerDrivers: 'drivers',
  ManagerFlow: 'flow',
  ManagerGeolocation: 'geolocation',
  ManagerI18n: 'i18n',
  ManagerImages: 'images',
  ManagerInsights: 'insights',
  ManagerLedring: 'ledring',
  ManagerNFC: 'nfc',
  ManagerNotifications: 'notifications',
  ManagerRF: 'rf',
  ManagerSettings: 'settings',
  ManagerSpeechInput: 'speechInput',
  ManagerSpeechOutput: 'speechOutput',
  ManagerZigBee: 'zigbee',
  ManagerZwave: 'zwave',
};

/** Classes only hardware or services hearth lacks give out (making one throws). */
const LACKING = /^(Api|Ble\w+|CloudWebhook|Ledring\w+|Signal\w*|ZigBeeNode|Zwave\w+|Manager)$/;

/** The members `declared` names that `object` lacks (`name`, `static name`, `name (not a function)`). */
function lacking(object: object, declared: Declared): string[] {
  const out: string[] = [];
  for (const m of declared.members) {
    if (NOT_MEMBERS[declared.name]?.includes(m.name)) continue;
    const on = (m.static ? object.constructor : object) as Record<string, unknown>;
    if (!(m.name in on)) out.push(`${m.static ? 'static ' : ''}${m.name}`);
    else if (m.method && typeof on[m.name] !== 'function') out.push(`${m.name} (not a function)`);
  }
  return out;
}

describe("hearth's SDK against Homey's declarations", () => {
  it("require('homey') has every class and value Homey's module exports", () => {
    const declared = readFileSync(join(TYPES, 'homey.d.ts'), 'utf8');
    const names = [...declared.matchAll(/^export const (\w+)/gm)].map((m) => m[1] ?? '');
    names.push(
      ...(/^export \{([^}]+)\}/m
        .exec(declared)?.[1]
        ?.split(',')
        .map((n) => n.trim()) ?? []),
    );
    expect(names.length).toBeGreaterThan(40);
    const homey = require(SDK);
    expect(names.filter((n) => homey[n] === undefined)).toEqual([]);
    // What only missing hardware gives out exists and says why when made.
    for (const name of names.filter((n) => LACKING.test(n) && n !== 'Manager')) {
      expect(() => new homey[name](), name).toThrow(/is not available: hearth (has no|gives apps no|lets apps)/);
    }
    expect(homey.DiscoveryResultMDNSSD.name).toBe('DiscoveryResultMDNSSD');
  });

  it('every declared member of every class and manager an app can hold is there', async () => {
    const { homey, objects } = await sdkOfAnApp();
    const missing: Record<string, string[]> = {};
    let checked = 0;
    for (const declared of declarations('lib')) {
      const object = objects[declared.name];
      if (!object) {
        expect(declared.name, `${declared.file} has no object in this test`).toMatch(LACKING);
        continue;
      }
      checked += declared.members.length;
      const gone = lacking(object as object, declared);
      if (gone.length > 0) missing[declared.name] = gone;
    }
    for (const declared of declarations('manager')) {
      const where = MANAGERS[declared.name] ?? '';
      expect(where, `${declared.file}: a manager this test does not know`).toBeDefined();
      const manager = homey[where];
      checked += declared.members.length;
      const gone = lacking(manager, declared);
      if (gone.length > 0) missing[declared.name] = gone;
    }
    expect(missing).toEqual({});
    expect(checked).toBeGreaterThan(250);
  });

  it("each method of a manager hearth cannot back fails with the sentence of what it lacks, and has Homey's ID", async () => {
    const { homey } = await sdkOfAnApp();
    const ids: Record<string, string> = {};
    for (const where of ['apps', 'arp', 'ble', 'ledring', 'nfc', 'rf', 'speechInput', 'zigbee', 'zwave']) {
      const manager = homey[where];
      ids[where] = manager.constructor.ID;
      for (const method of Object.getOwnPropertyNames(manager).filter((n) => typeof manager[n] === 'function' && n !== 'log' && n !== 'error')) {
        let failure: { code?: string; message: string } | undefined;
        try {
          await manager[method]();
        } catch (err) {
          failure = err as { code?: string; message: string };
        }
        expect(failure?.code, `${where}.${method}`).toBe('not_available');
        expect(failure?.message).toMatch(new RegExp(`^${manager.constructor.name}\\.${method} is not available: hearth `));
      }
    }
    expect(ids).toEqual({
      apps: 'apps',
      arp: 'arp',
      ble: 'ble',
      ledring: 'ledring',
      nfc: 'nfc',
      rf: 'rf',
      speechInput: 'speech-input',
      zigbee: 'zigbee',
      zwave: 'zwave',
    });
  });
});

describe('members that did less than Homey documents', () => {
  it("a device's own discovery results are its own by default (its data.id), and a throwing onDiscoveryAvailable makes it unavailable", async () => {
    const { device, found, calls } = await sdkOfAnApp();
    const seen = (id: string, address: string) =>
      new found.DiscoveryResultMDNSSD({ id, lastSeen: Date.now(), address, type: 'mdns-sd', port: 80, name: 'l', fullname: 'l', host: 'l', txt: {} });
    const result = seen('lamp-1', '192.0.2.9');
    const other = seen('lamp-2', '192.0.2.8');
    expect(device.onDiscoveryResult(result)).toBe(true);
    expect(device.onDiscoveryResult(other)).toBe(false);
    const heard: string[] = [];
    device.onDiscoveryAvailable = async (r: { id: string }) => {
      heard.push(r.id);
      throw new Error('the lamp refused the connection');
    };
    device.error = () => undefined;
    await found.deliver(device, other);
    await found.deliver(device, result);
    expect(heard).toEqual(['lamp-1']);
    expect(calls.filter(([m]) => m === 'device.setAvailable').map(([, a]) => a)).toEqual([
      { id: 'd1', available: false, message: 'the lamp refused the connection' },
    ]);
    expect(device.getAvailable()).toBe(false);
  });

  it('an unregistered token or image frees its id; a device trigger card is one even after the plain card was asked for', async () => {
    const { homey, flow, found } = await sdkOfAnApp();
    const token = await flow.createToken('porch', { type: 'boolean', title: 'Porch' });
    await token.unregister();
    expect(() => flow.getToken('porch')).toThrow(/created no flow token 'porch'/);
    expect((await flow.createToken('porch', { type: 'boolean', title: 'Porch' })).id).toBe('porch');
    const image = await homey.images.createImage();
    await image.unregister();
    expect(() => homey.images.getImage(image.id)).toThrow(/has no image/);
    const plain = flow.getTriggerCard('rang');
    const { FlowCardTriggerDevice } = require(join(SDK, 'managers/flow.cjs'));
    expect(plain).not.toBeInstanceOf(FlowCardTriggerDevice);
    expect(flow.getDeviceTriggerCard('rang')).toBeInstanceOf(FlowCardTriggerDevice);
    expect(found).toBeDefined();
  });
});
