/**
 * The two engines against the real espeak-ng and festival: voice catalogues, WAV synthesis
 * (checked with sox), speed, unknown voices.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanText, UnknownVoiceError } from '../../../src/managers/speech-output/engines/engine.js';
import { EspeakEngine } from '../../../src/managers/speech-output/engines/espeak.js';
import { SayEngine, schemeString } from '../../../src/managers/speech-output/engines/festival.js';
import { selectEngine } from '../../../src/managers/speech-output/engines/select.js';
import { wavInfo } from '../../../src/managers/speech-output/wav.js';
import { soxi, tempDir } from './tools.js';

const SENTENCE = 'The quick brown fox jumps over the lazy dog near the river';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('engines');
});

async function saveWav(name: string, wav: Uint8Array): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, wav);
  return file;
}

describe('text clean-up', () => {
  it('turns control characters into spaces and shields a leading dash', () => {
    expect(cleanText('a\nb\u0000c\td')).toBe('a b c d');
    expect(cleanText('--version')).toBe(' --version');
    expect(cleanText('  -w /tmp/x')).toBe(' -w /tmp/x');
  });

  it('escapes backslash and quote for festival strings', () => {
    expect(schemeString('a") (system "x") ("')).toBe('a\\") (system \\"x\\") (\\"');
    expect(schemeString('back\\slash')).toBe('back\\\\slash');
    expect(schemeString('line\n(system "x")')).toBe('line (system \\"x\\")');
  });
});

describe('espeak-ng engine', () => {
  const engine = new EspeakEngine();

  it('lists every voice espeak-ng offers with unique, path-safe ids', async () => {
    const voices = await engine.listVoices();
    expect(voices.length).toBeGreaterThan(100);
    const ids = voices.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    const enUs = voices.find((v) => v.id === 'en-us');
    expect(enUs).toMatchObject({ name: 'English (America)', language: 'en', locale: 'en-US', gender: 'male' });
    // Two voices share the language yue; each gets its file's name.
    expect(ids).toContain('yue');
    expect(ids).toContain('yue-latn-jyutping');
    for (const id of ids) expect(id).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
  });

  it('synthesizes a complete WAV that sox reads with the right rate and a plausible duration', async () => {
    const wav = await engine.synthesize(SENTENCE, 'en-us', 1);
    const file = await saveWav('espeak.wav', wav);
    const info = soxi(file);
    expect(info.rate).toBe(22050);
    expect(info.channels).toBe(1);
    expect(info.seconds).toBeGreaterThan(1.5);
    expect(info.seconds).toBeLessThan(8);
    // Our header sizes agree with sox.
    expect(Math.abs(wavInfo(wav).durationMs / 1000 - info.seconds)).toBeLessThan(0.01);
  });

  it('speaks faster at speed 2 than at 0.5', async () => {
    const fast = wavInfo(await engine.synthesize(SENTENCE, 'en-us', 2)).durationMs;
    const slow = wavInfo(await engine.synthesize(SENTENCE, 'en-us', 0.5)).durationMs;
    expect(slow).toBeGreaterThan(fast * 2);
  });

  it('synthesizes in a voice found by file name (yue-latn-jyutping)', async () => {
    const wav = await engine.synthesize('nei hou', 'yue-latn-jyutping', 1);
    expect(wavInfo(wav).durationMs).toBeGreaterThan(100);
  });

  it('refuses a voice it does not list', async () => {
    await expect(engine.synthesize('hi', 'xx-nope', 1)).rejects.toBeInstanceOf(UnknownVoiceError);
    await expect(engine.speak('hi', 'en-us; touch /tmp/x', 1)).rejects.toBeInstanceOf(UnknownVoiceError);
  });

  it('speak() hands espeak-ng the text on stdin with the voice and the rate, and waits for it to finish', async () => {
    await engine.listVoices(); // the real list, read before espeak-ng is replaced below
    // An espeak-ng that writes down how it was run (this machine may have no sound card).
    const dir = await tempDir('hearth-espeak-');
    const calls = join(dir, 'calls');
    await writeFile(join(dir, 'espeak-ng'), `#!/bin/sh\nsleep 0.2\necho "$@" > ${calls}.args\ncat > ${calls}.in\n`, { mode: 0o755 });
    const path = process.env.PATH;
    process.env.PATH = `${dir}:${path}`;
    try {
      await engine.speak('ok -- $(touch x)', 'en-us', 2);
    } finally {
      process.env.PATH = path;
    }
    // Finished when speak() resolved: both files are there, whole.
    expect((await readFile(`${calls}.args`, 'utf8')).trim()).toBe('-v gmw/en-US -s 350 --stdin'); // the voice's engine name, twice the base rate
    expect(await readFile(`${calls}.in`, 'utf8')).toBe(cleanText('ok -- $(touch x)'));
  });

  it('stops synthesizing when aborted', async () => {
    const controller = new AbortController();
    const pending = engine.synthesize(`${SENTENCE}. `.repeat(40), 'en-us', 0.5, controller.signal);
    controller.abort(new Error('enough'));
    await expect(pending).rejects.toThrow('enough');
  });
});

describe('say engine (festival)', () => {
  const engine = new SayEngine();

  it("lists festival's own voices", async () => {
    const voices = await engine.listVoices();
    expect(voices.find((v) => v.id === 'kal_diphone')).toMatchObject({
      language: 'en',
      locale: 'en-US',
      gender: 'male',
    });
  });

  it('synthesizes through text2wave into a WAV sox reads at 16 kHz', async () => {
    const wav = await engine.synthesize(SENTENCE, 'kal_diphone', 1);
    const info = soxi(await saveWav('festival.wav', wav));
    expect(info.rate).toBe(16000);
    expect(info.seconds).toBeGreaterThan(1.5);
    expect(info.seconds).toBeLessThan(10);
  });

  it('stretches duration with speed', async () => {
    const fast = wavInfo(await engine.synthesize(SENTENCE, 'kal_diphone', 2)).durationMs;
    const slow = wavInfo(await engine.synthesize(SENTENCE, 'kal_diphone', 0.5)).durationMs;
    expect(slow).toBeGreaterThan(fast * 2);
  });

  it('refuses a voice festival does not list', async () => {
    await expect(engine.synthesize('hi', 'kal_diphone) (system "id"', 1)).rejects.toBeInstanceOf(UnknownVoiceError);
  });
});

describe('engine selection', () => {
  it('auto prefers espeak-ng', async () => {
    const choice = await selectEngine('auto');
    expect(choice.engine?.id).toBe('espeak-ng');
  });

  it('say picks festival', async () => {
    expect((await selectEngine('say')).engine?.id).toBe('say');
  });

  it('none gives no engine and says how to turn speech on', async () => {
    const choice = await selectEngine('none');
    expect(choice.engine).toBeNull();
    expect(choice.engine === null && choice.reason).toContain('--speech-engine');
  });

  it('names the package to install when the engine is missing', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const choice = await selectEngine('auto');
      expect(choice.engine).toBeNull();
      expect(choice.engine === null && choice.reason).toContain('apt-get install espeak-ng');
    } finally {
      process.env.PATH = path;
    }
  });
});
