/**
 * The speech-output operation table: voices (installed and the engine's catalogue), samples and
 * say. The speed and voice options come from the shared option helper (see index.ts).
 */
import { z } from 'zod';
import { defineOperation, RawResult, type Operation } from '../../core/operation.js';
import { Voice } from './engines/engine.js';
import { MAX_TEXT, MAX_TIMEOUT_S, type SpeechService } from './service.js';

const VoiceId = z.object({ id: z.string().min(1).max(64) });
const VoiceMap = z.record(z.string(), Voice);
const Spoken = z.object({
  voice: z.string().describe('id of the voice that spoke'),
  durationMs: z.number().int().describe('length of the spoken audio in milliseconds'),
});

export const SayBody = z.strictObject({
  text: z
    .string({ error: 'text must be a string' })
    .min(1, { error: 'text must not be empty' })
    .max(MAX_TEXT, { error: `text may be at most ${MAX_TEXT} characters` }),
  synthesize: z.boolean({ error: 'synthesize must be true or false' }).optional(),
  timeout: z
    .number({ error: 'timeout must be a number of seconds' })
    .min(1, { error: `timeout is in seconds, from 1 to ${MAX_TIMEOUT_S}` })
    .max(MAX_TIMEOUT_S, { error: `timeout is in seconds, from 1 to ${MAX_TIMEOUT_S}` })
    .optional(),
  session: z.string({ error: 'session must be a string' }).min(1).max(100).optional(),
});

export function voiceOperations(service: SpeechService): Operation[] {
  return [
    defineOperation({
      id: 'getVoices',
      method: 'GET',
      path: '/voice/',
      scope: 'service.system',
      summary: 'The installed voices, keyed by id',
      output: VoiceMap,
      handler: () => service.getVoices(),
    }),
    defineOperation({
      id: 'getVoice',
      method: 'GET',
      path: '/voice/:id',
      scope: 'service.system',
      summary: 'One installed voice',
      params: VoiceId,
      output: Voice,
      handler: ({ params }) => service.getVoice(params.id),
    }),
    defineOperation({
      id: 'installVoice',
      method: 'POST',
      path: '/voice',
      scope: 'service.system',
      summary: 'Install a voice from the engine catalogue (GET /catalog); answers the voice',
      body: VoiceId,
      output: Voice,
      handler: ({ body }) => service.installVoice(body.id),
    }),
    defineOperation({
      id: 'uninstallVoice',
      method: 'DELETE',
      path: '/voice/:id',
      scope: 'service.system',
      summary: 'Uninstall a voice; the voice option returns to its default if it named this voice',
      params: VoiceId,
      status: 204,
      handler: ({ params }) => service.uninstallVoice(params.id),
    }),
    defineOperation({
      id: 'playVoiceSample',
      method: 'POST',
      path: '/voice/:id/sample',
      scope: 'service.system',
      summary: "Speak a sample sentence in the voice's language (any catalogue voice); answers once spoken",
      params: VoiceId,
      output: Spoken,
      handler: ({ params }, ctx) => service.playSample(params.id, { signal: ctx.signal }),
    }),
    defineOperation({
      id: 'say',
      method: 'POST',
      path: '/say',
      scope: 'service.speech',
      summary:
        'Speak text (queued, one at a time) and answer {voice, durationMs} once spoken; with synthesize: true ' +
        'answer the audio/wav instead of playing it. timeout is in seconds (waiting plus speaking, 504 when exceeded); ' +
        'a newer utterance of the same session replaces one that is still waiting (409)',
      body: SayBody,
      output: Spoken,
      handler: async ({ body }, ctx) => {
        const opts = { timeout: body.timeout, session: body.session, signal: ctx.signal };
        if (body.synthesize) return new RawResult('audio/wav', await service.synthesize(body.text, opts));
        return service.say(body.text, opts);
      },
    }),
    defineOperation({
      id: 'getVoiceCatalog',
      method: 'GET',
      path: '/catalog',
      scope: 'service.system',
      extension: true,
      summary: 'Every voice the speech engine offers (installable with POST /voice), keyed by id',
      output: VoiceMap,
      handler: () => service.catalogue(),
    }),
  ];
}
