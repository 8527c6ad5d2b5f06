/**
 * Voices: the engine's catalogue (every voice it offers) and the installed subset, persisted in
 * the store's `speech` section per engine, so switching engines keeps each engine's choices.
 * Also picks the voice that best serves a language.
 */
import { z } from 'zod';
import { MiB } from '../../core/byte-bounds.js';
import { nullRecord, safeRecord } from '../../core/null-prototype.js';
import type { Section, Store } from '../../core/store.js';
import { type EngineId, type EngineVoice, Voice } from './engines/engine.js';

const SpeechSection = z.object({
  /** engine id -> voice id -> voice. An engine absent here has not had its first start yet. */
  installed: safeRecord(z.string(), safeRecord(z.string(), Voice)),
});
type SpeechSection = z.infer<typeof SpeechSection>;

export const SECTION = 'speech';

/** The public record of a catalogue voice (without engine internals). */
export const publicVoice = (v: Voice): Voice => ({
  id: v.id,
  name: v.name,
  language: v.language,
  locale: v.locale,
  gender: v.gender,
});

/**
 * The voice of `voices` that best serves `language` (a BCP-47 tag such as 'en' or 'nl-BE'):
 * an exact id or locale match first, then the engine's own priority for that language, then
 * for its primary subtag.
 *
 * @example bestVoiceFor(espeakVoices, 'en') // en-gb: espeak-ng ranks it first for 'en'
 */
export function bestVoiceFor<V extends Voice & { serves?: ReadonlyMap<string, number> }>(voices: readonly V[], language: string): V | undefined {
  const tag = language.toLowerCase();
  const exact = voices.find((v) => v.id === tag) ?? voices.find((v) => v.locale.toLowerCase() === tag);
  if (exact) return exact;
  for (const want of [tag, tag.split('-')[0]!]) {
    let best: V | undefined;
    let bestRank = Infinity;
    for (const v of voices) {
      const rank = v.serves?.get(want) ?? (v.language === want ? 50 : Infinity);
      if (rank < bestRank) {
        best = v;
        bestRank = rank;
      }
    }
    if (best) return best;
  }
  return undefined;
}

export class VoiceRegistry {
  private readonly section: Section<SpeechSection>;

  constructor(
    store: Store,
    private readonly engine: EngineId,
    private readonly catalogue: readonly EngineVoice[],
  ) {
    this.section = store.section(SECTION, SpeechSection, () => ({ installed: {} }), {
      bytes: { section: MiB, items: 'voices' },
      records: [['installed', '*', '*']],
    });
  }

  /** True until the engine's first start has installed its default voice. */
  get firstStart(): boolean {
    return this.section.value.installed[this.engine] === undefined;
  }

  catalogueVoices(): Voice[] {
    return this.catalogue.map(publicVoice);
  }

  findInCatalogue(id: string): EngineVoice | undefined {
    return this.catalogue.find((v) => v.id === id);
  }

  installed(): Record<string, Voice> {
    return { ...this.section.value.installed[this.engine] };
  }

  get(id: string): Voice | undefined {
    return this.section.value.installed[this.engine]?.[id];
  }

  /** Installs a catalogue voice; returns it, and whether it was new. */
  async install(voice: Voice): Promise<{ voice: Voice; created: boolean }> {
    const record = publicVoice(voice);
    return this.section.update((draft) => {
      const mine = (draft.installed[this.engine] ??= nullRecord());
      const created = mine[record.id] === undefined;
      mine[record.id] = record;
      return { voice: record, created };
    });
  }

  /** Records the engine's first start even when it had no voice to install. */
  async markStarted(): Promise<void> {
    if (!this.firstStart) return;
    await this.section.update((draft) => {
      draft.installed[this.engine] ??= nullRecord();
    });
  }

  async uninstall(id: string): Promise<Voice | undefined> {
    return this.section.update((draft) => {
      const mine = draft.installed[this.engine];
      const voice = mine?.[id];
      if (mine && voice) delete mine[id];
      return voice;
    });
  }

  /**
   * Brings installed records in line with what the engine reports now (an engine upgrade can
   * rename a voice). Returns each changed voice with its old record, for voice.update events.
   */
  async refresh(): Promise<{ before: Voice; after: Voice }[]> {
    const changes: { before: Voice; after: Voice }[] = [];
    for (const [id, before] of Object.entries(this.installed())) {
      const now = this.findInCatalogue(id);
      if (!now) continue;
      const after = publicVoice(now);
      if (JSON.stringify(after) !== JSON.stringify(before)) changes.push({ before, after });
    }
    if (changes.length > 0) {
      await this.section.update((draft) => {
        const mine = (draft.installed[this.engine] ??= nullRecord());
        for (const c of changes) mine[c.after.id] = c.after;
      });
    }
    return changes;
  }
}
