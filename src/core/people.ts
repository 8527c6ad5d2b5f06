/**
 * The people of the home: each a name, a role (roles.ts), enabled or not, home or away, asleep or
 * awake, kept in the `users` record section. The first owner is made at the first start (named
 * "Owner" until the first-run setup names them): the owner token is theirs. The last enabled
 * owner cannot be removed, demoted or disabled, so the home always has someone who can do all.
 * Listeners hear every change with the record before and after (the users manager's events, the
 * tokens' rights, presence's flow cards).
 */
import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { KiB } from './byte-bounds.js';
import { HearthError, invalid, notFound } from './errors.js';
import { IMAGE_TYPES, imageType } from './image-type.js';
import { MAX_AVATAR_BYTES, MAX_NAME, MAX_ZONES, ROLES, type Role } from './roles.js';
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
  /** The person's picture's version (a hash of its bytes, kept in `user-avatars`), or null: none. */
  avatar: z.string().nullable(),
  /** A guest's rooms: the zones they reach, each with the zones inside it (managers/zones/reach.ts). */
  zones: z.array(z.string()).max(MAX_ZONES).default([]),
  /** What Homey keeps per user for clients (`updateUserMeProperties`), each value JSON. */
  properties: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
});
export type PersonRecord = z.infer<typeof PersonRecord>;

/** A person's picture: its type (checked from its bytes) and the bytes, base64. */
const AvatarRecord = z.object({ type: z.enum(IMAGE_TYPES), base64: z.string().max(Math.ceil(MAX_AVATAR_BYTES / 3) * 4) });
type AvatarRecord = z.infer<typeof AvatarRecord>;

/** A change: the record before (null: made) and after (null: removed). */
export type PersonChange = { readonly before: PersonRecord | null; readonly after: PersonRecord | null };

const notFoundPerson = (id: string) => notFound(`person '${id}' does not exist`);

export class PeopleService {
  private readonly section: RecordSection<PersonRecord>;
  private readonly avatars: RecordSection<AvatarRecord>;
  private readonly listeners = new Set<(change: PersonChange) => void>();

  constructor(store: Store) {
    this.section = store.records('users', PersonRecord, { record: 8 * KiB, item: 'a person', section: MAX_PEOPLE * 8 * KiB, items: 'people' });
    const avatar = Math.ceil(MAX_AVATAR_BYTES / 3) * 4 + KiB;
    this.avatars = store.records('user-avatars', AvatarRecord, { record: avatar, item: 'a picture', section: MAX_PEOPLE * avatar, items: 'pictures' });
  }

  /** A person's picture, or null. */
  avatar(id: string): { type: string; bytes: Buffer } | null {
    const a = Object.hasOwn(this.avatars.value, id) ? this.avatars.value[id] : undefined;
    return a ? { type: a.type, bytes: Buffer.from(a.base64, 'base64') } : null;
  }

  /** Gives person `id` the picture `bytes` (a JPEG, PNG, GIF or WebP by its bytes, at most MAX_AVATAR_BYTES), or takes it away (null). */
  async setAvatar(id: string, bytes: Uint8Array | null): Promise<PersonRecord> {
    this.get(id);
    if (bytes === null) {
      await this.avatars.updateSome([id], (d) => void delete d[id]);
      return this.update(id, (p) => void (p.avatar = null));
    }
    if (bytes.length > MAX_AVATAR_BYTES)
      throw new HearthError('payload_too_large', `a picture is at most ${MAX_AVATAR_BYTES / KiB} KiB; this one is ${Math.ceil(bytes.length / KiB)} KiB`);
    const type = imageType(bytes);
    if (!type) throw invalid('a picture is a JPEG, PNG, GIF or WebP image; these bytes are none of them');
    await this.avatars.updateSome([id], (d) => {
      d[id] = { type, base64: Buffer.from(bytes).toString('base64') };
    });
    const version = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    return this.update(id, (p) => void (p.avatar = version));
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
    // Their picture goes with them.
    if (Object.hasOwn(this.avatars.next, id)) await this.avatars.updateSome([id], (d) => void delete d[id]);
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
