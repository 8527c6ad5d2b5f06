/**
 * Homey apps written from Homey's public SDK documentation, run in a real hub: settings
 * (synchronous, the same values the Web API shows, manifest defaults), i18n and the clock,
 * env.json, insights, speech into the WAV folder sink, audio samples, geolocation (with and
 * without the permission) and notifications. Each app answers through its own Web API
 * (api.js), so every check asks the app what it sees.
 */
import { readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEvents } from '../helpers/events.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { pause, poll } from '../helpers/poll.js';
import { silentWav, writeHomeyApp } from './apps.js';

let hub: RunningHub;
let audioOut: string;

/** Calls an app's Web API (as Homey's Web API client does) and returns the JSON. */
async function appApi<T>(appId: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await hub.call<T>(method, `/api/app/${appId}${path}`, body === undefined ? {} : { body });
  if (res.status !== 200) throw new Error(`${method} ${path} of ${appId}: ${res.status} ${res.text}`);
  return res.body;
}

const running = (id: string) =>
  poll(
    () => hub.call<{ state: string; crashedMessage: string | null }>('GET', `/api/manager/apps/app/${id}`),
    (r) => r.body.state === 'running',
    `${id} running`,
  );

beforeAll(async () => {
  const appsDir = await tempDir('hearth-homey-apps-');
  audioOut = await tempDir('hearth-homey-audio-');

  // App Settings (apps.developer.homey.app/advanced/custom-views/app-settings), CommonJS.
  await writeHomeyApp(appsDir, 'com.example.settings', {
    json: {
      settings: [{ id: 'interval', type: 'number', label: { en: 'Interval' }, value: 30 }],
      api: {
        getSettings: { method: 'GET', path: '/settings' },
        setUsername: { method: 'POST', path: '/username' },
        setTooBig: { method: 'POST', path: '/too-big' },
      },
    },
    files: {
      'package.json': { name: 'com.example.settings', type: 'commonjs' },
      'app.js': `'use strict';
const Homey = require('homey');

class App extends Homey.App {
  async onInit() {
    const username = this.homey.settings.get('username');
    this.log('username at start:', username);
    this.changes = [];
    this.homey.settings.on('set', (key) => this.changes.push('set ' + key));
    this.homey.settings.on('unset', (key) => this.changes.push('unset ' + key));
  }
}

module.exports = App;
`,
      'api.js': `module.exports = {
  async getSettings({ homey }) {
    return {
      username: homey.settings.get('username'),
      interval: homey.settings.get('interval'),
      keys: homey.settings.getKeys().sort(),
      changes: homey.app.changes,
    };
  },
  async setUsername({ homey, body }) {
    homey.settings.set('username', body.username);
    return { now: homey.settings.get('username') };
  },
  async setTooBig({ homey }) {
    try {
      homey.settings.set('big', 'x'.repeat(70000));
      return { threw: null };
    } catch (err) {
      return { threw: err.message, kept: homey.settings.get('big') };
    }
  },
};
`,
    },
  });
  // An ES module app without a package.json of its own ("esm": true, app.mjs): insights,
  // translations, the clock and env.json.
  await writeHomeyApp(appsDir, 'com.example.esm', {
    json: { esm: true, api: { getState: { method: 'GET', path: '/' } } },
    files: {
      'app.mjs': `import Homey from 'homey';

export default class EsmApp extends Homey.App {
  async onInit() {
    this.log('EsmApp has been initialized');
    const log = await this.homey.insights.createLog('temperature', {
      title: 'Temperature',
      type: 'number',
      units: '°C',
      decimals: 2,
    });
    await log.createEntry(21.5);
    this.found = (await this.homey.insights.getLog('temperature')).name;
  }
}
`,
      'api.mjs': `export default {
  async getState({ homey }) {
    return {
      found: homey.app.found,
      logs: (await homey.insights.getLogs()).map((log) => log.name),
      language: homey.i18n.getLanguage(),
      units: homey.i18n.getUnits(),
      welcome: homey.__('welcome', { name: 'Dave' }),
      object: homey.__({ en: 'My String', nl: 'Mijn tekst' }),
      timezone: homey.clock.getTimezone(),
      platform: homey.platform,
      env: homey.env,
      id: homey.app.id,
      manifestBrand: homey.manifest.brandColor,
    };
  },
};
`,
      'locales/en.json': { welcome: 'Welcome, __name__!' },
      'locales/nl.json': { welcome: 'Welkom, __name__!' },
      'env.json': { CLIENT_ID: 'abc', CLIENT_SECRET: 'xyz' },
    },
  });

  // ManagerSpeechOutput's example, with the permission, and the same call without it.
  const speaker = (id: string, permissions: string[]) =>
    writeHomeyApp(appsDir, id, {
      json: { permissions },
      files: {
        'app.js': `const Homey = require('homey');
module.exports = class Speaker extends Homey.App {
  async onInit() {
    await this.homey.speechOutput.say('Hello world!').then(() => this.log('said it')).catch((err) => this.log('could not say it:', err.message));
  }
};
`,
      },
    });
  await speaker('com.example.speaker', ['homey:manager:speech-output']);
  await speaker('com.example.mute', []);

  // ManagerAudio: a WAV sample from a file in the app, then again by its id alone.
  await writeHomeyApp(appsDir, 'com.example.chime', {
    files: {
      'assets/chime.wav': silentWav(),
      'app.js': `const Homey = require('homey');
module.exports = class Chime extends Homey.App {
  async onInit() {
    await this.homey.audio.playWav('chime', './assets/chime.wav');
    await this.homey.audio.playWav('chime');
    await this.homey.audio.playWav('nothing').catch((err) => this.log('no sample:', err.message));
    this.log('chimed twice');
  }
};
`,
    },
  });

  // ManagerGeolocation with the permission (and its location event), and without.
  const where = (id: string, permissions: string[]) =>
    writeHomeyApp(appsDir, id, {
      json: { permissions, api: { getWhere: { method: 'GET', path: '/' } } },
      files: {
        'app.js': `const Homey = require('homey');
module.exports = class Where extends Homey.App {
  async onInit() {
    this.moves = 0;
    this.homey.geolocation.on('location', () => this.moves++);
  }
};
`,
        'api.js': `module.exports = {
  async getWhere({ homey }) {
    try {
      const g = homey.geolocation;
      return { latitude: g.getLatitude(), longitude: g.getLongitude(), accuracy: g.getAccuracy() ?? null, mode: g.getMode(), moves: homey.app.moves };
    } catch (err) {
      return { error: err.message };
    }
  },
};
`,
      },
    });
  await where('com.example.where', ['homey:manager:geolocation']);
  await where('com.example.nowhere', []);

  // ManagerApi's Web API calls, with the permission and without.
  const caller = (id: string, permissions: string[]) =>
    writeHomeyApp(appsDir, id, {
      json: { permissions, api: { probe: { method: 'GET', path: '/' } } },
      files: {
        'app.js': `const Homey = require('homey');
module.exports = class Caller extends Homey.App {};
`,
        'api.js': `const outcome = (p) => p.then((body) => ({ ok: body }), (err) => ({ error: err.message, statusCode: err.statusCode ?? null }));
module.exports = {
  async probe({ homey }) {
    return {
      read: await outcome(homey.api.get('/manager/i18n/state')),
      write: await outcome(homey.api.put('/manager/i18n/option/language', { value: 'de' })),
      other: await outcome(homey.api.get('/app/com.example.settings/settings')),
      // Out of the managers' API by climbing: refused however it is spelled.
      climb: await outcome(homey.api.get('/manager/../app/com.example.settings/settings')),
      encoded: await outcome(homey.api.get('/manager/%2e%2E/app/com.example.settings/settings')),
      backslash: await outcome(homey.api.get('/manager/..\\\\app/com.example.settings/settings')),
    };
  },
};
`,
      },
    });
  await caller('com.example.caller', ['homey:manager:api']);
  await caller('com.example.nocaller', []);

  // ManagerNotifications.
  await writeHomeyApp(appsDir, 'com.example.notify', {
    json: { api: { notify: { method: 'POST', path: '/notify' }, flood: { method: 'POST', path: '/flood' } } },
    files: {
      'app.js': `const Homey = require('homey');
module.exports = class Notify extends Homey.App {};
`,
      'api.js': `module.exports = {
  async notify({ homey, body }) {
    await homey.notifications.createNotification({ excerpt: body.excerpt });
    return { ok: true };
  },
  async flood({ homey }) {
    const sent = await Promise.allSettled(Array.from({ length: 500 }, (_, i) => homey.notifications.createNotification({ excerpt: 'flood ' + i })));
    const refused = sent.filter((r) => r.status === 'rejected');
    return { delivered: sent.length - refused.length, refused: refused.length, why: refused[0] ? refused[0].reason.message : null };
  },
};
`,
    },
  });

  hub = await startHub({ appsDir, args: ['--audio-out', audioOut, '--time-zone', 'Europe/Amsterdam'] });
}, 60_000);

