/**
 * The home's timeline, kept in the data file: the `notifications` record section (the newest
 * MAX_KEPT; one more drops the oldest) and the owners heard (`notification-owners`, each with
 * whether its notifications are kept). Anyone may say something before the store is open (what
 * the hub sets aside at start): it is written once the service starts.
 */
import { randomUUID } from 'node:crypto';
import { KiB, MiB } from '../../core/byte-bounds.js';
import { notFound } from '../../core/errors.js';
import { nullRecord } from '../../core/null-prototype.js';
import type { RecordSection, Store } from '../../core/store.js';
import type { HubBus } from '../bus.js';
import { MAX_EXCERPT, NotificationView, OwnerView } from './contract.js';

/** Notifications the timeline keeps. */
export const MAX_KEPT = 500;
/** Owners the hub remembers (apps and the hub's own parts: a home has far fewer). */
const MAX_OWNERS = 1_000;

/** Who says something: `homey:app:<id>` and the app's id and name, `homey:manager:flow` ... */
export interface Speaker {
  readonly uri: string;
  readonly id: string;
  readonly name: string;
}

/** What the rest of the hub needs of the timeline: to say something on it. */
export interface Timeline {
  /** Resolves once it is kept (or dropped: its owner is turned off); never rejects. */
  notify(owner: Speaker, excerpt: string): Promise<void>;
}

export class NotificationsService implements Timeline {
  private notes!: RecordSection<NotificationView>;
  private owners!: RecordSection<OwnerView>;
  private early: Array<{ owner: Speaker; excerpt: string; at: string; done: () => void }> | null = [];
  /** Writes in the order said, so the oldest dropped is the oldest kept. */
  private chain: Promise<void> = Promise.resolve();
  /** The last time given, so that each notification's is later than the one before (the order of the timeline). */
  private lastAt = 0;

  constructor(
    private readonly store: Store,
    private readonly bus: HubBus,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    this.notes = this.store.records('notifications', NotificationView(), { record: 4 * KiB, item: 'a notification', section: 3 * MiB, items: 'notifications' });
    this.owners = this.store.records('notification-owners', OwnerView(), { record: 2 * KiB, item: 'an owner', section: 2 * MiB, items: 'owners' });
    const early = this.early ?? [];
    this.early = null;
    for (const e of early) void this.say(e.owner, e.excerpt, e.at).then(e.done);
  }

  /** Says `excerpt` on the timeline as `owner` (cut to MAX_EXCERPT); dropped when the owner is turned off. */
  notify(owner: Speaker, excerpt: string): Promise<void> {
    this.lastAt = Math.max(Date.now(), this.lastAt + 1);
    const at = new Date(this.lastAt).toISOString();
    const early = this.early;
    if (early) return new Promise((done) => early.push({ owner, excerpt, at, done }));
    return this.say(owner, excerpt, at);
  }

  private say(owner: Speaker, excerpt: string, at: string): Promise<void> {
    const note: NotificationView = {
      id: randomUUID(),
      ownerUri: owner.uri,
      ownerId: owner.id,
      ownerName: owner.name.slice(0, 200),
      excerpt: excerpt.slice(0, MAX_EXCERPT),
      dateCreated: at,
    };
    const work = async (): Promise<void> => {
      // Read when its turn comes: an owner turned off meanwhile is not heard.
      const known = this.owners.next[owner.uri];
      if (known && !known.enabled) return;
      if (!known && Object.keys(this.owners.next).length < MAX_OWNERS) {
        const fresh: OwnerView = { uri: owner.uri, name: note.ownerName, enabled: true, push: false };
        await this.owners.updateSome([owner.uri], (d) => {
          d[owner.uri] = fresh;
        });
        this.bus.publish('notifications', 'owner.update', fresh);
      }
      // Full: the oldest goes (looked for only then, not at every notification).
      const kept = Object.values(this.notes.next);
      const dropped =
        kept.length < MAX_KEPT
          ? []
          : kept
              .sort((a, b) => a.dateCreated.localeCompare(b.dateCreated))
              .slice(0, kept.length + 1 - MAX_KEPT)
              .map((n) => n.id);
      await this.notes.updateSome([note.id, ...dropped], (d) => {
        for (const id of dropped) delete d[id];
        d[note.id] = note;
      });
      for (const id of dropped) this.bus.publish('notifications', 'notification.delete', { id });
      this.bus.publish('notifications', 'notification.create', note);
    };
    this.chain = this.chain.then(work).catch(this.onError);
    return this.chain;
  }

  list(): Record<string, NotificationView> {
    return Object.assign(nullRecord<NotificationView>(), this.notes.value);
  }

  state(): { notifications: number; latest: string | null } {
    let latest: string | null = null;
    let n = 0;
    for (const note of Object.values(this.notes.value)) {
      n++;
      if (latest === null || note.dateCreated > latest) latest = note.dateCreated;
    }
    return { notifications: n, latest };
  }

  async delete(id: string): Promise<void> {
    if (!Object.hasOwn(this.notes.next, id)) throw notFound(`notification '${id}' does not exist`);
    await this.notes.updateSome([id], (d) => {
      delete d[id];
    });
    this.bus.publish('notifications', 'notification.delete', { id });
  }

  /** Deletes every notification, or `ownerUri`'s. */
  async deleteAll(ownerUri: string | undefined): Promise<void> {
    const ids = Object.values(this.notes.next)
      .filter((n) => ownerUri === undefined || n.ownerUri === ownerUri)
      .map((n) => n.id);
    if (ids.length === 0) return;
    await this.notes.updateSome(ids, (d) => {
      for (const id of ids) delete d[id];
    });
    for (const id of ids) this.bus.publish('notifications', 'notification.delete', { id });
  }

  ownersList(): Record<string, OwnerView> {
    return Object.assign(nullRecord<OwnerView>(), this.owners.value);
  }

  async setOwner(uri: string, patch: { enabled?: boolean; push?: boolean }): Promise<OwnerView> {
    const before = this.owners.next[uri];
    if (!before) throw notFound(`'${uri}' has said nothing on this hub`);
    const next: OwnerView = { ...before, ...patch };
    await this.owners.updateSome([uri], (d) => {
      d[uri] = next;
    });
    this.bus.publish('notifications', 'owner.update', next);
    return next;
  }
}
