/**
 * What running a card asks of whoever runs it: the scope its owner's own API needs. A token that
 * may not switch the lamp through the devices API may not switch it through a card either, by
 * hand, in a test of a flow, or in a flow it saves (a saved flow runs later, with nobody's token:
 * its author's rights are checked when it is saved or changed, over every card it holds).
 *
 * - A device's card (the hub's, or an app's card with a device argument): its actions control the
 *   device (`service.device.control`); its triggers and conditions read it (`service.device.readonly`).
 * - An app's own card: its actions use the app (`service.app.control`, as its Web API asks);
 *   its triggers and conditions read it (`service.app.readonly`).
 * - The hub's cards: variables (`service.logic`, reading them `service.logic.readonly`), speech
 *   (`service.speech`), starting a flow (`service.flow.start`), presence (`service.presence`,
 *   reading it `service.presence.readonly`); the clock's, the sun's and a
 *   notification's ask nothing more than the flows scope the operation already asked.
 */
import type { Card, CardKind } from '../../apps/manifest/flow-cards.js';
import { HearthError } from '../../core/errors.js';
import { grants, type Scope } from '../../core/scopes.js';
import type { TokenInfo } from '../../core/tokens.js';

/** The hub's own cards by owner: what an action needs, and what a trigger or condition needs. */
const HUB_CARDS: Readonly<Record<string, { readonly act: Scope | null; readonly read: Scope | null }>> = {
  logic: { act: 'service.logic', read: 'service.logic.readonly' },
  'speech-output': { act: 'service.speech', read: null },
  flow: { act: 'service.flow.start', read: null },
  presence: { act: 'service.presence', read: 'service.presence.readonly' },
  moods: { act: 'service.mood.set', read: 'service.mood.readonly' },
  alarms: { act: 'service.alarm', read: 'service.alarm.readonly' },
  energy: { act: 'service.energy', read: 'service.energy.readonly' },
};

/** The scope running `card` as a `kind` card needs, or null when the flows scope is enough. */
export function cardScope(card: Pick<Card, 'ownerUri' | 'deviceArg'>, kind: CardKind): Scope | null {
  const acts = kind === 'action';
  if (card.ownerUri.startsWith('homey:device:') || card.deviceArg) return acts ? 'service.device.control' : 'service.device.readonly';
  if (card.ownerUri.startsWith('homey:app:')) return acts ? 'service.app.control' : 'service.app.readonly';
  const owner = HUB_CARDS[card.ownerUri.slice('homey:manager:'.length)];
  return (acts ? owner?.act : owner?.read) ?? null;
}

/** A card's view as `token` sees it: `usable` says whether it may run the card. */
export function forCaller<V extends { needs: string | null; usable: boolean }>(token: TokenInfo | null, view: V): V {
  const needs = view.needs as Scope | null;
  return needs === null || !token || grants(token.scopes, needs) ? view : { ...view, usable: false };
}

/** Throws a 403 naming the first of `cards` that `token` may not run, and the scope it needs. */
export function checkCardRights(token: TokenInfo | null, cards: Iterable<{ card: Card; kind: CardKind; name: string }>): void {
  if (!token) return;
  for (const { card, kind, name } of cards) {
    const needed = cardScope(card, kind);
    if (needed && !grants(token.scopes, needed))
      throw new HearthError('missing_scope', `the ${kind} card ${name} needs the scope '${needed}', which this token does not hold`);
  }
}
