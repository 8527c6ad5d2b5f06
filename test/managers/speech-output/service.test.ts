/**
 * The speech-output manager in process, with a real store, event bus, option service, i18n
 * manager and the real engines; audio goes to a WAV folder or a fake sound card (an `aplay`
 * that records the WAV and takes as long as it lasts).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { SdkRouter } from '../../../src/apps/host/router.js';
import { loadConfig } from '../../../src/config.js';
import { HearthError } from '../../../src/core/errors.js';
import { EventBus, type HubEvent } from '../../../src/core/events.js';
import { OptionService } from '../../../src/core/options.js';
import { Store } from '../../../src/core/store.js';
import type { ManagerContext } from '../../../src/managers/context.js';
import { I18nManager } from '../../../src/managers/i18n/index.js';
import { SpeechOutputManager } from '../../../src/managers/speech-output/index.js';
import { wavInfo } from '../../../src/managers/speech-output/wav.js';
import { waitUntil } from '../../helpers/poll.js';
import { fakeCardPath, payloads, soxi, tempDir } from './tools.js';

interface Harness {
  readonly manager: SpeechOutputManager;
  readonly options: OptionService;
  readonly events: HubEvent[];
  readonly dataDir: string;
  readonly store: Store;
}

const running: Harness[] = [];
afterEach(async () => {
  for (const h of running.splice(0)) {
    await h.manager.stop();
    await h.store.flush();
  }
});

async function harness(opts: { engine?: string; audioOut?: string; language?: string; dataDir?: string; router?: SdkRouter } = {}): Promise<Harness> {
  const dataDir = opts.dataDir ?? (await tempDir('speech-data'));
  const config = loadConfig(
    { 'data-dir': dataDir, 'audio-out': opts.audioOut ?? (await tempDir('speech-out')), 'speech-engine': opts.engine ?? 'espeak-ng' },
    {},
  );
  const store = await Store.open(dataDir);
  const bus = new EventBus();
  const events: HubEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const options = new OptionService(store, bus);
  const ctx: ManagerContext = { config, store, bus, log: pino({ level: 'silent' }), hubId: '0123456789abcdef01234567', options };
  const i18n = new I18nManager(ctx);
  if (opts.language) await options.set('i18n', 'language', opts.language);
  const manager = new SpeechOutputManager(ctx, { router: opts.router ?? new SdkRouter() });
  await i18n.start();
  await manager.start();
  const h = { manager, options, events, dataDir, store };
  running.push(h);
  return h;
}

const failure = async (p: Promise<unknown>): Promise<HearthError> => {
  const err = await p.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  if (!(err instanceof HearthError)) throw err;
  return err;
};

/** True once `pid` no longer exists (polled: the kill is immediate, reaping is not). */
async function gone(pid: number): Promise<boolean> {
  const exists = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  return waitUntil(() => !exists(), `process ${pid} gone`, 50, 100).then(
    () => true,
    () => false,
  );
}

const wavs = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.endsWith('.wav')).sort();

