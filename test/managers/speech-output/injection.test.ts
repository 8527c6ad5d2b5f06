/**
 * Command injection through speech text or voice ids, for both engines. A control case shows
 * the payload really does run commands through the unpatched say package; the same payloads
 * through our engines leave no marker file, while the engines still produce audio.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { UnknownVoiceError } from '../../../src/managers/speech-output/engines/engine.js';
import { EspeakEngine } from '../../../src/managers/speech-output/engines/espeak.js';
import { SayEngine } from '../../../src/managers/speech-output/engines/festival.js';
import { wavInfo } from '../../../src/managers/speech-output/wav.js';
import { festivalCardHome, payloads, tempDir } from './tools.js';

let dir: string;
let cardDir: string;

beforeAll(async () => {
  dir = await tempDir('inject');
  cardDir = await tempDir('festival-card');
  const home = await tempDir('festival-home');
  await festivalCardHome(home, cardDir);
  // festival reads ~/.festivalrc: its "sound card" now copies each utterance into cardDir.
  process.env.HOME = home;
});

async function waitFor(file: string, limitMs: number): Promise<boolean> {
  for (let waited = 0; waited < limitMs; waited += 100) {
    if (existsSync(file)) return true;
    await sleep(100);
  }
  return existsSync(file);
}

const VOICE_PAYLOADS = (marker: string): string[] => [
  `kal_diphone) (system "touch ${marker}") (`,
  `en-us; touch ${marker}`,
  `en-us -w ${marker}`,
  `$(touch ${marker})`,
  '../../etc/passwd',
];

describe('control: the say package as shipped', () => {
  it('runs Scheme injected through the text (the hole this engine closes)', async () => {
    const marker = join(dir, 'control-marker');
    const require = createRequire(import.meta.url);
    const say = require('say') as { speak(text: string, voice: string | null, speed: number | null, cb: () => void): void };
    say.speak(`x") (system "touch ${marker}") ("`, null, null, () => undefined);
    expect(await waitFor(marker, 20_000)).toBe(true);
  });
});

describe('say engine (festival)', () => {
  const engine = new SayEngine();

  it('speaks every text payload as text: no marker, and festival played each one', async () => {
    const marker = join(dir, 'festival-speak-marker');
    const before = (await readdir(cardDir)).length;
    for (const text of payloads(marker)) await engine.speak(text, 'kal_diphone', 1);
    expect(existsSync(marker)).toBe(false);
    // festival ran each input to its end (SayText reached the card), so nothing was skipped.
    expect((await readdir(cardDir)).length - before).toBe(payloads(marker).length);
  });

  it('speaks text festival warns about on stderr (a missing diphone it replaces)', async () => {
    // This letter run makes festival print "UniSyn: using default diphone ax-ax for w-s"; say
    // took any stderr output for a failure (it came from random temp dir names in payloads).
    const before = (await readdir(cardDir)).length;
    await engine.speak('inject-qhFWCE', 'kal_diphone', 1);
    expect((await readdir(cardDir)).length - before).toBe(1);
  });

  it('synthesizes every text payload to audio without running it', async () => {
    const marker = join(dir, 'festival-synth-marker');
    for (const text of payloads(marker)) {
      const wav = await engine.synthesize(text, 'kal_diphone', 1);
      expect(wavInfo(wav).durationMs).toBeGreaterThan(0);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses voice payloads before festival starts', async () => {
    const marker = join(dir, 'festival-voice-marker');
    for (const voice of VOICE_PAYLOADS(marker)) {
      await expect(engine.speak('hello', voice, 1)).rejects.toBeInstanceOf(UnknownVoiceError);
      await expect(engine.synthesize('hello', voice, 1)).rejects.toBeInstanceOf(UnknownVoiceError);
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe('espeak-ng engine', () => {
  const engine = new EspeakEngine();

  it('treats option-like and shell-like text as text', async () => {
    const marker = join(dir, 'espeak-marker');
    for (const text of payloads(marker)) {
      await engine.speak(text, 'en-us', 1);
      const wav = await engine.synthesize(text, 'en-us', 1);
      // '--version' is spoken, not answered with a version string: the output is a WAV.
      expect(wavInfo(wav).sampleRate).toBe(22050);
      expect(wavInfo(wav).durationMs).toBeGreaterThan(0);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses voice payloads', async () => {
    const marker = join(dir, 'espeak-voice-marker');
    for (const voice of VOICE_PAYLOADS(marker)) {
      await expect(engine.synthesize('hello', voice, 1)).rejects.toBeInstanceOf(UnknownVoiceError);
    }
    expect(existsSync(marker)).toBe(false);
  });
});
