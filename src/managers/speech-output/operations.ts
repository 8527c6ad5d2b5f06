/**
 * The speech-output handlers: each operation of the contract (contract.ts) as a call into the
 * speech service; `say` with synthesize answers the audio instead of playing it.
 */
import { implement, type Operation, RawResult } from '../../core/operation.js';
import { speechOutputContract } from './contract.js';
import type { SpeechService } from './service.js';

export function voiceOperations(service: SpeechService): Operation[] {
  return implement(speechOutputContract.operations, {
    getVoices: () => service.getVoices(),
    getVoice: ({ params }) => service.getVoice(params.id),
    installVoice: ({ body }) => service.installVoice(body.id),
    uninstallVoice: ({ params }) => service.uninstallVoice(params.id),
    playVoiceSample: ({ params }, ctx) => service.playSample(params.id, { signal: ctx.signal }),
    say: async ({ body }, ctx) => {
      const opts = { timeout: body.timeout, session: body.session, signal: ctx.signal };
      if (body.synthesize) return new RawResult('audio/wav', await service.synthesize(body.text, opts));
      return service.say(body.text, opts);
    },
    getVoiceCatalog: () => service.catalogue(),
  });
}