describe('voices', () => {
  it("installs the voice of the hub's language on first start, and only then", async () => {
    const h = await harness({ language: 'nl' });
    expect(Object.keys(h.manager.service.getVoices())).toEqual(['nl']);
    expect(h.events.find((e) => e.event === 'voice.create')?.args[0]).toMatchObject({ id: 'nl', language: 'nl', locale: 'nl' });
    await h.manager.service.uninstallVoice('nl');
    await h.manager.stop();
    await h.store.flush();
    running.splice(0);
    const again = await harness({ dataDir: h.dataDir, language: 'nl' });
    expect(again.manager.service.getVoices()).toEqual({});
  });

  it('picks the engine’s preferred voice for a bare language (en -> en-gb)', async () => {
    const h = await harness();
    expect(Object.keys(h.manager.service.getVoices())).toEqual(['en-gb']);
    expect(h.manager.service.currentVoice()).toBe('en-gb');
  });

  it('installs from the catalogue, 404 for an unknown id, and uninstall resets the voice option', async () => {
    const h = await harness();
    const s = h.manager.service;
    expect(Object.keys(s.catalogue()).length).toBeGreaterThan(100);
    expect(await s.installVoice('de')).toEqual({ id: 'de', name: 'German', language: 'de', locale: 'de', gender: 'male' });
    expect(h.events.at(-1)).toMatchObject({ manager: 'speech-output', event: 'voice.create' });
    expect((await failure(s.installVoice('xx-nope'))).code).toBe('not_found');
    await h.options.set('speech-output', 'voice', 'de');
    expect(s.currentVoice()).toBe('de');
    await s.uninstallVoice('de');
    expect(h.options.get('speech-output', 'voice')).toBeNull();
    expect(h.events.some((e) => e.event === 'voice.delete' && (e.args[0] as { id: string }).id === 'de')).toBe(true);
    expect((await failure(s.uninstallVoice('de'))).code).toBe('not_found');
    expect(() => s.getVoice('de')).toThrow(/not installed/);
  });

  it('accepts only installed voices and valid speeds as options', async () => {
    const h = await harness();
    await expect(h.options.set('speech-output', 'voice', 'fr-fr')).rejects.toThrow(/not installed.*en-gb/);
    await expect(h.options.set('speech-output', 'voice', '") (system "id")')).rejects.toThrow(/not installed/);
    for (const ok of ['slow', 'normal', 'fast', '0.5', '1.25', '2.0']) {
      expect(await h.options.set('speech-output', 'speed', ok)).toBe(ok);
    }
    for (const bad of ['0.4', '2.1', 'quick', '1e0', '']) {
      await expect(h.options.set('speech-output', 'speed', bad)).rejects.toThrow(/slow, normal, fast/);
    }
  });
});

describe('voice records', () => {
  it('updates installed records the engine now describes differently, with voice.update and its info', async () => {
    const first = await harness();
    await first.manager.stop();
    await first.store.close();
    running.splice(0);
    const file = join(first.dataDir, 'db.json');
    const doc = JSON.parse(await readFile(file, 'utf8')) as { speech: { installed: Record<string, Record<string, { name: string }>> } };
    doc.speech.installed['espeak-ng']!['en-gb']!.name = 'An older name';
    await writeFile(file, JSON.stringify(doc));
    const again = await harness({ dataDir: first.dataDir });
    const update = again.events.find((e) => e.event === 'voice.update');
    expect(update?.args[0]).toMatchObject({ id: 'en-gb', name: 'English (Great Britain)' });
    expect(update?.args[1]).toEqual({
      changedKeys: ['name'],
      oldValues: { name: 'An older name' },
      newValues: { name: 'English (Great Britain)' },
    });
    expect(again.manager.service.getVoice('en-gb').name).toBe('English (Great Britain)');
  });
});

