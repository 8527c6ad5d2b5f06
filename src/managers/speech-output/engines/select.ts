/**
 * Picks the speech engine from config.speechEngine: `auto` takes espeak-ng when installed, then
 * festival through the `say` package; `none`, or nothing installed, gives no engine and a
 * sentence saying what to install (speech operations then answer 503 with it).
 */
import type { Config } from '../../../config.js';
import type { SpeechEngine } from './engine.js';
import { EspeakEngine } from './espeak.js';
import { SayEngine } from './festival.js';
import { isInstalled } from './process.js';

export type EngineChoice = { readonly engine: SpeechEngine } | { readonly engine: null; readonly reason: string };

const ESPEAK_HINT = 'install the espeak-ng package (apt-get install espeak-ng)';
const FESTIVAL_HINT = 'install festival and a voice (apt-get install festival festvox-kallpc16k)';

async function espeak(): Promise<SpeechEngine | null> {
  return (await isInstalled('espeak-ng', ['--version'])) ? new EspeakEngine() : null;
}

async function festival(): Promise<SpeechEngine | null> {
  // The say package drives festival only on Linux here; its macOS/Windows paths are not used.
  if (process.platform !== 'linux') return null;
  const ok = (await isInstalled('festival', ['--version'])) && (await isInstalled('text2wave', ['-h']));
  return ok ? new SayEngine() : null;
}

export async function selectEngine(setting: Config['speechEngine']): Promise<EngineChoice> {
  switch (setting) {
    case 'none':
      return { engine: null, reason: 'speech output is turned off (--speech-engine none); start hearth with --speech-engine auto' };
    case 'espeak-ng': {
      const engine = await espeak();
      return engine ? { engine } : { engine: null, reason: `espeak-ng is not installed; ${ESPEAK_HINT}` };
    }
    case 'say': {
      const engine = await festival();
      return engine ? { engine } : { engine: null, reason: `festival (used by --speech-engine say) is not installed; ${FESTIVAL_HINT}` };
    }
    case 'auto': {
      const engine = (await espeak()) ?? (await festival());
      return engine ? { engine } : { engine: null, reason: `no speech engine is installed; ${ESPEAK_HINT}, or ${FESTIVAL_HINT}` };
    }
  }
}
