/**
 * Presence: a person home or away, asleep or awake (kept on their record in core/people.ts). Each
 * change is told to listeners with what it was before, whether it was forced (Homey's
 * `forceFlowTrigger`: the flows run though nothing changed) and the flow run that caused it (so
 * a flow setting presence runs the flows on it as its children, bounded as any chain).
 */
import type { PeopleService, PersonRecord } from '../../core/people.js';

export type PresenceKey = 'present' | 'asleep';

export interface PresenceChange {
  readonly person: PersonRecord;
  readonly key: PresenceKey;
  readonly before: boolean;
  readonly forced: boolean;
  readonly cause: string | null;
}

export class PresenceService {
  private readonly listeners = new Set<(change: PresenceChange) => void>();

  constructor(readonly people: PeopleService) {}

  onChange(listener: (change: PresenceChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sets `key` of person `id`; resolves with the person once it is on disk (and told). */
  async set(id: string, key: PresenceKey, value: boolean, how: { forced?: boolean; cause?: string | null } = {}): Promise<PersonRecord> {
    const before = this.people.get(id)[key];
    const person = before === value ? this.people.get(id) : await this.people.update(id, (p) => void (p[key] = value));
    if (before !== value || how.forced) {
      const change: PresenceChange = { person, key, before, forced: how.forced === true, cause: how.cause ?? null };
      for (const l of this.listeners) l(change);
    }
    return person;
  }
}