describe('say into a WAV folder', () => {
  it('writes one WAV per utterance that sox reads at 22.05 kHz with the answered duration', async () => {
    const out = await tempDir('speech-out');
    const h = await harness({ audioOut: out });
    const spoken = await h.manager.service.say('The washing machine has finished its program.');
    expect(spoken.voice).toBe('en-gb');
    const [file] = await wavs(out);
    expect(file).toBeDefined();
    const info = soxi(join(out, file!));
    expect(info.rate).toBe(22050);
    expect(info.seconds).toBeGreaterThan(1);
    expect(Math.abs(info.seconds * 1000 - spoken.durationMs)).toBeLessThan(20);
    expect((await readdir(out)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('speaks slower at speed slow than fast', async () => {
    const h = await harness();
    await h.options.set('speech-output', 'speed', 'slow');
    const slow = await h.manager.service.say('one two three four five six');
    await h.options.set('speech-output', 'speed', 'fast');
    const fast = await h.manager.service.say('one two three four five six');
    expect(slow.durationMs).toBeGreaterThan(fast.durationMs * 1.5);
  });

  it('synthesize answers the WAV, plays nothing, and caches the phrase', async () => {
    const out = await tempDir('speech-out');
    const h = await harness({ audioOut: out });
    const first = await h.manager.service.synthesize('Dinner is ready');
    expect(wavInfo(first).sampleRate).toBe(22050);
    expect(await wavs(out)).toEqual([]);
    await h.manager.service.settled();
    const cacheDir = join(h.dataDir, 'speech-cache');
    expect((await wavs(cacheDir)).length).toBe(1);
    const again = await h.manager.service.synthesize('Dinner is ready');
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
    expect(h.manager.service.status()).toMatchObject({ cache: { entries: 1, bytes: first.byteLength } });
    // A spoken utterance of the same phrase uses the same cache entry.
    await h.manager.service.say('Dinner is ready');
    await h.manager.service.settled();
    expect((await wavs(cacheDir)).length).toBe(1);
    expect((await wavs(out)).length).toBe(1);
  });

  it('plays a sample in any catalogue voice, in its language', async () => {
    const out = await tempDir('speech-out');
    const h = await harness({ audioOut: out });
    expect(await h.manager.service.playSample('de')).toMatchObject({ voice: 'de' });
    expect((await wavs(out)).length).toBe(1);
    expect((await failure(h.manager.service.playSample('xx-nope'))).code).toBe('not_found');
  });

  it('refuses empty and over-long text and out-of-range timeouts', async () => {
    const h = await harness();
    expect((await failure(h.manager.service.say(''))).code).toBe('invalid_parameter');
    expect((await failure(h.manager.service.say('x'.repeat(1001)))).code).toBe('invalid_parameter');
    expect((await failure(h.manager.service.say('hi', { timeout: 0 }))).code).toBe('invalid_parameter');
    expect((await failure(h.manager.service.say('hi', { timeout: 601 }))).code).toBe('invalid_parameter');
  });
});

describe('say through a sound card', () => {
  async function cardHarness(): Promise<{ h: Harness; card: string }> {
    const card = await tempDir('card');
    process.env.PATH = await fakeCardPath(await tempDir('card-bin'), card);
    return { h: await harness({ audioOut: 'default' }), card };
  }

  it('plays utterances one at a time in the order they came', async () => {
    const { h, card } = await cardHarness();
    const order: string[] = [];
    const texts = ['first announcement', 'second, a little longer announcement', 'third'];
    const results = await Promise.all(
      texts.map((t, i) =>
        h.manager.service.say(t).then((r) => {
          order.push(String(i));
          return r;
        }),
      ),
    );
    expect(order).toEqual(['0', '1', '2']);
    const files = (await readdir(card)).filter((n) => n.endsWith('.wav'));
    expect(files).toHaveLength(3);
    // The card got each utterance whole: its durations are the three answered durations.
    const durations = files.map((f) => Math.round(soxi(join(card, f)).seconds * 1000)).sort((a, b) => a - b);
    expect(durations).toEqual(results.map((r) => r.durationMs).sort((a, b) => a - b));
  });

  it('replaces a waiting utterance of the same session with 409', async () => {
    const { h } = await cardHarness();
    const s = h.manager.service;
    const busy = s.say('this one is playing while the others wait', { session: 'door' });
    const old = s.say('someone is at the door', { session: 'door' });
    const fresh = s.say('someone is still at the door', { session: 'door' });
    const err = await failure(old);
    expect(err.code).toBe('conflict');
    expect(err.message).toBe("replaced by a newer utterance in session 'door'");
    expect((await busy).voice).toBe('en-gb');
    expect((await fresh).voice).toBe('en-gb');
  });

  it('times out (504) an utterance that cannot finish in time, stops it, and goes on', async () => {
    const { h, card } = await cardHarness();
    const s = h.manager.service;
    const long = 'This announcement is long enough that it cannot finish in a single second. '.repeat(3);
    const err = await failure(s.say(long, { timeout: 1 }));
    expect(err.code).toBe('timeout');
    // The card process (and its sleep, same process group) was killed, not left playing.
    const pid = Number((await readFile(join(card, 'playing.pid'), 'utf8')).trim());
    expect(await gone(pid)).toBe(true);
    const next = await s.say('next');
    expect(next.durationMs).toBeGreaterThan(0);
    expect((await readdir(card)).filter((n) => n.endsWith('.wav'))).toHaveLength(2);
  });
});

describe('sound card without aplay', () => {
  it('lets the engine play by itself', async () => {
    const bin = await tempDir('no-aplay');
    await symlink('/usr/bin/espeak-ng', join(bin, 'espeak-ng'));
    const path = process.env.PATH;
    process.env.PATH = bin;
    try {
      const h = await harness({ audioOut: 'default' });
      expect(h.manager.service.status()).toMatchObject({ engine: 'espeak-ng', audioOut: 'espeak-ng itself' });
      expect(await h.manager.service.say('hello')).toMatchObject({ voice: 'en-gb' });
    } finally {
      process.env.PATH = path;
    }
  });
});

describe('say engine (festival) through the service', () => {
  it('speaks into the folder at 16 kHz and never runs injected Scheme', async () => {
    const out = await tempDir('speech-out');
    const marker = join(await tempDir('marker'), 'marker');
    const h = await harness({ engine: 'say', audioOut: out });
    expect(Object.keys(h.manager.service.getVoices())).toEqual(['kal_diphone']);
    for (const text of payloads(marker).slice(0, 3)) await h.manager.service.say(text);
    expect(existsSync(marker)).toBe(false);
    const files = await wavs(out);
    expect(files).toHaveLength(3);
    expect(soxi(join(out, files[0]!)).rate).toBe(16000);
  });
});

describe('without an engine', () => {
  it('starts, and speech operations answer 503 saying what to do', async () => {
    const h = await harness({ engine: 'none' });
    const s = h.manager.service;
    for (const p of [s.say('hi'), s.synthesize('hi'), s.playSample('en-us'), s.installVoice('en-us')]) {
      const err = await failure(p);
      expect(err.status).toBe(503);
      expect(err.message).toContain('--speech-engine');
    }
    expect(() => s.getVoices()).toThrow(/--speech-engine/);
    expect(s.status()).toMatchObject({ engine: null, available: false });
  });

  it('names the package when no engine is installed', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const h = await harness({ engine: 'auto' });
      const err = await failure(h.manager.service.say('hi'));
      expect(err.code).toBe('unavailable');
      expect(err.message).toContain('apt-get install espeak-ng');
    } finally {
      process.env.PATH = path;
    }
  });
});

it('keeps the cache folder clean of temp files left by a crash', async () => {
  const dataDir = await tempDir('speech-data');
  await mkdir(join(dataDir, 'speech-cache'), { recursive: true });
  await writeFile(join(dataDir, 'speech-cache', `.${'a'.repeat(64)}.1.0.tmp`), 'half');
  await harness({ dataDir });
  expect(await readdir(join(dataDir, 'speech-cache'))).toEqual([]);
});

describe('apps SDK', () => {
  it('serves speechOutput.say through the router to apps with the speech permission', async () => {
    const out = await tempDir('speech-out');
    const router = new SdkRouter();
    await harness({ audioOut: out, router });
    const app = { id: 'com.example.door', uri: 'homey:app:com.example.door', version: '1.0.0' };
    const allowed = { ...app, permissions: ['homey:manager:speech-output'] };
    expect(await router.dispatch(allowed, 'speech.say', { text: 'The door is open' })).toBeNull();
    expect(await wavs(out)).toHaveLength(1);
    await expect(router.dispatch({ ...app, permissions: [] }, 'speech.say', { text: 'sneaky' })).rejects.toThrow(/permission/);
    // hearth's name of the permission before the Homey SDK opens nothing.
    await expect(router.dispatch({ ...app, permissions: ['hearth:manager:speech-output'] }, 'speech.say', { text: 'sneaky' })).rejects.toThrow(/permission/);
    expect(await wavs(out)).toHaveLength(1);
  });

  it('plays an app sample (homey.audio.playWav) through the router, and refuses one that is no WAV', async () => {
    const out = await tempDir('speech-out');
    const router = new SdkRouter();
    const h = await harness({ audioOut: out, router });
    const app = { id: 'com.example.door', uri: 'homey:app:com.example.door', version: '1.0.0', permissions: [] };
    const wav = await h.manager.service.synthesize('ding');
    expect(await router.dispatch(app, 'audio.play', { format: 'wav', sample: Buffer.from(wav).toString('base64') })).toBeNull();
    expect(await wavs(out)).toHaveLength(1);
    await expect(router.dispatch(app, 'audio.play', { format: 'wav', sample: Buffer.from('not a wav').toString('base64') })).rejects.toMatchObject({
      code: 'invalid_parameter',
      message: 'the sample is not a WAV file (no RIFF/WAVE header)',
    });
    expect(await wavs(out)).toHaveLength(1);
  });
});
