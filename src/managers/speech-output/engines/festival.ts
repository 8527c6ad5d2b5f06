/**
 * The `say` package engine, which on Linux is festival. say 0.16 pastes text and voice into
 * festival's Scheme input unescaped (`(SayText "<text>")`), so text containing `")` can run any
 * command through `(system ...)`. This engine therefore: escapes `\` and `"` and strips control
 * characters before say sees the text, passes only voices festival itself listed, spawns
 * festival in its own process group (so cancelling kills its aplay too) and never calls say's
 * stop(), which kills pid+2, whatever process that is.
 *
 * say has no export or voice listing on Linux, so synthesis runs festival's own `text2wave` with
 * the text on stdin as plain text (never Scheme) and voice and speed as fixed `-eval` forms.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { createRequire } from 'node:module';
import { fixWavSizes } from '../wav.js';
import { clampSpeed, cleanText, type EngineVoice, findVoice, type SpeechEngine } from './engine.js';
import { killGroup, run, SparePool } from './process.js';

/** What say's platform classes look like from here (say ships CommonJS without these types). */
interface SayCommand {
  command: string;
  args: string[];
  pipedData: string;
  options: SpawnOptions;
}
interface SayPlatform {
  child: ChildProcess | null;
  speak(text: string, voice: string | null, speed: number | null, callback: (err: Error | null) => void): void;
  buildSpeakCommand(input: { text: string; voice: string | null; speed: number | null }): SayCommand;
}
type SayPlatformClass = new () => SayPlatform;

/** Festival voice names are Scheme symbols; this is the only shape that reaches `(voice_<name>)`. */
const FESTIVAL_NAME = /^[a-z0-9_]{1,64}$/;

/**
 * Makes text safe inside a festival Scheme string literal: control characters removed (via
 * cleanText), then `\` and `"` escaped, so the literal can never be closed early.
 *
 * @example schemeString('a") (system "x") ("') // 'a\\") (system \\"x\\") (\\"'
 */
