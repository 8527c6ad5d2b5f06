/**
 * app.json as Homey writes it: what hearth reads of it, its defaults, what it keeps and ignores,
 * what makes an app incompatible or partly unrun, and the sentences for what it refuses.
 */

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCards } from '../../src/apps/manifest/flow-cards.js';
import { type AppManifest, loadManifest, mainModule, manifestFromText, parseManifest } from '../../src/apps/manifest/manifest.js';
import { removeAll, tempDir } from './helpers.js';

const base = { id: 'com.example.app', version: '1.2.3', sdk: 3, name: { en: 'Example' } };

function parsed(raw: Record<string, unknown>): AppManifest {
  const r = parseManifest(raw, 'com.example.app');
  if (!r.ok) throw new Error(`refused: ${r.message}`);
  return r.manifest;
}

describe('manifest', () => {
  it('fills defaults: the main module found by its file, no permissions, settings, api or widgets, nothing unrun', () => {
    expect(parseManifest(base, 'com.example.app')).toEqual({
      ok: true,
      manifest: {
        ...base,
        main: null,
        permissions: [],
        settings: [],
        api: {},
        widgets: {},
        drivers: [],
        capabilities: {},
        discovery: {},
        flow: { triggers: [], conditions: [], actions: [] },
        incompatible: null,
        unrun: [],
        raw: base,
        warnings: [],
      },
    });
  });

  it('finds the main module by its file, as Homey does (app.js, app.mjs, app.cjs; app.mjs first with "esm": true), or none; or takes the one app.json names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-main-'));
    try {
      const m = parsed(base);
      expect(m.main).toBeNull();
      expect(mainModule(m, dir)).toBeNull();
      await writeFile(join(dir, 'app.cjs'), '');
      expect(mainModule(m, dir)).toBe('app.cjs');
      await writeFile(join(dir, 'app.mjs'), '');
      expect(mainModule(m, dir)).toBe('app.mjs');
      await writeFile(join(dir, 'app.js'), '');
      expect(mainModule(m, dir)).toBe('app.js');
      expect(mainModule(parsed({ ...base, esm: true }), dir)).toBe('app.mjs');
      expect(mainModule(parsed({ ...base, esm: true, main: 'lib/app.js' }), dir)).toBe('lib/app.js');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the Homey fields it does not use, unchecked, in raw (this.homey.manifest)', () => {
    const homey = {
      ...base,
      compatibility: '>=12.3.0',
      category: ['tools'],
      brandColor: '#c2410c',
      author: { name: 'Someone', email: 'someone@example.com' },
      images: { small: '/assets/images/small.png', large: '/assets/images/large.png' },
      tags: { en: ['clock'] },
      source: 'https://example.com/app',
      support: 'mailto:someone@example.com',
      homeyCommunityTopicId: 1234,
      platforms: ['local'],
      runtime: 'nodejs',
      somethingHomeyAddsLater: { nested: [1, 2, 3] },
    };
    const m = parsed(homey);
    expect(m.raw).toEqual(homey);
    // The web app shows these: parsed, Homey's leading slash dropped.
    expect(m.brandColor).toBe('#c2410c');
    expect(m.images).toEqual({ small: 'assets/images/small.png', large: 'assets/images/large.png' });
    expect(m).not.toHaveProperty('somethingHomeyAddsLater');
    expect(m.incompatible).toBeNull();
    expect(m.unrun).toEqual([]);
  });

  it('warns of a top-level key Homey does not know, naming the nearest one it does (a typo would be ignored in silence)', () => {
    const m = parsed({ ...base, permisions: ['homey:manager:api'], somethingHomeyAddsLater: {} });
    expect(m.warnings).toEqual([
      "'permisions' is not a key Homey knows in app.json (did you mean 'permissions'?); it is kept in the manifest but nothing reads it",
      "'somethingHomeyAddsLater' is not a key Homey knows in app.json; it is kept in the manifest but nothing reads it",
    ]);
    expect(m.permissions).toEqual([]);
    expect(parsed({ ...base, _comment: 'generated', $schema: 'x', energy: {}, brandName: 'B' }).warnings).toEqual([]);
    // hearth's own extension is read (the Matter app asks for more memory with it), no typo.
    expect(parsed({ ...base, hearth: { memoryMb: 256 } }).warnings).toEqual([]);
  });

  it('says where app.json stops being JSON by line and column', () => {
    const text = '{\n  "id": "com.example.app",\n  "version": "1.2.3"\n  "sdk": 3\n}\n';
    expect(manifestFromText(text)).toEqual({ ok: false, message: "app.json is not valid JSON: line 4, column 3: Expected ',' or '}' after property value" });
    expect(manifestFromText('{"id": "com.example.app", "sdk": tru}')).toEqual({
      ok: false,
      message: "app.json is not valid JSON: line 1, column 34: Unexpected token '}'",
    });
    expect(manifestFromText('{"id": [1,\n2,]}')).toEqual({ ok: false, message: "app.json is not valid JSON: line 2, column 3: Unexpected token ']'" });
  });

  it('leaves out pictures that are not picture files inside the app folder, and accepts the app anyway', () => {
    const m = parsed({ ...base, icon: '/../../etc/passwd.svg', images: { small: '/assets/x.exe', large: '/assets/ok.webp' }, brandColor: 'red' });
    expect(m.icon).toBeUndefined();
    expect(m.images).toEqual({ small: undefined, large: 'assets/ok.webp', xlarge: undefined });
    expect(m.brandColor).toBeUndefined();
  });

  it("accepts settings of every type, with Homey's title and value for label and default", () => {
    const m = parsed({
      ...base,
      settings: [
        { id: 't', type: 'text', label: { en: 'T' }, default: 'x' },
        { id: 'ta', type: 'textarea', title: 'TA', value: 'long' },
        { id: 'n', type: 'number', label: 'N', min: 0, max: 10, value: 5 },
        { id: 'c', type: 'checkbox', title: { en: 'C' }, value: true },
        {
          id: 'd',
          type: 'dropdown',
          title: { en: 'D' },
          value: 'b',
          values: [
            { id: 'a', label: { en: 'A' } },
            { id: 'b', title: { en: 'B' } },
          ],
        },
        { id: 'a', type: 'autocomplete', label: { en: 'A' } },
      ],
      widgets: {
        clock: {
          name: { en: 'Clock', nl: 'Klok' },
          height: 100,
          transparent: true,
          settings: [{ id: 'zone', type: 'text', title: { en: 'Zone' }, value: 'UTC' }],
          api: { getTime: { method: 'get', path: '/' } },
        },
      },
    });
    expect(m.settings.map((s) => [s.id, s.type, s.label, s.default])).toEqual([
      ['t', 'text', { en: 'T' }, 'x'],
      ['ta', 'textarea', 'TA', 'long'],
      ['n', 'number', 'N', 5],
      ['c', 'checkbox', { en: 'C' }, true],
      ['d', 'dropdown', { en: 'D' }, 'b'],
      ['a', 'autocomplete', { en: 'A' }, undefined],
    ]);
    const dropdown = m.settings[4];
    expect(dropdown?.type === 'dropdown' && dropdown.values.map((v) => v.label)).toEqual([{ en: 'A' }, { en: 'B' }]);
    expect(m.widgets.clock?.height).toBe(100);
    expect(m.widgets.clock?.settings).toEqual([{ id: 'zone', type: 'text', label: { en: 'Zone' }, default: 'UTC' }]);
    expect(m.widgets.clock?.api.getTime).toEqual({ methods: ['GET'], path: '/', public: false });
  });

  it("keeps Homey's permissions, granted or not, and hearth's own, once each", () => {
    const m = parsed({
      ...base,
      permissions: [
        'homey:manager:speech-output',
        'homey:manager:geolocation',
        'homey:manager:api',
        'homey:manager:ledring',
        'homey:wireless:zigbee',
        'homey:app:com.athom.example',
        'hearth:system:sensors',
        'homey:manager:speech-output',
      ],
    });
    expect(m.permissions).toEqual([
      'homey:manager:speech-output',
      'homey:manager:geolocation',
      'homey:manager:api',
      'homey:manager:ledring',
      'homey:wireless:zigbee',
      'homey:app:com.athom.example',
      'hearth:system:sensors',
    ]);
  });

  it("takes a driver's icon given as a list (its first path), and an icon of any other kind as none, never refusing the app", () => {
    const drivers = [
      { id: 'listed', icon: ['/drivers/listed/assets/icon.svg', '/drivers/listed/assets/other.svg'] },
      { id: 'odd', icon: { path: 'x' } },
      { id: 'plain', icon: '/drivers/plain/assets/icon.svg' },
    ];
    expect(parsed({ ...base, drivers }).drivers.map((d) => [d.id, d.icon])).toEqual([
      ['listed', '/drivers/listed/assets/icon.svg'],
      ['odd', undefined],
      ['plain', '/drivers/plain/assets/icon.svg'],
    ]);
  });

  it('lists an app whose every driver needs a radio as incompatible, saying why; one LAN driver is enough to run', () => {
    const socket = { id: 'socket', name: { en: 'Socket' }, class: 'socket', capabilities: ['onoff'], zigbee: { manufacturerName: ['x'] } };
    const bulb = { id: 'bulb', connectivity: 'zwave' }; // one kind may be a string
    expect(parsed({ ...base, drivers: [socket, bulb] }).incompatible).toBe('every driver it declares needs a radio (zigbee, zwave), and hearth has none');
    const lan = parsed({ ...base, drivers: [socket, { id: 'lan', connectivity: ['lan'] }] });
    expect(lan.incompatible).toBeNull();
    expect(lan.unrun).toEqual(['driver socket: it needs a zigbee radio, which hearth has not; its devices cannot be added']);
    // Ids as real apps write them: hyphens and capitals in an app's own, a sub-capability after a dot.
    const ids = ['reader_touch-pass_enabled', 'measure_temperature.inside', 'ip_Address'];
    expect(parsed({ ...base, drivers: [{ id: 'reader', capabilities: ids }] }).drivers[0]?.capabilities).toEqual(ids);
    const bad = parseManifest({ ...base, drivers: [{ id: 'reader', capabilities: ['no spaces'] }] });
    expect(bad.ok ? null : bad.message).toContain('drivers.0.capabilities.0: must be a capability id');
    expect(lan.drivers.map((d) => [d.id, d.class, d.capabilities])).toEqual([
      ['socket', 'socket', ['onoff']],
      ['lan', 'other', []],
    ]);
    expect(parsed({ ...base, runtime: 'python' }).incompatible).toBe('it needs the python runtime; hearth runs Node.js apps');
    expect(parsed({ ...base, platforms: ['cloud'] }).incompatible).toBe('it runs on cloud only, not on a local hub');
  });

  it('runs an app with flow cards, listing the cards, a card it cannot read and the features hearth does not run', () => {
    const m = parsed({
      ...base,
      flow: {
        triggers: [{ id: 'rang', title: { en: 'The bell rang' } }],
        conditions: [],
        actions: [
          { id: 'ring', title: { en: 'Ring' } },
          { id: 'mute', title: { en: 'Mute' } },
          { id: 'shout', title: { en: 'Shout' }, args: [{ type: 'text' }] },
        ],
      },
      capabilities: { volume_custom: { type: 'number', title: { en: 'Volume' }, setable: true, min: 0, max: 11 } },
      signals: { '433': {} },
    });
    expect(m.incompatible).toBeNull();
    expect(m.flow).toEqual({ triggers: ['rang'], conditions: [], actions: ['ring', 'mute', 'shout'] });
    expect(m.unrun).toEqual([expect.stringMatching(/^flow\.actions\[2\]: args\.0\.name: .*; this card is left out$/), 'RF signals (hearth has no radios)']);
    expect(m.capabilities.volume_custom).toMatchObject({ type: 'number', title: 'Volume', setable: true, getable: true, min: 0, max: 11 });
  });

  it.each([
    [{ id: 'example' }, 'app.json id: must be a reverse-domain id such as com.example.myapp'],
    [{ version: '1.0' }, 'app.json version: must be a semantic version such as 1.0.0'],
    [{ sdk: 2 }, 'app.json sdk: must be 3 (the SDK version this hub runs)'],
    [{ name: { nl: 'Voorbeeld' } }, 'app.json name.en'],
    [{ main: '../escape.js' }, 'app.json main: must be a path inside the app folder'],
    [{ permissions: ['hearth:everything'] }, "'hearth:everything' is not a permission; they are Homey names such as homey:manager:speech-output"],
    [{ permissions: ['hearth:manager:insights'] }, "unknown permission 'hearth:manager:insights'; hearth's own are: hearth:system:sensors"],
    [{ permissions: ['hearth:manager:speech-output'] }, "unknown permission 'hearth:manager:speech-output'; hearth's own are: hearth:system:sensors"],
    [{ permissions: ['speech-output'] }, "'speech-output' is not a permission; they are Homey names such as homey:manager:speech-output"],
    [{ permissions: ['other:manager:x'] }, "'other:manager:x' is not a permission"],
    [
      {
        settings: [
          { id: 'x', type: 'text', label: 'X' },
          { id: 'x', type: 'text', label: 'Y' },
        ],
      },
      "setting id 'x' is used twice",
    ],
    [{ runtime: 'python' }, null],
    [{ widgets: { 'bad id': { name: { en: 'W' } } } }, "widget id 'bad id' must be 1-64 letters"],
    [{ drivers: [{ name: 'no id' }] }, 'app.json drivers.0.id'],
  ])('refuses %j with a sentence naming the field', (patch, message) => {
    const r = parseManifest({ ...base, ...patch });
    if (message === null) {
      // Refused to run, not to be listed: the record says why.
      expect(r.ok && r.manifest.incompatible).toBe('it needs the python runtime; hearth runs Node.js apps');
      return;
    }
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(message);
  });

  it("lets pass what Homey's tools let pass, with a warning naming the field", () => {
    const m = parsed({
      ...base,
      runtime: 'node',
      settings: [
        { id: 'd', type: 'dropdown', label: 'D', default: 'z', values: [{ id: 'a', label: 'A' }] },
        {
          id: 'e',
          type: 'dropdown',
          title: 'E',
          value: '',
          values: [
            { id: '', title: 'None' },
            { id: 'b', title: 'B' },
          ],
        },
      ],
      widgets: { w: { name: { en: 'W' }, settings: [{ id: 'mode', type: 'dropdown', title: 'Mode', value: 'dusk', values: [{ id: 'day', title: 'Day' }] }] } },
      images: { small: '/assets/images/small.gif', large: '/assets/images/large.png' },
      brandColor: 'blue',
    });
    expect(m.incompatible).toBeNull();
    expect(m.warnings).toEqual([
      "settings[0] (d): the default 'z' is not one of its values, so the setting starts unset",
      'settings[1] (e): an option has an empty id',
      "widgets.w.settings[0] (mode): the default 'dusk' is not one of its values, so the setting starts unset",
      'images.small: not a png, jpg, svg or webp file inside the app folder; left out',
      'brandColor: not a colour such as #00aaff; left out',
    ]);
    const [d, e] = m.settings;
    expect(d?.default).toBeNull();
    expect(e?.default).toBe('');
    expect(m.images?.large).toBe('assets/images/large.png');
  });

  it('leaves out a setting it cannot read (a kind it does not know, no label), with a warning naming it', () => {
    const m = parsed({
      ...base,
      settings: [
        { id: 'user', type: 'text', label: 'User' },
        { id: 'secret', type: 'password', label: 'Password' },
        { id: 'x', type: 'text' },
      ],
      widgets: { w: { name: { en: 'W' }, settings: [{ id: 'tint', type: 'color', title: 'Tint' }] } },
    });
    expect(m.settings.map((d) => d.id)).toEqual(['user']);
    expect(m.widgets.w?.settings).toEqual([]);
    expect(m.warnings).toEqual([
      'settings[1] (secret): type: type must be one of text, textarea, number, checkbox, dropdown, autocomplete; left out',
      'settings[2] (x): label: Invalid input; left out',
      'widgets.w.settings[0] (tint): type: type must be one of text, textarea, number, checkbox, dropdown, autocomplete; left out',
    ]);
    // this.homey.manifest is app.json as written.
    expect((m.raw.settings as unknown[]).length).toBe(3);
  });

  it('reads flow cards as real apps write them: a code argument, a device filter as an object, a type hearth does not know', () => {
    const { cards, unreadable } = readCards(
      'com.example.cards',
      {
        flow: {
          actions: [
            { id: 'run_code', title: { en: 'Run code' }, args: [{ name: 'code', type: 'code', language: 'homeyscript', title: { en: 'Code' } }] },
            {
              id: 'record',
              title: { en: 'Record' },
              args: [
                { name: 'device', type: 'device', filter: { driver_id: 'camera', class: ['camera', 'doorbell'] } },
                { name: 'clip', type: 'hologram' },
              ],
            },
          ],
        },
      },
      'en',
    );
    expect(unreadable).toEqual([]);
    expect(cards.map((c) => [c.id, c.args.map((a) => `${a.name}:${a.type}`)])).toEqual([
      ['homey:app:com.example.cards:run_code', ['code:code']],
      ['homey:app:com.example.cards:record', ['device:device', 'clip:hologram']],
    ]);
    expect(cards[1]?.deviceArg?.filter).toBe('driver_id=camera&class=camera|doorbell');
  });

  it('reads an app.json of 1 MiB (an app with hundreds of flow cards), refuses one over 4 MiB', () => {
    const card = (i: number) => ({ id: `card_${i}`, title: { en: `Card number ${i} with a long title` }, hint: { en: 'x'.repeat(1000) } });
    const big = JSON.stringify({ ...base, flow: { actions: Array.from({ length: 1000 }, (_, i) => card(i)) } });
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const r = manifestFromText(big);
    expect(r.ok && r.manifest.flow.actions.length).toBe(1000);
    const huge = manifestFromText(JSON.stringify({ ...base, padding: 'x'.repeat(4 * 1024 * 1024) }));
    expect(huge).toEqual({ ok: false, message: 'app.json is larger than 4 MiB' });
  });

  it('loads from a folder and reports missing and malformed files', async () => {
    const dir = await tempDir('hearth-manifest-');
    try {
      const app = join(dir, 'com.example.app');
      await mkdir(app);
      expect(await loadManifest(app)).toEqual({ ok: false, message: 'app.json is missing' });
      await writeFile(join(app, 'app.json'), '{ nope');
      const bad = await loadManifest(app);
      expect(bad.ok === false && bad.message.startsWith('app.json is not valid JSON')).toBe(true);
      await writeFile(join(app, 'app.json'), JSON.stringify(base));
      expect((await loadManifest(app)).ok).toBe(true);
    } finally {
      await removeAll(dir);
    }
  });

  it('validates the example apps shipped in apps/', async () => {
    for (const id of ['com.hearth.sysmon', 'com.hearth.greeter', 'com.hearth.virtual']) {
      const r = await loadManifest(join(import.meta.dirname, '../../examples', id));
      expect(r.ok ? 'ok' : r.message).toBe('ok');
      expect(r.ok && [r.manifest.incompatible, r.manifest.unrun]).toEqual([null, []]);
    }
  });
});