afterAll(async () => {
  await hub?.cleanup();
});

describe('settings (ManagerSettings)', () => {
  it('are synchronous in the app, start from app.json defaults, and are the settings of the Web API both ways', async () => {
    await running('com.example.settings');
    const first = await appApi<{ username: unknown; interval: unknown; keys: string[] }>('com.example.settings', 'GET', '/settings');
    expect(first).toMatchObject({ username: null, interval: 30, keys: ['interval'] });

    // Set through the Web API (a settings page does this): the app's synchronous get sees it and 'set' fires.
    expect((await hub.call('PUT', '/api/manager/apps/app/com.example.settings/setting/username', { body: { value: 'ada' } })).status).toBe(200);
    const seen = await poll(
      () => appApi<{ username: unknown; changes: string[] }>('com.example.settings', 'GET', '/settings'),
      (s) => s.username === 'ada',
      'the app seeing username=ada',
    );
    expect(seen.changes).toContain('set username');

    // Set by the app: at once in the app, and written through to the hub.
    expect(await appApi('com.example.settings', 'POST', '/username', { username: 'grace' })).toEqual({ now: 'grace' });
    await poll(
      () => hub.call('GET', '/api/manager/apps/app/com.example.settings/setting/username'),
      (r) => r.body === 'grace',
      'the Web API showing username=grace',
    );
    expect((await hub.call('GET', '/api/manager/apps/app/com.example.settings/setting')).body).toEqual({ interval: 30, username: 'grace' });

    // Unset through the Web API: gone in the app, 'unset' fired; the declared default stays.
    expect((await hub.call('DELETE', '/api/manager/apps/app/com.example.settings/setting/username')).status).toBe(204);
    const after = await poll(
      () => appApi<{ username: unknown; changes: string[]; keys: string[] }>('com.example.settings', 'GET', '/settings'),
      (s) => s.username === null,
      'the app seeing username unset',
    );
    expect(after.changes).toContain('unset username');
    expect(after.keys).toEqual(['interval']);
  });

  it('refuses a value the hub would refuse where the app sets it, and keeps nothing of it', async () => {
    const r = await appApi<{ threw: string | null; kept: unknown }>('com.example.settings', 'POST', '/too-big');
    expect(r.threw).toMatch(/larger than 64 KiB/);
    expect(r.kept).toBeNull();
    expect((await hub.call('GET', '/api/manager/apps/app/com.example.settings/setting/big')).status).toBe(404);
  });

  it('refuses a path to a settings key that is a dot segment, sent as is past any URL parser, and the app stays installed', async () => {
    for (const key of ['%2e%2e', '%2E', '..']) {
      const res = await rawPut(`/api/manager/apps/app/com.example.settings/setting/${key}`, { value: 1 });
      expect(res.status, key).toBe(404);
      expect(res.body, key).toContain('a path with a dot segment');
    }
    expect((await hub.call('GET', '/api/manager/apps/app/com.example.settings')).status).toBe(200);
    expect(Object.keys((await hub.call<Record<string, unknown>>('GET', '/api/manager/apps/app/com.example.settings/setting')).body)).not.toContain('..');
  });
});

