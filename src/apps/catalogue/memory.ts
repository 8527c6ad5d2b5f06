/**
 * The newest catalogue each app store served that the hub accepted, kept in the store's
 * `catalogues` section: a catalogue older than that (a lower `sequence`, or none once a store
 * has published one) is refused, so an old index, validly signed, served again cannot bring
 * old versions back (issue 22, finding 7). A restore through the API keeps the hub's own memory
 * (only the owner's restore replaces a section no scope writes).
 */
import { z } from 'zod';
import { KiB } from '../../core/byte-bounds.js';
import { HearthError } from '../../core/errors.js';
import { safeRecord } from '../../core/null-prototype.js';
import type { Section, Store } from '../../core/store.js';
import type { CatalogueMemory } from './key.js';

export const CATALOGUES_SECTION = 'catalogues';

const Seen = safeRecord(z.string(), z.object({ sequence: z.number().int().nonnegative(), at: z.string() }));
type Seen = z.infer<typeof Seen>;

export class StoredCatalogueMemory implements CatalogueMemory {
  private opened: Section<Seen> | null = null;

  constructor(private readonly store: Store) {}

  /** Opened at first use: a malformed section then fails store reads with its reason (never the hub's start). */
  private get section(): Section<Seen> {
    return (this.opened ??= this.store.section(CATALOGUES_SECTION, Seen, () => ({}), { bytes: { section: 256 * KiB, items: 'app store records' } }));
  }

  async check(location: string, sequence: number | null): Promise<void> {
    const known = this.section.value[location]?.sequence;
    if (known !== undefined && (sequence === null || sequence < known)) {
      throw new HearthError(
        'bad_gateway',
        `the app store at ${location} served a catalogue older (${sequence === null ? 'without a sequence' : `sequence ${sequence}`}) than one this hub already accepted (sequence ${known}): an old catalogue served again? nothing from it is used`,
      );
    }
    if (sequence !== null && sequence !== known) {
      await this.section.update((s) => {
        const now = s[location]?.sequence;
        if (now === undefined || sequence > now) s[location] = { sequence, at: new Date().toISOString() };
      });
    }
  }
}
