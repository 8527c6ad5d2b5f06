/**
 * The speech-output contract: voices (installed, the engine's catalogue, install, remove, a
 * sample), say, the speed and voice options, and the events of voices.
 */
import { z } from 'zod';
import { defineContract, lazy, op } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';
import { Voice } from './engines/engine.js';
import { SPEECH_OPTIONS } from './options.js';

export const MAX_TEXT = 1000;
export const MAX_TIMEOUT_S = 600;

const VoiceId = lazy(() => z.object({ id: z.string().min(1).max(64) }));
const VoiceMap = lazy(() => z.record(z.string(), Voice));
const Spoken = lazy(() =>
  z.object({
    voice: z.string().describe('id of the voice that spoke'),
    durationMs: z.number().int().describe('length of the spoken audio in milliseconds'),
  }),
);

export const SayBody = lazy(() =>
  z.strictObject({
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
  }),
);

export const speechOutputContract = defineContract({
  name: 'speech-output',
  eventScope: 'service.system',
  options: SPEECH_OPTIONS,
  events: lazy(() => resourceEvents('voice', Voice)),
  operations: {
    getVoices: op(
      {
        method: 'GET',
        path: '/voice/',
        scope: 'service.system',
        summary: 'The installed voices, keyed by id',
      },
      () => ({
        output: VoiceMap(),
      }),
    ),
    getVoice: op(
      {
        method: 'GET',
        path: '/voice/:id',
        scope: 'service.system',
        summary: 'One installed voice',
      },
      () => ({
        params: VoiceId(),
        output: Voice,
      }),
    ),
    installVoice: op(
      {
        method: 'POST',
        path: '/voice',
        scope: 'service.system',
        summary: 'Install a voice from the engine catalogue (GET /catalog); answers the voice',
      },
      () => ({
        body: VoiceId(),
        output: Voice,
      }),
    ),
    uninstallVoice: op(
      {
        method: 'DELETE',
        path: '/voice/:id',
        scope: 'service.system',
        summary: 'Uninstall a voice; the voice option returns to its default if it named this voice',
        status: 204,
      },
      () => ({
        params: VoiceId(),
      }),
    ),
    playVoiceSample: op(
      {
        method: 'POST',
        path: '/voice/:id/sample',
        scope: 'service.system',
        summary: "Speak a sample sentence in the voice's language (any catalogue voice); answers once spoken",
      },
      () => ({
        params: VoiceId(),
        output: Spoken(),
      }),
    ),
    say: op(
      {
        method: 'POST',
        path: '/say',
        scope: 'service.speech',
        summary:
          'Speak text (queued, one at a time) and answer {voice, durationMs} once spoken; with synthesize: true ' +
          'answer the audio/wav instead of playing it. timeout is in seconds (waiting plus speaking, 504 when exceeded); ' +
          'a newer utterance of the same session replaces one that is still waiting (409)',
        produces: 'audio/wav',
      },
      () => ({
        body: SayBody(),
        output: Spoken(),
      }),
    ),
    getVoiceCatalog: op(
      {
        method: 'GET',
        path: '/catalog',
        scope: 'service.system',
        extension: true,
        summary: 'Every voice the speech engine offers (installable with POST /voice), keyed by id',
      },
      () => ({
        output: VoiceMap(),
      }),
    ),
  },
});
