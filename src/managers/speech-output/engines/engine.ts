/**
 * The one interface every speech engine implements (espeak-ng, the `say` package), the Voice
 * record the API returns, and the text clean-up every engine applies before text leaves the hub.
 */
import { z } from 'zod';

export const ENGINE_IDS = ['espeak-ng', 'say'] as const;
export type EngineId = (typeof ENGINE_IDS)[number];

/** Voice ids are path segments and engine arguments: keep them to a harmless alphabet. */
export const VOICE_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export const Voice = z.object({
  id: z.string().regex(VOICE_ID),
  name: z.string(),
  /** ISO 639 primary language, e.g. 'en'. */
  language: z.string(),
  /** BCP-47 tag, e.g. 'en-US'. */
  locale: z.string(),
  gender: z.enum(['male', 'female', 'unknown']),
});
export type Voice = z.infer<typeof Voice>;

/** A voice as the engine offers it: the public record plus what the engine needs to select it. */
export interface EngineVoice extends Voice {
  /** Engine-side name, passed to the engine only after it was found in the engine's own list. */
  readonly engineName: string;
  /** Languages this voice serves, with the engine's priority (lower is preferred). */
  readonly serves: ReadonlyMap<string, number>;
}

export interface SpeechEngine {
  readonly id: EngineId;
  /** Debian package(s) that provide the engine, for "install X" messages. */
  readonly packages: string;
  /** Every voice the engine offers (its catalogue), read once and cached. */
  listVoices(): Promise<readonly EngineVoice[]>;
  /**
   * Speaks through the sound card, resolving when done. `speed` multiplies the engine's
   * normal rate (0.5..2). Rejects for a voice id the engine does not list.
   */
  speak(text: string, voiceId: string, speed: number, signal?: AbortSignal): Promise<void>;
  /** Renders to a complete RIFF/WAV file (header sizes filled in). */
  synthesize(text: string, voiceId: string, speed: number, signal?: AbortSignal): Promise<Uint8Array>;
  /** Ends any process the engine keeps ready (hub stopping). */
  close(): void;
}

/** An engine was asked for a voice its own list does not contain. */
export class UnknownVoiceError extends Error {
  constructor(
    readonly engine: EngineId,
    readonly voiceId: string,
  ) {
    super(`${engine} has no voice '${voiceId}'`);
    this.name = 'UnknownVoiceError';
  }
}

// C0 and C1 controls, DEL, and Unicode line/paragraph separators: none is speakable and several
// end a line in a tool's input (a line break would split festival input into a new command).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * The text an engine receives: control characters become spaces, runs of space collapse, and a
 * leading '-' is shielded by a space so no tool can read the text as an option.
 *
 * @example cleanText('--version\nnow') // ' --version now'
 */
export function cleanText(text: string): string {
  const flat = text.replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();
  return flat.startsWith('-') ? ` ${flat}` : flat;
}

export const clampSpeed = (speed: number): number => Math.min(2, Math.max(0.5, Number.isFinite(speed) ? speed : 1));

/** Finds a voice in an engine's own list: the whitelist every engine argument passes. */
export function findVoice(engine: EngineId, voices: readonly EngineVoice[], voiceId: string): EngineVoice {
  const voice = voices.find((v) => v.id === voiceId);
  if (!voice) throw new UnknownVoiceError(engine, voiceId);
  return voice;
}

/** Canonical BCP-47 form of a tag an engine reports ('en-gb-x-rp' -> 'en-GB-x-rp'), or the input. */
export function canonicalLocale(tag: string): string {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? tag;
  } catch {
    return tag;
  }
}
