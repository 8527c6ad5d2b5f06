/**
 * What speech output finds on the machine at start: the engine, its voices and whether aplay is
 * there. Each is a process spawn (5-30 ms): the hub begins them before anything else
 * (host-probes.ts), so they run beside its start rather than in its way to its first answer.
 */
import type { Config } from '../../config.js';
import type { EngineVoice } from './engines/engine.js';
import { isInstalled } from './engines/process.js';
import { type EngineChoice, selectEngine } from './engines/select.js';

export interface SpeechProbe {
  readonly choice: EngineChoice;
  /** The engine's voices, or why it could not list them; null without an engine. */
  readonly catalogue: { readonly voices: readonly EngineVoice[] } | { readonly error: Error } | null;
  /** Whether aplay answers; asked only when audio goes to the sound card. */
  readonly aplay: Promise<boolean>;
}

export function probeSpeech(config: Pick<Config, 'speechEngine' | 'audioOut'>): Promise<SpeechProbe> {
  // Asked beside the engine's probe: isInstalled never rejects.
  const aplay = config.audioOut === 'default' ? isInstalled('aplay', ['--version']) : Promise.resolve(false);
  return selectEngine(config.speechEngine).then(async (choice) => {
    if (!choice.engine) return { choice, catalogue: null, aplay };
    try {
      return { choice, catalogue: { voices: await choice.engine.listVoices() }, aplay };
    } catch (err) {
      return { choice, catalogue: { error: err as Error }, aplay };
    }
  });
}
