/**
 * Turns what a speech tool or the audio sink threw into an answer a person can act on. A tool
 * that crashes or fails on a text is the engine's fault, not the hub's: 502, never 500, and the
 * text that did it goes to the log so it can be reported (festival's text2wave dies with SIGSEGV
 * on some inputs, e.g. 300 cent signs).
 */
import type { Logger } from 'pino';
import { HearthError, unavailable } from '../../core/errors.js';
import { type SpeechEngine, UnknownVoiceError } from './engines/engine.js';
import { MissingToolError, ProcessError } from './engines/process.js';

/** Characters of the failing text kept in the log line: enough to reproduce, bounded. */
const LOGGED_TEXT = 2000;

export interface FailureContext {
  readonly engine: Pick<SpeechEngine, 'id' | 'packages'>;
  readonly voice: string;
  readonly text: string;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/** For `.catch()` on an engine call: rethrows `err` as a HearthError. */
export function engineFailure(ctx: FailureContext): (err: unknown) => never {
  return (err) => {
    // Cancelled (timeout, replaced, caller gone): the queue's own reason says why.
    if (err instanceof HearthError || ctx.signal.aborted) throw err;
    const { engine, voice } = ctx;
    if (err instanceof UnknownVoiceError) {
      throw unavailable(`voice '${voice}' is installed but ${engine.id} no longer offers it; uninstall it or reinstall ${engine.packages}`);
    }
    if (err instanceof MissingToolError) throw unavailable(`${err.command} is no longer installed; install ${engine.packages} and alsa-utils`);
    const why = err instanceof Error ? err.message : String(err);
    ctx.log.error({ engine: engine.id, voice, text: ctx.text.slice(0, LOGGED_TEXT), reason: why }, 'speech engine failed on a text');
    throw new HearthError(
      'bad_gateway',
      `speech engine '${engine.id}' failed on this text (${why.split('\n')[0]}); the text is in the hub's log. Try other wording or another voice`,
    );
  };
}

/** For `.catch()` on the sink: the sound card or the WAV folder could not take the utterance. */
export function sinkFailure(signal: AbortSignal): (err: unknown) => never {
  return (err) => {
    if (err instanceof HearthError || signal.aborted) throw err;
    if (err instanceof ProcessError) throw unavailable(`the sound card could not play the utterance: ${err.message}`);
    if (err instanceof MissingToolError) throw unavailable(`${err.command} is no longer installed; install alsa-utils`);
    const code = (err as NodeJS.ErrnoException).code;
    throw unavailable(`the utterance could not be written to the audio folder${code ? ` (${code})` : ''}; check the folder and the free space`);
  };
}
