/**
 * The speech-output service: picks the engine, keeps voices, and speaks. Spoken utterances go
 * one at a time through the say queue to the sink (sound card or WAV folder); synthesis
 * requests run beside it (two at a time) and return the WAV. Rendered audio is cached on disk.
 * Apps reach `say()` through the SDK router; HTTP reaches everything through operations.ts.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { diff } from '../../core/diff.js';
import { invalid, notFound, unavailable } from '../../core/errors.js';
import type { ManagerName } from '../../core/managers.js';
import type { Store } from '../../core/store.js';
import type { HubBus } from '../bus.js';
import { cacheKey, SpeechCache } from './cache.js';
import { MAX_TEXT, MAX_TIMEOUT_S } from './contract.js';
import { cleanText, type EngineVoice, type SpeechEngine, type Voice } from './engines/engine.js';
import { engineFailure, sinkFailure } from './failures.js';
import { speedMultiplier } from './options.js';
import { probeSpeech, type SpeechProbe } from './probe.js';
import { SayQueue } from './queue.js';
import { sampleSentence } from './samples.js';
import { type AudioFormat, type AudioSink, CardSink, FolderSink } from './sink.js';
import { bestVoiceFor, VoiceRegistry } from './voices.js';
import { wavInfo } from './wav.js';

export const MANAGER = 'speech-output' satisfies ManagerName;
/** Without a `timeout`, an utterance still may not wait and speak longer than this. */
const DEFAULT_TIMEOUT_S = MAX_TIMEOUT_S;
const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/** The option reads and resets this service needs (the hub's OptionService fits). */
export interface OptionAccess {
  get<T = unknown>(manager: ManagerName, name: string): T;
  unset(manager: ManagerName, name: string): Promise<void>;
}

export interface SpeechDeps {
  readonly config: Pick<Config, 'audioOut' | 'speechEngine' | 'dataDir'>;
  readonly store: Store;
  readonly bus: HubBus;
  readonly log: Logger;
  readonly options: OptionAccess;
  /** The hub's language (i18n option), e.g. 'en'. */
  readonly language: () => string;
  readonly cacheBytes?: number;
  /** The machine's probe begun by the hub (host-probes.ts); made in start() without one. */
  readonly probe?: Promise<SpeechProbe>;
}

export interface SayOptions {
  /** Seconds (1..600) for waiting plus speaking; 504 when exceeded. */
  readonly timeout?: number | undefined;
  /** A newer utterance of the same session replaces this one while it still waits (409). */
  readonly session?: string | undefined;
  /** Aborted when the caller goes away: a waiting utterance is dropped. */
  readonly signal?: AbortSignal | undefined;
}

export interface Spoken {
  readonly voice: string;
  readonly durationMs: number;
}

interface Ready {
  readonly engine: SpeechEngine;
  readonly voices: VoiceRegistry;
  readonly catalogue: readonly EngineVoice[];
  readonly cache: SpeechCache;
  /** null: no aplay for the sound card, so the engine speaks itself. */
  readonly sink: AudioSink | null;
}

export class SpeechService {
  private ready: Ready | null = null;
  private probing: Promise<SpeechProbe> | undefined;
  private reason = 'speech output has not started';
  private readonly playQueue = new SayQueue(1);
  private readonly synthQueue = new SayQueue(2);

  constructor(private readonly deps: SpeechDeps) {
    this.probing = deps.probe;
  }

  async start(): Promise<void> {
    const { config, log } = this.deps;
    // The hub's probe on the first start (host-probes.ts), a new one on a later start.
    const probe = await (this.probing ?? probeSpeech(config));
    this.probing = undefined;
    const { choice } = probe;
    if (!choice.engine) {
      this.reason = choice.reason;
      log.warn({ speechEngine: config.speechEngine }, choice.reason);
      return;
    }
    const engine = choice.engine;
    if (probe.catalogue && 'error' in probe.catalogue) {
      const err = probe.catalogue.error;
      this.reason = `${engine.id} is installed but could not list its voices (${err.message}); reinstall ${engine.packages}`;
      log.error({ err }, this.reason);
      return;
    }
    const catalogue = probe.catalogue?.voices ?? [];
    const voices = new VoiceRegistry(this.deps.store, engine.id, catalogue);
    for (const { before, after } of await voices.refresh()) {
      this.deps.bus.publish(MANAGER, 'voice.update', after, diff(before, after));
    }
    if (voices.firstStart) {
      const first = bestVoiceFor(catalogue, this.language());
      if (first) await this.publishInstall(voices, first);
      await voices.markStarted();
    }
    const cache = new SpeechCache(join(config.dataDir, 'speech-cache'), this.deps.cacheBytes ?? DEFAULT_CACHE_BYTES);
    await cache.open();
    const sink = await this.openSink(probe.aplay);
    this.ready = { engine, voices, catalogue, cache, sink };
    log.info({ engine: engine.id, voices: catalogue.length, audioOut: sink?.description ?? `${engine.id} itself` }, 'speech output ready');
  }