export function schemeString(text: string): string {
  return cleanText(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

let safeSayClass: SayPlatformClass | null = null;

/** say's Linux platform with its command builder wrapped: escaped text, checked voice, own group. */
function safeSay(): SayPlatformClass {
  if (safeSayClass) return safeSayClass;
  const require = createRequire(import.meta.url);
  const Linux = require('say/platform/linux.js') as SayPlatformClass;
  safeSayClass = class SafeSayLinux extends Linux {
    /** Festival's Duration_Stretch for this utterance (1 / speed). */
    stretch = 1;

    /** Escaping happens here, next to the string say builds, whatever the caller did. */
    override buildSpeakCommand(input: { text: string; voice: string | null; speed: number | null }): SayCommand {
      const voice = input.voice ?? '';
      if (!/^voice_[a-z0-9_]{1,64}$/.test(voice)) throw new Error(`refusing festival voice form '${voice}'`);
      // say's own speed changes aplay's sample rate (pitch and all); festival's Duration_Stretch
      // changes tempo only, and matches what text2wave renders for the same speed.
      const built = super.buildSpeakCommand({ text: schemeString(input.text), voice, speed: null });
      built.pipedData = `(Parameter.set 'Duration_Stretch ${this.stretch.toFixed(3)}) ${built.pipedData}`;
      built.options = { ...built.options, detached: true };
      return built;
    }
  };
  return safeSayClass;
}

/** Festival language names to ISO 639-1, for the voices Debian packages (festvox-*). */
const LANGUAGES: Readonly<Record<string, string>> = {
  english: 'en',
  american: 'en',
  british: 'en',
  spanish: 'es',
  italian: 'it',
  czech: 'cs',
  finnish: 'fi',
  russian: 'ru',
  hindi: 'hi',
  marathi: 'mr',
  telugu: 'te',
  catalan: 'ca',
  welsh: 'cy',
  german: 'de',
  french: 'fr',
};
const REGIONS: Readonly<Record<string, string>> = { american: 'US', british: 'GB', scottish: 'GB', us: 'US', uk: 'GB' };

// One line per voice: name, language, gender, dialect (each 'nil' when the voice does not say).
const LIST_VOICES =
  "(mapcar (lambda (v) (let ((d (cadr (voice.description v)))) (format t \"%s\\t%s\\t%s\\t%s\\n\" v (cadr (assoc 'language d)) (cadr (assoc 'gender d)) (cadr (assoc 'dialect d))))) (voice.list))\n";

/** Parses LIST_VOICES output into catalogue voices. */
export function parseFestivalVoices(output: string): EngineVoice[] {
  const voices: EngineVoice[] = [];
  for (const line of output.split('\n')) {
    const [name = '', lang = 'nil', gender = 'nil', dialect = 'nil'] = line.trim().split('\t');
    if (!FESTIVAL_NAME.test(name)) continue;
    const language = LANGUAGES[lang.toLowerCase()] ?? (/^[a-z]{2}$/.test(lang) ? lang : 'und');
    const region = REGIONS[dialect.toLowerCase()] ?? REGIONS[lang.toLowerCase()];
    const g = gender.toLowerCase();
    voices.push({
      id: name,
      name: `${name} (festival${lang === 'nil' ? '' : `, ${lang}${dialect === 'nil' ? '' : ` ${dialect}`}`})`,
      language,
      locale: region && language !== 'und' ? `${language}-${region}` : language,
      gender: g === 'male' || g === 'female' ? g : 'unknown',
      engineName: name,
      serves: new Map([[language, 5]]),
    });
  }
  return voices;
}

export class SayEngine implements SpeechEngine {
  readonly id = 'say' as const;
  readonly packages = 'festival festvox-kallpc16k';
  private voices: Promise<readonly EngineVoice[]> | null = null;
  private readonly spares = new SparePool('text2wave');

  listVoices(): Promise<readonly EngineVoice[]> {
    this.voices ??= run('festival', ['--pipe'], { input: LIST_VOICES, signal: AbortSignal.timeout(30_000) }).then(
      ({ stdout }) => parseFestivalVoices(stdout.toString('utf8')),
      (err: unknown) => {
        this.voices = null;
        throw err;
      },
    );
    return this.voices;
  }

  private async festivalName(voiceId: string): Promise<string> {
    const name = findVoice(this.id, await this.listVoices(), voiceId).engineName;
    if (!FESTIVAL_NAME.test(name)) throw new Error(`festival voice name '${name}' is not a plain symbol`);
    return name;
  }

  async speak(text: string, voiceId: string, speed: number, signal?: AbortSignal): Promise<void> {
    const name = await this.festivalName(voiceId);
    signal?.throwIfAborted();
    const Say = safeSay();
    const say = new Say() as SayPlatform & { stretch: number };
    say.stretch = 1 / clampSpeed(speed);
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        if (say.child) killGroup(say.child);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      try {
        say.speak(text, `voice_${name}`, null, (err) => {
          signal?.removeEventListener('abort', onAbort);
          if (err && say.child) killGroup(say.child);
          if (err) reject(new Error(`festival could not speak: ${String(err.message).trim()}`));
          else resolve();
        });
        // say fails an utterance on festival's first line of stderr, and festival writes warnings
        // there about things it handles ("UniSyn: using default diphone ax-ax for w-s" for some
        // letter runs): the utterance is spoken all the same. A festival that dies still fails
        // it through say's exit check.
        say.child?.stderr?.removeAllListeners('data').resume();
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async synthesize(text: string, voiceId: string, speed: number, signal?: AbortSignal): Promise<Uint8Array> {
    const name = await this.festivalName(voiceId);
    const stretch = (1 / clampSpeed(speed)).toFixed(3);
    const args = ['-eval', `(voice_${name})`, '-eval', `(Parameter.set 'Duration_Stretch ${stretch})`, '-otype', 'riff'];
    try {
      // text2wave reads plain text from stdin: it is never evaluated as Scheme.
      const { stdout } = await this.spares.take(args).finish(`${cleanText(text)}\n`, signal);
      return fixWavSizes(new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.byteLength));
    } finally {
      this.spares.refill(args);
    }
  }

  close(): void {
    this.spares.close();
  }
}
