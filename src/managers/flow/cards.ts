/**
 * Every flow card the hub knows, by Homey's id: the cards of each installed app (read from its
 * manifest when first asked, again when the app changes). The engine finds a flow's cards here;
 * a card that is not here makes the flow broken.
 */

import { type CardKind, readCards } from '../../apps/manifest/flow-cards.js';
import type { AppManifest } from '../../apps/manifest/manifest.js';
import { notFound } from '../../core/errors.js';
import { KeptMap } from '../../core/kept.js';
import { nullRecord } from '../../core/null-prototype.js';
import { cardScope } from './card-rights.js';
import type { HubCard } from './hub-card.js';
import type { CardView } from './views.js';

type Card = HubCard;

/**
 * Devices whose cards are kept made: those a flow's run or save asks about again soon. A listing
 * of every device's cards walks them all in turn, so a longer list would keep nothing it asks
 * again; 128 kept a big home's ~4.5 KiB a device of cards from its build for good (574 KiB of
 * its heap at rest, a heap snapshot of the home bench).
 */
export const DEVICES_CARDS_KEPT = 32;

/** What the registry needs of the installed apps. */
export interface CardSource {
  appIds(): string[];
  manifest(appId: string): AppManifest | null;
  appName(appId: string): string;
  language(): string;
}

export class CardRegistry {
  /** The hub's own cards (system-cards.ts). */
  private system: HubCard[] = [];
  /** The devices' cards (device-cards.ts), made per device when first asked. */
  private devices: { ids(): string[]; cards(id: string): HubCard[] } | null = null;
  /**
   * The cards of the devices asked about last: made again when asked after (a few objects a
   * capability, microseconds), so a home of a thousand devices does not hold all their cards
   * once a flow editor has listed them.
   */
  private readonly byDevice = new KeptMap<string, HubCard[]>(DEVICES_CARDS_KEPT);
  private byApp: Map<string, Card[]> | null = null;
  private byId = new Map<string, Card>();
  private readonly problems = new Map<string, string[]>();

  constructor(private readonly source: CardSource) {}

  setDevices(devices: { ids(): string[]; cards(id: string): HubCard[] }): void {
    this.devices = devices;
    this.byDevice.clear();
  }

  /** A device was added, changed or deleted: its cards are made again when next asked. */
  forgetDevice(id: string): void {
    this.byDevice.delete(id);
  }

  private deviceCards(id: string): HubCard[] {
    let cards = this.byDevice.get(id);
    if (!cards) {
      cards = this.devices?.cards(id) ?? [];
      this.byDevice.set(id, cards);
    }
    return cards;
  }

  setSystem(cards: HubCard[]): void {
    this.system = cards;
    this.forget();
  }

  /** An app was installed, changed or removed (or the language changed): its cards are read again when next asked. */
  forget(): void {
    this.byApp = null;
    // An app's own capabilities make its devices' cards: they are made again too.
    this.byDevice.clear();
  }

  private index(): Map<string, Card[]> {
    if (this.byApp) return this.byApp;
    const byApp = new Map<string, Card[]>();
    const byId = new Map<string, Card>();
    this.problems.clear();
    byApp.set('', this.system);
    for (const c of this.system) byId.set(`${c.kind}:${c.id}`, c);
    const language = this.source.language();
    for (const appId of this.source.appIds()) {
      const manifest = this.source.manifest(appId);
      if (!manifest) continue;
      const { cards, unreadable } = readCards(appId, manifest.raw, language);
      byApp.set(appId, cards);
      if (unreadable.length) this.problems.set(appId, unreadable);
      for (const c of cards) byId.set(`${c.kind}:${c.id}`, c);
    }
    this.byApp = byApp;
    this.byId = byId;
    return byApp;
  }

  /** A card by kind and Homey's id, or null. */
  find(kind: CardKind, id: string): Card | null {
    if (id.startsWith('homey:device:')) {
      const deviceId = id.split(':')[2] ?? '';
      return this.deviceCards(deviceId).find((c) => c.kind === kind && c.id === id) ?? null;
    }
    this.index();
    return this.byId.get(`${kind}:${id}`) ?? null;
  }

  get(kind: CardKind, id: string): Card {
    const card = this.find(kind, id);
    if (!card) throw notFound(`there is no ${kind} card '${id}'`);
    return card;
  }

  /** A card by Homey's two path parts (`uri`, and the id whole or the card's own). */
  byPath(kind: CardKind, uri: string, id: string): Card {
    return this.get(kind, id.startsWith(`${uri}:`) ? id : `${uri}:${id}`);
  }

  list(kind: CardKind): Card[] {
    const devices = (this.devices?.ids() ?? []).flatMap((id) => this.deviceCards(id));
    return [...this.index().values(), devices].flat().filter((c) => c.kind === kind);
  }

  /** The cards of an app hearth could not read, one sentence each. */
  unreadable(appId: string): string[] {
    this.index();
    return this.problems.get(appId) ?? [];
  }

  /** A card's title and its owner's name, for a run's log; null for a card that is not here. */
  describe(kind: CardKind, id: string): { title: string; ownerName: string } | null {
    const card = this.find(kind, id);
    return card ? { title: card.title, ownerName: this.ownerName(card) } : null;
  }

  /** The name of a card's owner: the hub's or a device's own, else its app's. */
  private ownerName(card: Card): string {
    return card.ownerName ?? this.source.appName(card.appId);
  }

  view(card: Card): CardView {
    return {
      id: card.id,
      uri: card.ownerUri,
      ownerUri: card.ownerUri,
      ownerId: card.appId,
      ownerName: this.ownerName(card),
      type: card.kind,
      title: card.title,
      titleFormatted: card.titleFormatted,
      hint: card.hint,
      args: card.args.map((a) => ({ ...a, values: a.values ? [...a.values] : null })),
      tokens: card.tokens.map((t) => ({ id: t.name, type: t.type, title: t.title, example: t.example })),
      droptoken: card.droptoken ? [...card.droptoken] : null,
      deprecated: card.deprecated,
      highlight: card.highlight,
      duration: card.duration,
      needs: cardScope(card, card.kind),
      usable: true,
    };
  }

  views(kind: CardKind): Record<string, CardView> {
    const out = nullRecord<CardView>();
    for (const c of this.list(kind)) out[c.id] = this.view(c);
    return out;
  }
}