  async stop(): Promise<void> {
    this.playQueue.close();
    this.synthQueue.close();
    this.ready?.engine.close();
    await this.ready?.cache.flush();
    this.ready = null;
    this.reason = 'speech output has stopped';
  }

  private async openSink(aplay: Promise<boolean>): Promise<AudioSink | null> {
    const { audioOut } = this.deps.config;
    if (audioOut !== 'default') return new FolderSink(audioOut);
    if (await aplay) return new CardSink();
    this.deps.log.warn('aplay is not installed (apt-get install alsa-utils); the engine plays audio itself, without the cache');
    return null;
  }

  private language(): string {
    try {
      return this.deps.language() || 'en';
    } catch {
      return 'en';
    }
  }

  /** The engine etc., or 503 naming what to install. */
  private need(): Ready {
    if (!this.ready) throw unavailable(this.reason);
    return this.ready;
  }

  /** Resolves once background work (cache writes) is done. */
  async settled(): Promise<void> {
    await this.ready?.cache.flush();
  }

  get engineId(): string | null {
    return this.ready?.engine.id ?? null;
  }

  /** A glance at the manager, for logs and a system state view. */
  status(): Record<string, unknown> {
    const r = this.ready;
    return {
      engine: r?.engine.id ?? null,
      available: r !== null,
      ...(r ? {} : { reason: this.reason }),
      audioOut: r ? (r.sink?.description ?? `${r.engine.id} itself`) : null,
      installedVoices: r ? Object.keys(r.voices.installed()).length : 0,
      queue: this.playQueue.length,
      cache: r?.cache.size ?? null,
    };
  }

  // ---- voices ---------------------------------------------------------------------------

  catalogue(): Record<string, Voice> {
    return Object.fromEntries(
      this.need()
        .voices.catalogueVoices()
        .map((v) => [v.id, v]),
    );
  }

  getVoices(): Record<string, Voice> {
    return this.need().voices.installed();
  }

  getVoice(id: string): Voice {
    const voice = this.need().voices.get(id);
    if (!voice) throw notFound(`voice '${id}' is not installed; GET /api/manager/speech-output/voice lists the installed ones`);
    return voice;
  }

  async installVoice(id: string): Promise<Voice> {
    const r = this.need();
    const voice = r.voices.findInCatalogue(id);
    if (!voice) {
      throw notFound(`${r.engine.id} offers no voice '${id}'; GET /api/manager/speech-output/catalog lists the voices it offers`);
    }
    return this.publishInstall(r.voices, voice);
  }

  private async publishInstall(voices: VoiceRegistry, voice: EngineVoice): Promise<Voice> {
    const { voice: record, created } = await voices.install(voice);
    if (created) this.deps.bus.publish(MANAGER, 'voice.create', record);
    return record;
  }

  async uninstallVoice(id: string): Promise<Voice> {
    const r = this.need();
    const voice = await r.voices.uninstall(id);
    if (!voice) throw notFound(`voice '${id}' is not installed`);
    if (this.deps.options.get<string | null>(MANAGER, 'voice') === id) await this.deps.options.unset(MANAGER, 'voice');
    this.deps.bus.publish(MANAGER, 'voice.delete', voice);
    return voice;
  }

  /** Why `id` cannot be the voice option, or null (option validation). */
  voiceProblem(id: string): string | null {
    if (!this.ready) return this.reason;
    if (this.ready.voices.get(id)) return null;
    const ids = Object.keys(this.ready.voices.installed());
    const pick = ids.length > 0 ? `pick one of: ${ids.join(', ')}` : 'no voice is installed yet';
    return `voice '${id}' is not installed; install it with POST /api/manager/speech-output/voice or ${pick}`;
  }

  /**
   * The voice text is spoken in: the voice option when it is installed and offered, else the
   * installed voice that best serves the hub's language, else any installed voice, else the
   * engine's own best voice for the language.
   */
  currentVoice(): string {
    const r = this.need();
    const chosen = this.deps.options.get<string | null>(MANAGER, 'voice');
    if (chosen && r.voices.get(chosen) && r.voices.findInCatalogue(chosen)) return chosen;
    const installed = Object.keys(r.voices.installed())
      .map((id) => r.voices.findInCatalogue(id))
      .filter((v): v is EngineVoice => v !== undefined);
    const lang = this.language();
    const voice = bestVoiceFor(installed, lang) ?? installed[0] ?? bestVoiceFor(r.catalogue, lang) ?? r.catalogue[0];
    if (!voice) throw unavailable(`${r.engine.id} offers no voices; install ${r.engine.packages}`);
    return voice.id;
  }

  private speed(): number {
    return speedMultiplier(this.deps.options.get<unknown>(MANAGER, 'speed'));
  }

  // ---- speaking -------------------------------------------------------------------------

  /**
   * Speaks `text` in the current voice and speed; resolves once it has been spoken.
   *
   * @example await speech.say('The washing machine is done', { session: 'laundry', timeout: 30 })
   */
  async say(text: string, opts: SayOptions = {}): Promise<Spoken> {
    const r = this.need();
    return this.speakWith(r, checkText(text), this.currentVoice(), opts);
  }

