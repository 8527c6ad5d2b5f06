/**
 * The people of the home: each a name, a role (roles.ts), enabled or not, home or away, asleep or
 * awake, kept in the `users` record section. The first owner is made at the first start (named
 * "Owner" until the first-run setup names them): the owner token is theirs. The last enabled
 * owner cannot be removed, demoted or disabled, so the home always has someone who can do all.
 * Listeners hear every change with the record before and after (the users manager's events, the
 * tokens' rights, presence's flow cards).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { KiB } from './byte-bounds.js';
import { HearthError, notFound } from './errors.js';
import { MAX_NAME, MAX_ZONES, ROLES, type Role } from './roles.js';
import type { RecordSection, Store } from './store.js';

/** People a home holds: a family and its guests, with room to spare. */
export const MAX_PEOPLE = 100;

export const PersonRecord = z.object({
  id: z.string(),
  name: z.string().max(MAX_NAME),
  role: z.enum(ROLES),
  enabled: z.boolean(),
  present: z.boolean(),
  asleep: z.boolean(),
  /** The person's picture: an image id of the images manager, or null. */
  avatar: z.string().nullable(),
  /** A guest's rooms: the zones they reach, each with the zones inside it (managers/zones/reach.ts). */
  zones: z.array(z.string()).max(MAX_ZONES).default([]),
  /** What Homey keeps per user for clients (`updateUserMeProperties`), each value JSON. */
  properties: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
});
export type PersonRecord = z.infer<typeof PersonRecord>;

/** A change: the record before (null: made) and after (null: removed). */
export type PersonChange = { readonly before: PersonRecord | null; readonly after: PersonRecord | null };

const notFoundPerson = (id: string) => notFound(`person '${id}' does not exist`);

export class PeopleService {
  private readonly section: RecordSection<PersonRecord>;
  private readonly listeners = new Set<(change: PersonChange) => void>();

  constructor(store: Store) {
    this.section = store.records('users', PersonRecord, { record: 8 * KiB, item: 'a person', section: MAX_PEOPLE * 8 * KiB, items: 'people' });
  }

  /** Makes the first owner when the home has none (a new home, or one from before people). */
  async start(): Promise<void> {
    if (!this.list().some((p) => p.role === 'owner')) await this.create({ name: 'Owner', role: 'owner' });
  }

  /** Hears every change; answers a function that stops it. */
  onChange(listener: (change: PersonChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): PersonRecord[] {
    return Object.values(this.section.value);
  }

  find(id: string): PersonRecord | undefined {
    return Object.hasOwn(this.section.value, id) ? this.section.value[id] : undefined;
  }

  get(id: string): PersonRecord {
    const p = this.find(id);
    if (!p) throw notFoundPerson(id);
    return p;
  }

  /** The person the owner token belongs to: the first owner made. */
  tokenOwner(): PersonRecord | undefined {
    return this.list()
      .filter((p) => p.role === 'owner')
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0];
  }

  async create(fields: { name: string; role: Role; zones?: readonly string[] }): Promise<PersonRecord> {
    if (Object.keys(this.section.next).length >= MAX_PEOPLE) throw new HearthError('conflict', `a home holds at most ${MAX_PEOPLE} people`);
    const person: PersonRecord = {
      id: randomUUID(),
      name: fields.name,
      role: fields.role,
      enabled: true,
      present: false,
      asleep: false,
      avatar: null,
      zones: [...(fields.zones ?? [])],
      properties: {},
      createdAt: new Date().toISOString(),
    };
    await this.section.updateSome([person.id], (d) => {
      d[person.id] = person;
    });
    this.tell({ before: null, after: person });
    return person;
  }

  /**
   * Changes a person (`change` gets a copy); refused when it would leave the home without an
   * enabled owner. Resolves with the record after, once on disk.
   */
  async update(id: string, change: (p: PersonRecord) => void): Promise<PersonRecord> {
    let before: PersonRecord | undefined;
    let after: PersonRecord | undefined;
    await this.section.updateSome([id], (d) => {
      const p = d[id];
      if (!p) throw notFoundPerson(id);
      before = structuredClone(p);
      change(p);
      if (before.role === 'owner' && before.enabled && !(p.role === 'owner' && p.enabled)) this.mustKeepAnOwner(id);
      after = p;
    });
    if (!before || !after) throw notFoundPerson(id);
    this.tell({ before, after });
    return after;
  }

  async remove(id: string): Promise<void> {
    let before: PersonRecord | undefined;
    await this.section.updateSome([id], (d) => {
      before = d[id];
      if (!before) throw notFoundPerson(id);
      if (before.role === 'owner' && before.enabled) this.mustKeepAnOwner(id);
      delete d[id];
    });
    if (before) this.tell({ before, after: null });
  }

  /** Refuses a change that leaves no enabled owner but `id`. */
  private mustKeepAnOwner(id: string): void {
    const others = Object.values(this.section.next).filter((p) => p.id !== id && p.role === 'owner' && p.enabled);
    if (others.length === 0) throw new HearthError('conflict', 'the home needs an owner: make someone else owner first');
  }

  private tell(change: PersonChange): void {
    for (const l of this.listeners) l(change);
  }
}
