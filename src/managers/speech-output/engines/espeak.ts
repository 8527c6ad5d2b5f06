/**
 * espeak-ng, the default engine on Debian and Raspberry Pi OS. Text always travels on stdin
 * (`--stdin`), never as an argument, so nothing a user writes can be read as an option; the
 * voice passed to `-v` is always one espeak-ng itself listed.
 */
import { fixWavSizes } from '../wav.js';
import { canonicalLocale, clampSpeed, cleanText, type EngineVoice, findVoice, type SpeechEngine, VOICE_ID } from './engine.js';
import { run, SparePool } from './process.js';

/** espeak-ng's normal rate in words per minute (its `-s` default). */
const BASE_WPM = 175;
const COMMAND = 'espeak-ng';

const gender = (g: string): EngineVoice['gender'] => (g === 'M' ? 'male' : g === 'F' ? 'female' : 'unknown');

interface Row {
  readonly language: string;
  readonly gender: string;
  readonly name: string;
  readonly file: string;
  readonly priority: number;
  readonly others: ReadonlyMap<string, number>;
}

function parseRow(line: string): Row | null {
  // " 5  en-us  --/M  English_(America)  gmw/en-US  (en 3)": names use '_' for spaces, so
  // whitespace splits the columns; "Other Languages" is zero or more "(lang priority)" groups.
  const m = /^\s*(\d+)\s+(\S+)\s+\S*\/(\S)\s+(\S+)\s+(\S+)\s*(.*)$/.exec(line);
  if (!m) return null;
  const others = new Map<string, number>();
  for (const o of m[6]!.matchAll(/\((\S+) (\d+)\)/g)) others.set(o[1]!, Number(o[2]));
  return { priority: Number(m[1]), language: m[2]!, gender: m[3]!, name: m[4]!, file: m[5]!, others };
}

/**
 * Turns `espeak-ng --voices` output into catalogue voices. The id is the language column; where
 * two voices share a language (yue), each takes its file's name instead (yue, yue-latn-jyutping).
 */
export function parseEspeakVoices(output: string): EngineVoice[] {
  const rows = output
    .split('\n')
    .slice(1)
    .map(parseRow)
    .filter((r): r is Row => r !== null);
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.language, (count.get(r.language) ?? 0) + 1);
  const voices: EngineVoice[] = [];
  const taken = new Set<string>();
  for (const r of rows) {
    const base = (count.get(r.language) === 1 ? r.language : (r.file.split('/').pop() ?? r.language)).toLowerCase();
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    if (!VOICE_ID.test(id)) continue;
    taken.add(id);
    const serves = new Map(r.others);
    serves.set(r.language, Math.min(serves.get(r.language) ?? r.priority, r.priority));
    voices.push({
      id,
      name: r.name.replace(/_/g, ' '),
      language: r.language.split('-')[0]!,
      locale: canonicalLocale(r.language),
      gender: gender(r.gender),
      engineName: r.file,
      serves,
    });
  }
  return voices;
}

export class EspeakEngine implements SpeechEngine {
  readonly id = 'espeak-ng' as const;
  readonly packages = 'espeak-ng';
  private voices: Promise<readonly EngineVoice[]> | null = null;
  private readonly spares = new SparePool(COMMAND);

  listVoices(): Promise<readonly EngineVoice[]> {
    this.voices ??= run(COMMAND, ['--voices'], { signal: AbortSignal.timeout(15_000) }).then(
      ({ stdout }) => parseEspeakVoices(stdout.toString('utf8')),
      (err: unknown) => {
        this.voices = null; // let the next call retry rather than caching a failure
        throw err;
      },
    );
    return this.voices;
  }

  private async args(voiceId: string, speed: number): Promise<string[]> {
    const voice = findVoice(this.id, await this.listVoices(), voiceId);
    const wpm = Math.round(BASE_WPM * clampSpeed(speed));
    return ['-v', voice.engineName, '-s', String(wpm), '--stdin'];
  }

  async speak(text: string, voiceId: string, speed: number, signal?: AbortSignal): Promise<void> {
    const args = await this.args(voiceId, speed);
    await run(COMMAND, args, { input: cleanText(text), ...(signal && { signal }) });
  }

  async synthesize(text: string, voiceId: string, speed: number, signal?: AbortSignal): Promise<Uint8Array> {
    const args = [...(await this.args(voiceId, speed)), '--stdout'];
    try {
      const { stdout } = await this.spares.take(args).finish(cleanText(text), signal);
      // --stdout streams, so the header carries placeholder sizes; players and sox want real ones.
      return fixWavSizes(new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.byteLength));
    } finally {
      this.spares.refill(args);
    }
  }

  close(): void {
    this.spares.close();
  }
}