  /** Renders `text` to WAV bytes without playing it. */
  async synthesize(text: string, opts: SayOptions = {}): Promise<Uint8Array> {
    const r = this.need();
    const clean = checkText(text);
    const voice = this.currentVoice();
    const speed = this.speed();
    return this.synthQueue.enqueue({
      session: opts.session,
      timeoutMs: timeoutMs(opts.timeout),
      signal: opts.signal,
      run: (signal) => this.render(r, clean, voice, speed, signal),
    });
  }

  /** Speaks the language's sample sentence in any catalogue voice (to try it before installing). */
  async playSample(id: string, opts: SayOptions = {}): Promise<Spoken> {
    const r = this.need();
    const voice = r.voices.findInCatalogue(id);
    if (!voice) throw notFound(`${r.engine.id} offers no voice '${id}'; GET /api/manager/speech-output/catalog lists them`);
    return this.speakWith(r, sampleSentence(voice.locale), voice.id, opts);
  }

  /**
   * Plays an app's sample (`homey.audio.playWav/playMp3`) through the sink, in turn with speech.
   * The bytes must be what their format says (a RIFF/WAVE header, or an MP3 frame or ID3 tag).
   */
  async playAudio(format: AudioFormat, audio: Uint8Array): Promise<void> {
    const r = this.need();
    if (!isFormat(format, audio)) throw invalid(`the sample is not ${format === 'wav' ? 'a WAV file (no RIFF/WAVE header)' : 'an MP3 file'}`);
    const sink = r.sink;
    if (!sink) throw unavailable('there is no audio output: install aplay (apt-get install alsa-utils) or start the hub with --audio-out <folder>');
    await this.playQueue.enqueue({
      timeoutMs: DEFAULT_TIMEOUT_S * 1000,
      run: async (signal) => {
        await sink.play(audio, signal, format).catch(sinkFailure(signal));
      },
    });
  }

  private speakWith(r: Ready, text: string, voice: string, opts: SayOptions): Promise<Spoken> {
    const speed = this.speed();
    return this.playQueue.enqueue({
      session: opts.session,
      timeoutMs: timeoutMs(opts.timeout),
      signal: opts.signal,
      run: async (signal) => {
        if (!r.sink) {
          const started = performance.now();
          await r.engine.speak(text, voice, speed, signal).catch(this.failure(r, voice, text, signal));
          return { voice, durationMs: Math.round(performance.now() - started) };
        }
        const wav = await this.render(r, text, voice, speed, signal);
        await r.sink.play(wav, signal).catch(sinkFailure(signal));
        return { voice, durationMs: wavInfo(wav).durationMs };
      },
    });
  }

  private failure(r: Ready, voice: string, text: string, signal: AbortSignal): (err: unknown) => never {
    return engineFailure({ engine: r.engine, voice, text, signal, log: this.deps.log });
  }

  /** The WAV for (engine, voice, speed, text), from the cache or freshly synthesized. */
  private async render(r: Ready, text: string, voice: string, speed: number, signal: AbortSignal): Promise<Uint8Array> {
    const key = cacheKey({ engine: r.engine.id, voice, speed, text: cleanText(text) });
    const hit = await r.cache.get(key);
    if (hit) return hit;
    const wav = await r.engine.synthesize(text, voice, speed, signal).catch(this.failure(r, voice, text, signal));
    // Not awaited: the caller should not wait for the disk (slow on an SD card), and a full disk
    // must not cost the utterance; the cache is an optimisation.
    void r.cache.put(key, wav).catch((err: unknown) => this.deps.log.warn({ err }, 'speech cache write failed'));
    return wav;
  }
}

/** Whether `audio` starts as a file of `format` does. */
function isFormat(format: AudioFormat, audio: Uint8Array): boolean {
  const b = Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength);
  if (format === 'wav') return b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WAVE';
  return b.length > 3 && (b.toString('latin1', 0, 3) === 'ID3' || (b[0] === 0xff && (b[1]! & 0xe0) === 0xe0));
}

function checkText(text: string): string {
  if (typeof text !== 'string' || text.trim().length === 0) throw invalid('text must not be empty');
  if (text.length > MAX_TEXT) throw invalid(`text is ${text.length} characters; at most ${MAX_TEXT} can be spoken at once`);
  // Control characters are dropped before an engine sees the text: one of only those would
  // reach the engine as nothing, and espeak-ng answers nothing with no WAV at all.
  if (cleanText(text).trim().length === 0) throw invalid('text has nothing to speak: only control characters and spaces');
  return text;
}

function timeoutMs(seconds: number | undefined): number {
  if (seconds === undefined) return DEFAULT_TIMEOUT_S * 1000;
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > MAX_TIMEOUT_S) {
    throw invalid(`timeout is in seconds, from 1 to ${MAX_TIMEOUT_S}`);
  }
  return seconds * 1000;
}