/** A PUT whose path no client normalises (fetch would turn `/x/..` into `/`). */
function rawPut(path: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: hub.port,
        method: 'PUT',
        path,
        headers: { authorization: `Bearer ${OWNER}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (d: string) => (text += d))
          .on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

describe('an ES module app without a package.json', () => {
  it('imports Homey, writes insights, reads its translations, the clock and env.json', async () => {
    await running('com.example.esm');
    const state = await appApi<Record<string, unknown>>('com.example.esm', 'GET', '/');
    expect(state).toEqual({
      found: 'temperature',
      logs: ['temperature'],
      language: 'en',
      units: 'metric',
      welcome: 'Welcome, Dave!',
      object: 'My String',
      timezone: 'Europe/Amsterdam',
      platform: 'local',
      env: { CLIENT_ID: 'abc', CLIENT_SECRET: 'xyz' },
      id: 'com.example.esm',
      manifestBrand: '#00aaff',
    });
    const log = await hub.call<{ lastValue: number; units: string; title: string }>(
      'GET',
      `/api/manager/insights/log/${encodeURIComponent('homey:app:com.example.esm:temperature')}`,
    );
    expect(log.body).toMatchObject({ lastValue: 21.5, units: '°C', title: 'Temperature' });
  });

  it('follows the hub language: __() and getLanguage() change without a restart', async () => {
    await hub.call('PUT', '/api/manager/i18n/option/language', { body: { value: 'nl' } });
    try {
      const state = await poll(
        () => appApi<{ language: string; welcome: string; object: string }>('com.example.esm', 'GET', '/'),
        (s) => s.language === 'nl',
        'the app seeing language nl',
      );
      expect(state.welcome).toBe('Welkom, Dave!');
      expect(state.object).toBe('Mijn tekst');
    } finally {
      await hub.call('DELETE', '/api/manager/i18n/option/language');
    }
  });
});

describe('speech and audio', () => {
  it('speaks through the WAV folder with the permission, and says why without it', async () => {
    const log = (id: string) =>
      poll(
        () => hub.call<{ stdout: string }>('POST', `/api/manager/apps/app/${id}/crashlog`, { body: {} }),
        (r) => /said it|could not say it|chimed twice/.test(r.body.stdout),
        `${id} to finish`,
      );
    expect((await log('com.example.speaker')).body.stdout).toContain('said it');
    expect((await log('com.example.mute')).body.stdout).toContain("could not say it: speechOutput.say needs the permission 'homey:manager:speech-output'");
    const chime = (await log('com.example.chime')).body.stdout;
    expect(chime).toContain("no sample: no wav sample 'nothing' was played before");

    const files = (await readdir(audioOut)).filter((f) => f.endsWith('.wav')).sort();
    // One utterance and the chime twice.
    expect(files).toHaveLength(3);
    const wavs = await Promise.all(files.map((f) => readFile(join(audioOut, f))));
    const chimes = wavs.filter((w) => w.equals(silentWav()));
    expect(chimes).toHaveLength(2);
    const speech = wavs.find((w) => !w.equals(silentWav()))!;
    expect(speech.toString('latin1', 0, 4)).toBe('RIFF');
    expect(speech.length).toBeGreaterThan(10_000);
  });
});

describe('geolocation (ManagerGeolocation)', () => {
  it("gives an app with the permission the hub's location and tells it when it moves", async () => {
    await running('com.example.where');
    await hub.call('PUT', '/api/manager/geolocation/option/location', { body: { value: { latitude: 52.09, longitude: 5.12, accuracy: 30 } } });
    const where = await poll(
      () => appApi<{ latitude?: number; moves?: number }>('com.example.where', 'GET', '/'),
      (w) => w.latitude === 52.09,
      'the app seeing the location',
    );
    expect(where).toEqual({ latitude: 52.09, longitude: 5.12, accuracy: 30, mode: 'manual', moves: 1 });
  });

  it('refuses an app without the permission with a sentence naming it', async () => {
    await running('com.example.nowhere');
    expect(await appApi('com.example.nowhere', 'GET', '/')).toEqual({
      error: `geolocation.getLatitude needs the permission 'homey:manager:geolocation'; add it to "permissions" in app.json`,
    });
  });
});

describe("the hub's Web API (ManagerApi, homey:manager:api)", () => {
  it('reads through the hub with read-only scopes, changes nothing, and reaches no other app', async () => {
    await running('com.example.caller');
    const r = await appApi<{ read: { ok?: { language?: string } }; write: { error: string; statusCode: number }; other: { error: string } }>(
      'com.example.caller',
      'GET',
      '/',
    );
    expect(r.read.ok?.language).toBe('en');
    expect(r.write.statusCode).toBe(403);
    expect(r.write.error).toMatch(/needs the scope 'service.system'/);
    expect(r.other.error).toMatch(/managers' API only/);
    const climbs = r as unknown as Record<'climb' | 'encoded' | 'backslash', { ok?: unknown; error?: string }>;
    for (const how of ['climb', 'encoded', 'backslash'] as const) {
      expect(climbs[how].ok, how).toBeUndefined();
      expect(climbs[how].error, how).toMatch(/no '\.' or '\.\.' segments and no backslashes/);
    }
    expect((await hub.call('GET', '/api/manager/i18n/option/language')).body).toEqual({ value: 'en' });
  });

  it('refuses an app without the permission', async () => {
    await running('com.example.nocaller');
    const r = await appApi<{ read: { error: string } }>('com.example.nocaller', 'GET', '/');
    expect(r.read.error).toBe(`api.get needs the permission 'homey:manager:api'; add it to "permissions" in app.json`);
  });
});

describe('notifications (ManagerNotifications)', () => {
  it("go on the home's timeline (notification.create of the notifications namespace) and a line in the app log", async () => {
    await running('com.example.notify');
    const events = await openEvents(
      hub.wsUrl,
      'notifications',
      (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'n', scopes: ['service.notifications.readonly'] } })).body.token,
    );
    await appApi('com.example.notify', 'POST', '/notify', { excerpt: 'The **washing** is done' });
    const frame = await events.next((f) => f.event === 'notification.create');
    expect(frame.args[0]).toMatchObject({ ownerUri: 'homey:app:com.example.notify', ownerId: 'com.example.notify', excerpt: 'The **washing** is done' });
    // Kept on the timeline, named by its app.
    const kept = Object.values(await hub.op('notifications', 'getNotifications')).filter((n) => n.ownerId === 'com.example.notify');
    expect(kept.map((n) => n.excerpt)).toContain('The **washing** is done');
    expect(kept[0]?.ownerName).toBe(((await hub.op('apps', 'getApp', { params: { id: 'com.example.notify' } })) as { name: string }).name);
    events.close();
    const log = await hub.call<{ stdout: string }>('POST', '/api/manager/apps/app/com.example.notify/crashlog', { body: {} });
    expect(log.body.stdout).toContain('[notification] The **washing** is done');
  });

  it('are limited to a burst of 10 and 10 a minute: a flood is dropped with the reason, the browsers get the burst only', async () => {
    await running('com.example.notify');
    const events = await openEvents(hub.wsUrl, 'notifications', OWNER);
    const r = await appApi<{ delivered: number; refused: number; why: string | null }>('com.example.notify', 'POST', '/flood', {});
    // The earlier test took one notification of the burst (refilled by a few seconds since).
    expect(r.delivered).toBeGreaterThanOrEqual(9);
    expect(r.delivered).toBeLessThanOrEqual(11);
    expect(r.refused).toBe(500 - r.delivered);
    expect(r.why).toBe('an app may send notifications at most 10 a minute (10 at once); this one was dropped');
    await hub.call('GET', '/api/manager/system/ping'); // the events of the burst are out by now
    await pause(200, 'time for any notification beyond the budget to arrive (none may)');
    expect(events.frames.filter((f) => f.event === 'notification.create')).toHaveLength(r.delivered);
    events.close();
  });
});
